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

    public func close() {
        // Linux closes the descriptor even when close() reports EINTR: never retry.
        _ = SystemCalls.close(rawValue)
    }

    /// Runs `body`, then closes, keeping the body's error if both fail.
    public func closeAfter<R, E: Error>(_ body: (FileDescriptor) throws(E) -> R) throws(E) -> R {
        defer { close() }
        return try body(self)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        try syscall("read") { SystemCalls.read(rawValue, buffer.baseAddress, buffer.count) }
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

    public func sync(path: @autoclosure () -> String? = nil) throws(SystemError) {
        _ = try syscall("fsync", path: path()) { SystemCalls.fsync(rawValue) }
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
    try fd.closeAfter { (fd) throws(SystemError) in try fd.sync(path: path.lossyString) }
}
