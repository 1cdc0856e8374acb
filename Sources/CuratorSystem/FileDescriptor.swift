// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import Glibc

/// A raw descriptor with typed, errno-carrying operations. Ownership is explicit:
/// whoever opens one closes it (use `closeAfter`).
public struct FileDescriptor: Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let currentDirectory = FileDescriptor(rawValue: AT_FDCWD)

    public static func open(
        _ path: ByteString, _ flags: Int32, mode: mode_t = 0, relativeTo dir: FileDescriptor = .currentDirectory
    ) throws(SystemError) -> FileDescriptor {
        let fd = try syscall("open", path: path.lossyString) {
            path.withCString { SystemCalls.openat(dir.rawValue, $0, flags | curator_O_CLOEXEC, UInt32(mode)) }
        }
        return FileDescriptor(rawValue: fd)
    }

    /// A directory handle that does not follow a final symlink.
    public static func openDirectory(_ path: ByteString, relativeTo dir: FileDescriptor = .currentDirectory) throws(SystemError) -> FileDescriptor {
        try open(path, O_RDONLY | curator_O_DIRECTORY | curator_O_NOFOLLOW, relativeTo: dir)
    }

    /// Closes the descriptor, and says so when close(2) reports an error: on NFS and
    /// other network file systems that is where a failed write-back shows (EIO,
    /// ENOSPC, EDQUOT), so whoever wrote through the descriptor must hear of it.
    /// The descriptor is gone either way: Linux releases it before it reports, EINTR
    /// included, so a retry could close a number another thread has just been given.
    /// EBADF is our bug (a descriptor closed twice): trap, as `syscall` does.
    public func close(path: @autoclosure () -> String? = nil) throws(SystemError) {
        guard SystemCalls.close(rawValue) == -1 else { return }
        let error = errno
        precondition(error != EBADF, "close: \(Errno(error)) is a bug")
        throw SystemError("close", path: path(), errno: Errno(error))
    }

    /// Runs `body`, then closes the descriptor, whatever `body` did. When `body`
    /// throws, that is the error (a failed close after it says less); when only
    /// the close fails, its error is thrown, and the result is lost.
    public func closeAfter<R>(path: @autoclosure () -> String? = nil,
                              _ body: (FileDescriptor) throws(SystemError) -> R) throws(SystemError) -> R {
        let result: R
        do {
            result = try body(self)
        } catch {
            try? close()
            throw error
        }
        try close(path: path())
        return result
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try syscall("read") { SystemCalls.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// pread(2): up to `buffer.count` bytes at `offset`, fewer at the end of the file
    /// (a short read in the middle is carried on). `path` is for the message.
    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer,
                     path: @autoclosure () -> String? = nil) throws(SystemError) -> Int {
        var filled = 0
        while filled < buffer.count {
            let n = try syscall("pread", path: path()) {
                SystemCalls.pread(rawValue, buffer.baseAddress.map { $0 + filled }, buffer.count - filled, off_t(offset) + off_t(filled))
            }
            if n == 0 { break }
            filled += n
        }
        return filled
    }

    /// Asks the kernel to start reading `count` bytes at `offset` into the page cache
    /// now (POSIX_FADV_WILLNEED), for a read that comes soon. A hint: whether it is
    /// taken changes only how long that read waits.
    public func willNeed(at offset: Int64, count: Int64) {
        _ = SystemCalls.fadvise(rawValue, off_t(offset), off_t(count), POSIX_FADV_WILLNEED)
    }

    /// Reads to the end. More than `limit` bytes is an error (EFBIG), never a
    /// silent cut: a configuration or a mount table read in part would be
    /// taken for the whole. `path` is for the message.
    public func readAll(limit: Int = 1 << 26, path: @autoclosure () -> String? = nil) throws(SystemError) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = try syscall("read", path: path()) {
                chunk.withUnsafeMutableBytes { buf in SystemCalls.read(rawValue, buf.baseAddress, buf.count) }
            }
            if n == 0 { return result }
            guard result.count + n <= limit else {
                throw SystemError("read (more than \(Self.describe(bytes: limit)))", path: path(), errno: .fileTooLarge)
            }
            result.append(contentsOf: chunk[0..<n])
        }
    }

    /// "1 MiB", "64 KiB", "100 bytes".
    static func describe(bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    /// Writes every byte: a short write (a signal, a pipe, a file system near full)
    /// is continued where it stopped. `path` is for the message.
    public func writeAll(_ bytes: [UInt8], path: @autoclosure () -> String? = nil) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let n = try syscall("write", path: path()) {
                bytes.withUnsafeBytes { buf in SystemCalls.write(rawValue, buf.baseAddress! + offset, buf.count - offset) }
            }
            offset += n
        }
    }

    /// pwrite(2) of every byte at `offset`: a short write is carried on where it stopped.
    public func writeAll(_ bytes: [UInt8], at offset: Int64, path: @autoclosure () -> String? = nil) throws(SystemError) {
        var written = 0
        while written < bytes.count {
            let n = try syscall("pwrite", path: path()) {
                bytes.withUnsafeBytes { buf in
                    SystemCalls.pwrite(rawValue, buf.baseAddress! + written, buf.count - written, off_t(offset) + off_t(written))
                }
            }
            written += n
        }
    }

    public func sync(path: @autoclosure () -> String? = nil) throws(SystemError) {
        _ = try syscall("fsync", path: path()) { SystemCalls.fsync(rawValue) }
    }

    /// fchmod(2). `path` is for the message.
    public func changeMode(_ mode: mode_t, path: @autoclosure () -> String? = nil) throws(SystemError) {
        _ = try syscall("fchmod", path: path()) { SystemCalls.fchmod(rawValue, mode) }
    }

    public func setCloseOnExec() throws(SystemError) {
        let flags = try syscall("fcntl") { SystemCalls.fcntl(rawValue, F_GETFD) }
        _ = try syscall("fcntl") { SystemCalls.fcntl(rawValue, F_SETFD, flags | FD_CLOEXEC) }
    }

    public func setNonBlocking() throws(SystemError) {
        let flags = try syscall("fcntl") { SystemCalls.fcntl(rawValue, F_GETFL) }
        _ = try syscall("fcntl") { SystemCalls.fcntl(rawValue, F_SETFL, flags | O_NONBLOCK) }
    }
}

/// fsyncs a directory so that a rename or create inside it survives a power cut.
public func syncDirectory(_ path: ByteString) throws(SystemError) {
    let fd = try FileDescriptor.open(path, O_RDONLY | curator_O_DIRECTORY)
    try fd.closeAfter(path: path.lossyString) { (fd) throws(SystemError) in try fd.sync(path: path.lossyString) }
}
