// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import Glibc

/// Every libc call that touches a file, a directory, a socket or a descriptor, in
/// one table: the rest of the code calls these, never Glibc's, so that a test can
/// make any of them fail (`FaultPlan`) without the kernel's help. Each entry is the
/// bare call, with libc's own arguments and result (-1 and errno); `syscall()`
/// turns that into a `SystemError` and retries EINTR.
///
/// In a release build an entry is the libc call itself: `@inlinable` and nothing
/// else in the body, so the optimiser puts the call straight into the caller. A
/// debug build (`CURATOR_FAULT_INJECTION`) first loads one flag, set only while a
/// test's plan is installed, and asks the plan only then.
///
/// Not here: calls with nothing to inject (clocks, pids and uids, pthreads, signal
/// masks, malloc tuning) and the user database (getpwuid_r), which reports its
/// failures by return value and is tested with real entries.
package enum SystemCalls {
    // MARK: files and directories

    @inlinable package static func openat(_ directory: Int32, _ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: UInt32) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.openat, path: path, in: directory) { _ in curator_openat(directory, path, flags, mode) } }
        #endif
        return curator_openat(directory, path, flags, mode)
    }

    /// openat2 below `directory`, following no symlink (`curator_open_beneath`).
    @inlinable package static func openBeneath(_ directory: Int32, _ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.openat, path: path, in: directory) { _ in curator_open_beneath(directory, path, flags) } }
        #endif
        return curator_open_beneath(directory, path, flags)
    }

    @inlinable package static func close(_ descriptor: Int32) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        // An injected failure still closes: Linux releases the descriptor whatever close(2) reports.
        if FaultPlan.isArmed { return FaultPlan.intercept(.close, descriptor: descriptor, callsThrough: true) { _ in Glibc.close(descriptor) } }
        #endif
        return Glibc.close(descriptor)
    }

    @inlinable package static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.read, descriptor: descriptor) { Glibc.read(descriptor, buffer, min(count, $0)) } }
        #endif
        return Glibc.read(descriptor, buffer, count)
    }

    @inlinable package static func pread(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: off_t) -> Int {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.pread, descriptor: descriptor) { Glibc.pread(descriptor, buffer, min(count, $0), offset) } }
        #endif
        return Glibc.pread(descriptor, buffer, count, offset)
    }

    /// posix_fadvise(2): a hint, with nothing to inject. It returns the error number
    /// itself (0 when taken), not -1 and errno.
    @inlinable package static func fadvise(_ descriptor: Int32, _ offset: off_t, _ length: off_t, _ advice: Int32) -> Int32 {
        Glibc.posix_fadvise(descriptor, offset, length, advice)
    }

    @inlinable package static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.write, descriptor: descriptor) { Glibc.write(descriptor, buffer, min(count, $0)) } }
        #endif
        return Glibc.write(descriptor, buffer, count)
    }

    @inlinable package static func pwrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ offset: off_t) -> Int {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.pwrite, descriptor: descriptor) { Glibc.pwrite(descriptor, buffer, min(count, $0), offset) } }
        #endif
        return Glibc.pwrite(descriptor, buffer, count, offset)
    }

    @inlinable package static func fsync(_ descriptor: Int32) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.fsync, descriptor: descriptor) { _ in Glibc.fsync(descriptor) } }
        #endif
        return Glibc.fsync(descriptor)
    }

    @inlinable package static func syncfs(_ descriptor: Int32) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.syncfs, descriptor: descriptor) { _ in curator_syncfs(descriptor) } }
        #endif
        return curator_syncfs(descriptor)
    }

    @inlinable package static func fstat(_ descriptor: Int32, _ status: UnsafeMutablePointer<Glibc.stat>) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.fstat, descriptor: descriptor) { _ in Glibc.fstat(descriptor, status) } }
        #endif
        return Glibc.fstat(descriptor, status)
    }

    @inlinable package static func fstatat(_ directory: Int32, _ path: UnsafePointer<CChar>, _ status: UnsafeMutablePointer<Glibc.stat>,
                                           _ flags: Int32) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.fstatat, path: path, in: directory) { _ in Glibc.fstatat(directory, path, status, flags) } }
        #endif
        return Glibc.fstatat(directory, path, status, flags)
    }

    /// stat(2), following symlinks.
    @inlinable package static func stat(_ path: UnsafePointer<CChar>, _ status: UnsafeMutablePointer<Glibc.stat>) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.stat, path: path) { _ in libcStat(path, status) } }
        #endif
        return libcStat(path, status)
    }

    /// statx(STATX_MNT_ID): the id of the mount `path` (relative to `directory`) is on.
    @inlinable package static func mountID(_ directory: Int32, _ path: UnsafePointer<CChar>, _ flags: Int32,
                                           _ id: UnsafeMutablePointer<UInt64>) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.statx, path: path, in: directory) { _ in curator_mount_id(directory, path, flags, id) } }
        #endif
        return curator_mount_id(directory, path, flags, id)
    }

    /// statfs(2)'s f_type.
    @inlinable package static func fileSystemType(_ path: UnsafePointer<CChar>, _ type: UnsafeMutablePointer<Int64>) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.statfs, path: path) { _ in curator_fs_type(path, type) } }
        #endif
        return curator_fs_type(path, type)
    }

    @inlinable package static func mkdirat(_ directory: Int32, _ path: UnsafePointer<CChar>, _ mode: mode_t) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.mkdirat, path: path, in: directory) { _ in Glibc.mkdirat(directory, path, mode) } }
        #endif
        return Glibc.mkdirat(directory, path, mode)
    }

    @inlinable package static func unlinkat(_ directory: Int32, _ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.unlinkat, path: path, in: directory) { _ in Glibc.unlinkat(directory, path, flags) } }
        #endif
        return Glibc.unlinkat(directory, path, flags)
    }

    @inlinable package static func renameat2(_ oldDirectory: Int32, _ oldPath: UnsafePointer<CChar>, _ newDirectory: Int32,
                                             _ newPath: UnsafePointer<CChar>, _ flags: UInt32) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed {
            return FaultPlan.intercept(.renameat2, path: oldPath, in: oldDirectory) { _ in
                curator_renameat2(oldDirectory, oldPath, newDirectory, newPath, flags)
            }
        }
        #endif
        return curator_renameat2(oldDirectory, oldPath, newDirectory, newPath, flags)
    }

    @inlinable package static func linkat(_ oldDirectory: Int32, _ oldPath: UnsafePointer<CChar>, _ newDirectory: Int32,
                                          _ newPath: UnsafePointer<CChar>, _ flags: Int32) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed {
            return FaultPlan.intercept(.linkat, path: newPath, in: newDirectory) { _ in Glibc.linkat(oldDirectory, oldPath, newDirectory, newPath, flags) }
        }
        #endif
        return Glibc.linkat(oldDirectory, oldPath, newDirectory, newPath, flags)
    }

    /// linkat(2) of an open (O_TMPFILE) file: by AT_EMPTY_PATH when `direct`
    /// (needs CAP_DAC_READ_SEARCH), else through /proc/self/fd.
    @inlinable package static func linkDescriptor(_ descriptor: Int32, _ newDirectory: Int32, _ newPath: UnsafePointer<CChar>,
                                                  direct: Bool) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed {
            return FaultPlan.intercept(.linkat, path: newPath, in: newDirectory) { _ in
                direct ? curator_linkat_empty(descriptor, newDirectory, newPath) : curator_linkat_fd(descriptor, newDirectory, newPath)
            }
        }
        #endif
        return direct ? curator_linkat_empty(descriptor, newDirectory, newPath) : curator_linkat_fd(descriptor, newDirectory, newPath)
    }

    @inlinable package static func fchmod(_ descriptor: Int32, _ mode: mode_t) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.fchmod, descriptor: descriptor) { _ in Glibc.fchmod(descriptor, mode) } }
        #endif
        return Glibc.fchmod(descriptor, mode)
    }

    @inlinable package static func chmod(_ path: UnsafePointer<CChar>, _ mode: mode_t) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.chmod, path: path) { _ in Glibc.chmod(path, mode) } }
        #endif
        return Glibc.chmod(path, mode)
    }

    @inlinable package static func fchown(_ descriptor: Int32, _ uid: uid_t, _ gid: gid_t) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.fchown, descriptor: descriptor) { _ in Glibc.fchown(descriptor, uid, gid) } }
        #endif
        return Glibc.fchown(descriptor, uid, gid)
    }

    @inlinable package static func fchownat(_ directory: Int32, _ path: UnsafePointer<CChar>, _ uid: uid_t, _ gid: gid_t, _ flags: Int32) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.fchownat, path: path, in: directory) { _ in Glibc.fchownat(directory, path, uid, gid, flags) } }
        #endif
        return Glibc.fchownat(directory, path, uid, gid, flags)
    }

    @inlinable package static func ftruncate(_ descriptor: Int32, _ length: off_t) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.ftruncate, descriptor: descriptor) { _ in Glibc.ftruncate(descriptor, length) } }
        #endif
        return Glibc.ftruncate(descriptor, length)
    }

    @inlinable package static func lseek(_ descriptor: Int32, _ offset: off_t, _ whence: Int32) -> off_t {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.lseek, descriptor: descriptor) { _ in Glibc.lseek(descriptor, offset, whence) } }
        #endif
        return Glibc.lseek(descriptor, offset, whence)
    }

    @inlinable package static func flock(_ descriptor: Int32, _ operation: Int32) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.flock, descriptor: descriptor) { _ in libcFlock(descriptor, operation) } }
        #endif
        return libcFlock(descriptor, operation)
    }

    /// fcntl(2) with an integer argument (F_GETFD and F_GETFL ignore it).
    @inlinable package static func fcntl(_ descriptor: Int32, _ command: Int32, _ argument: Int32 = 0) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.fcntl, descriptor: descriptor) { _ in Glibc.fcntl(descriptor, command, argument) } }
        #endif
        return Glibc.fcntl(descriptor, command, argument)
    }

    @inlinable package static func dup(_ descriptor: Int32) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.dup, descriptor: descriptor) { _ in Glibc.dup(descriptor) } }
        #endif
        return Glibc.dup(descriptor)
    }

    @inlinable package static func dup2(_ descriptor: Int32, _ target: Int32) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.dup2, descriptor: descriptor) { _ in Glibc.dup2(descriptor, target) } }
        #endif
        return Glibc.dup2(descriptor, target)
    }

    @inlinable package static func readlink(_ path: UnsafePointer<CChar>, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int) -> Int {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.readlink, path: path) { _ in Glibc.readlink(path, buffer, size) } }
        #endif
        return Glibc.readlink(path, buffer, size)
    }

    /// realpath(3) into a buffer it allocates (the caller frees it); nil with errno.
    @inlinable package static func realpath(_ path: UnsafePointer<CChar>) -> UnsafeMutablePointer<CChar>? {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.interceptPointer(.realpath, path: path) { Glibc.realpath(path, nil) } }
        #endif
        return Glibc.realpath(path, nil)
    }

    @inlinable package static func faccessat(_ directory: Int32, _ path: UnsafePointer<CChar>, _ mode: Int32, _ flags: Int32) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.faccessat, path: path, in: directory) { _ in Glibc.faccessat(directory, path, mode, flags) } }
        #endif
        return Glibc.faccessat(directory, path, mode, flags)
    }

    // MARK: directory streams

    /// fdopendir(3): the stream owns `descriptor` from here on (closedir closes it).
    @inlinable package static func fdopendir(_ descriptor: Int32) -> OpaquePointer? {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.interceptPointer(.fdopendir, descriptor: descriptor) { Glibc.fdopendir(descriptor) } }
        #endif
        return Glibc.fdopendir(descriptor)
    }

    /// readdir(3): nil at the end (errno untouched) or on failure (errno set).
    @inlinable package static func readdir(_ stream: OpaquePointer) -> UnsafeMutablePointer<dirent>? {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.interceptPointer(.readdir, descriptor: Glibc.dirfd(stream)) { Glibc.readdir(stream) } }
        #endif
        return Glibc.readdir(stream)
    }

    @inlinable package static func closedir(_ stream: OpaquePointer) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed {
            return FaultPlan.intercept(.close, descriptor: Glibc.dirfd(stream), callsThrough: true) { _ in Glibc.closedir(stream) }
        }
        #endif
        return Glibc.closedir(stream)
    }

    // MARK: sockets, polling, events

    @inlinable package static func socket(_ domain: Int32, _ type: Int32, _ proto: Int32) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.socket) { _ in Glibc.socket(domain, type, proto) } }
        #endif
        return Glibc.socket(domain, type, proto)
    }

    @inlinable package static func bind(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.bind, descriptor: descriptor) { _ in Glibc.bind(descriptor, address, length) } }
        #endif
        return Glibc.bind(descriptor, address, length)
    }

    /// setsockopt(2), for SO_REUSEADDR on the web gateway's listener (no fault hook:
    /// an option it cannot set fails the bind that follows, which has one).
    @inlinable package static func setsockopt(_ descriptor: Int32, _ level: Int32, _ name: Int32, _ value: UnsafeRawPointer?,
                                              _ length: socklen_t) -> Int32 {
        Glibc.setsockopt(descriptor, level, name, value, length)
    }

    @inlinable package static func listen(_ descriptor: Int32, _ backlog: Int32) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.listen, descriptor: descriptor) { _ in Glibc.listen(descriptor, backlog) } }
        #endif
        return Glibc.listen(descriptor, backlog)
    }

    /// accept4(2) with SOCK_CLOEXEC.
    @inlinable package static func accept(_ descriptor: Int32) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.accept4, descriptor: descriptor) { _ in curator_accept4_cloexec(descriptor) } }
        #endif
        return curator_accept4_cloexec(descriptor)
    }

    @inlinable package static func connect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.connect, descriptor: descriptor) { _ in Glibc.connect(descriptor, address, length) } }
        #endif
        return Glibc.connect(descriptor, address, length)
    }

    @inlinable package static func send(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.send, descriptor: descriptor) { Glibc.send(descriptor, buffer, min(count, $0), flags) } }
        #endif
        return Glibc.send(descriptor, buffer, count, flags)
    }

    @inlinable package static func recv(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ flags: Int32) -> Int {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.recv, descriptor: descriptor) { Glibc.recv(descriptor, buffer, min(count, $0), flags) } }
        #endif
        return Glibc.recv(descriptor, buffer, count, flags)
    }

    /// send(2) with a descriptor attached, never waiting (`curator_send_with_descriptor`).
    @inlinable package static func sendPassing(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ passed: Int32) -> Int {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.send, descriptor: descriptor) { curator_send_with_descriptor(descriptor, buffer, min(count, $0), passed) } }
        #endif
        return curator_send_with_descriptor(descriptor, buffer, count, passed)
    }

    /// recv(2) that also takes a passed descriptor (`curator_receive_with_descriptor`).
    @inlinable package static func receivePassed(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int,
                                                 _ passed: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed {
            return FaultPlan.intercept(.recv, descriptor: descriptor) { curator_receive_with_descriptor(descriptor, buffer, min(count, $0), passed, flags) }
        }
        #endif
        return curator_receive_with_descriptor(descriptor, buffer, count, passed, flags)
    }

    /// getsockopt(SO_PEERCRED).
    @inlinable package static func peerCredentials(_ descriptor: Int32, _ pid: UnsafeMutablePointer<Int32>, _ uid: UnsafeMutablePointer<UInt32>,
                                                   _ gid: UnsafeMutablePointer<UInt32>) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.getsockopt, descriptor: descriptor) { _ in curator_peer_credentials(descriptor, pid, uid, gid) } }
        #endif
        return curator_peer_credentials(descriptor, pid, uid, gid)
    }

    @inlinable package static func getsockname(_ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>,
                                               _ length: UnsafeMutablePointer<socklen_t>) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.getsockname, descriptor: descriptor) { _ in Glibc.getsockname(descriptor, address, length) } }
        #endif
        return Glibc.getsockname(descriptor, address, length)
    }

    @inlinable package static func shutdown(_ descriptor: Int32, _ how: Int32) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.shutdown, descriptor: descriptor) { _ in Glibc.shutdown(descriptor, how) } }
        #endif
        return Glibc.shutdown(descriptor, how)
    }

    @inlinable package static func poll(_ descriptors: UnsafeMutablePointer<pollfd>, _ count: nfds_t, _ timeoutMilliseconds: Int32) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.poll) { _ in Glibc.poll(descriptors, count, timeoutMilliseconds) } }
        #endif
        return Glibc.poll(descriptors, count, timeoutMilliseconds)
    }

    /// eventfd(2), non-blocking and close-on-exec.
    @inlinable package static func eventfd() -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.eventfd) { _ in curator_eventfd() } }
        #endif
        return curator_eventfd()
    }

    @inlinable package static func inotifyAddWatch(_ descriptor: Int32, _ path: UnsafePointer<CChar>, _ mask: UInt32) -> Int32 {
        #if CURATOR_FAULT_INJECTION
        if FaultPlan.isArmed { return FaultPlan.intercept(.inotify_add_watch, path: path) { _ in Glibc.inotify_add_watch(descriptor, path, mask) } }
        #endif
        return Glibc.inotify_add_watch(descriptor, path, mask)
    }
}

// `stat` and `flock` name structs too, and `Glibc.stat(...)` is taken for the
// struct's initializer: out here, outside the table, the plain call is unambiguous.
@inlinable func libcStat(_ path: UnsafePointer<CChar>, _ status: UnsafeMutablePointer<Glibc.stat>) -> Int32 { stat(path, status) }
@inlinable func libcFlock(_ descriptor: Int32, _ operation: Int32) -> Int32 { flock(descriptor, operation) }
