// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import Glibc

/// The credentials of the process at the other end of a Unix socket (SO_PEERCRED).
public struct PeerCredentials: Hashable, Sendable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    public init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}

/// Unix stream sockets: listening, accepting, connecting.
public enum UnixSocket {
    public static let maxPathLength = 107

    private static func withAddress<R>(_ path: ByteString, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) throws(SystemError) -> R {
        guard path.count <= maxPathLength, !path.containsNUL else {
            throw SystemError("bind", path: path.lossyString, errno: Errno(ENAMETOOLONG))
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.bytes.enumerated() { raw[i] = byte }
            raw[path.count] = 0
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count + 1)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    public static func makeStreamSocket() throws(SystemError) -> FileDescriptor {
        let fd = try syscall("socket") { SystemCalls.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        return FileDescriptor(rawValue: fd)
    }

    /// Connects to `path`; throws ECONNREFUSED / ENOENT as they come.
    public static func connect(to path: ByteString) throws(SystemError) -> FileDescriptor {
        let fd = try makeStreamSocket()
        do {
            _ = try withAddress(path) { (addr, len) in
                // syscall() can't be used inside withAddress's non-throwing closure; retry EINTR here.
                var rc: Int32
                repeat { rc = SystemCalls.connect(fd.rawValue, addr, len) } while rc == -1 && errno == EINTR
                return rc == -1 ? errno : 0
            }.throwingErrno("connect", path: path)
        } catch {
            try? fd.close()  // a socket that never connected: nothing to lose
            throw error
        }
        return fd
    }

    /// Binds and listens on `path` with `mode`. A stale socket file (nobody
    /// answering) is replaced; a live one is refused with EADDRINUSE.
    public static func listen(at path: ByteString, mode: mode_t, backlog: Int32 = 128) throws(SystemError) -> FileDescriptor {
        if let existing = try FileStatus.ifExists(path) {
            guard existing.mode & S_IFMT == S_IFSOCK else {
                throw SystemError("bind", path: path.lossyString, errno: Errno(EEXIST))
            }
            if let probe = try? connect(to: path) {
                try? probe.close()
                throw SystemError("bind", path: path.lossyString, errno: Errno(EADDRINUSE))
            }
            _ = try syscall("unlink", path: path.lossyString) { path.withCString { SystemCalls.unlinkat(AT_FDCWD, $0, 0) } }
        }
        let fd = try makeStreamSocket()
        do {
            // The file must never be wider than `mode`, not even for an instant. Linux
            // creates a socket's file with the mode of the socket's own inode less the
            // umask (unix_bind), so the mode is set on the unbound socket: the file is
            // born `mode & ~umask`. The umask itself is never touched: it belongs to the
            // whole process, and other threads create files meanwhile (the journal's
            // checkpointer, SQLite's -wal and -shm). chmod then adds back what the umask
            // took away (fchmod on the descriptor after bind would not reach the file).
            // It goes by path: the socket's directory is trusted (0700 when curatord
            // makes it, root's or the service's otherwise).
            _ = try syscall("fchmod", path: path.lossyString) { SystemCalls.fchmod(fd.rawValue, mode) }
            try withAddress(path) { (addr, len) in SystemCalls.bind(fd.rawValue, addr, len) == -1 ? errno : 0 }
                .throwingErrno("bind", path: path)
            _ = try syscall("chmod", path: path.lossyString) { path.withCString { SystemCalls.chmod($0, mode) } }
            _ = try syscall("listen", path: path.lossyString) { SystemCalls.listen(fd.rawValue, backlog) }
        } catch {
            try? fd.close()  // a socket that never listened: nothing to lose
            throw error
        }
        return fd
    }

    /// Accepts one connection (close-on-exec), or nil on EAGAIN.
    public static func accept(_ listener: FileDescriptor) throws(SystemError) -> FileDescriptor? {
        guard let fd = try nonBlockingSyscall("accept4", { SystemCalls.accept(listener.rawValue) }) else { return nil }
        return FileDescriptor(rawValue: fd)
    }

    public static func peerCredentials(_ fd: FileDescriptor) throws(SystemError) -> PeerCredentials {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
        _ = try syscall("getsockopt(SO_PEERCRED)") { SystemCalls.peerCredentials(fd.rawValue, &pid, &uid, &gid) }
        return PeerCredentials(pid: pid, uid: uid, gid: gid)
    }

    /// Sends everything, never raising SIGPIPE. Throws EPIPE/ECONNRESET when the peer left.
    public static func sendAll(_ fd: FileDescriptor, _ bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let n = try syscall("send") {
                bytes.withUnsafeBytes { buf in SystemCalls.send(fd.rawValue, buf.baseAddress! + offset, buf.count - offset, Int32(MSG_NOSIGNAL)) }
            }
            offset += n
        }
    }

    /// Sends what fits without blocking; returns the number of bytes sent.
    public static func sendSome(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer) throws(SystemError) -> Int {
        let n = try nonBlockingSyscall("send") { SystemCalls.send(fd.rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        return n ?? 0
    }

    /// Sends what the socket takes now of `bytes`, with `passing` attached to them
    /// (SCM_RIGHTS): 0 when it takes nothing (then the descriptor was not sent either).
    public static func sendSome(_ fd: FileDescriptor, _ bytes: UnsafeRawBufferPointer, passing: FileDescriptor) throws(SystemError) -> Int {
        let n = try nonBlockingSyscall("sendmsg") { SystemCalls.sendPassing(fd.rawValue, bytes.baseAddress, bytes.count, passing.rawValue) }
        return n ?? 0
    }

    /// Receives bytes and the descriptor sent with them, if one was (the caller then
    /// owns it). nil bytes: nothing to read without waiting.
    public static func receive(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer, passed: inout FileDescriptor?,
                               blocking: Bool = true) throws(SystemError) -> Int? {
        let flags: Int32 = blocking ? 0 : Int32(MSG_DONTWAIT)
        var raw: Int32 = -1
        let n = try nonBlockingSyscall("recvmsg") { SystemCalls.receivePassed(fd.rawValue, buffer.baseAddress, buffer.count, &raw, flags) }
        passed = raw >= 0 ? FileDescriptor(rawValue: raw) : nil
        return n
    }

    public static func receive(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer, blocking: Bool = true) throws(SystemError) -> Int? {
        let flags: Int32 = blocking ? 0 : Int32(MSG_DONTWAIT)
        return try nonBlockingSyscall("recv") { SystemCalls.recv(fd.rawValue, buffer.baseAddress, buffer.count, flags) }
    }
}

extension Int32 {
    fileprivate func throwingErrno(_ call: String, path: ByteString) throws(SystemError) {
        if self != 0 { throw SystemError(call, path: path.lossyString, errno: Errno(self)) }
    }
}
