// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// The parts of `struct stat` the curator cares about.
public struct FileStatus: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var mtimeNanoseconds: Int64
    public var mode: UInt32
    public var uid: UInt32
    public var gid: UInt32
    public var linkCount: UInt64

    public init(_ st: stat) {
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        size = Int64(st.st_size)
        mtimeNanoseconds = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        mode = st.st_mode
        uid = st.st_uid
        gid = st.st_gid
        linkCount = UInt64(st.st_nlink)
    }

    public var isDirectory: Bool { mode & S_IFMT == S_IFDIR }
    public var isRegularFile: Bool { mode & S_IFMT == S_IFREG }
    public var isSymlink: Bool { mode & S_IFMT == S_IFLNK }

    /// lstat: a symlink is reported as itself, never followed.
    public static func of(_ path: ByteString, relativeTo dir: FileDescriptor = .currentDirectory) throws(SystemError) -> FileStatus {
        var terminated = path.bytes
        terminated.append(0)
        return try terminated.withUnsafeBufferPointer { (all) throws(SystemError) -> FileStatus in
            try of(terminated: UnsafeBufferPointer(rebasing: all.dropLast()), relativeTo: dir)
        }
    }

    /// lstat of a name that a NUL follows in memory (a `DirectoryListing`'s), read
    /// in place: no copy of it to terminate.
    public static func of(terminated name: UnsafeBufferPointer<UInt8>, relativeTo dir: FileDescriptor) throws(SystemError) -> FileStatus {
        var st = stat()
        guard let base = name.baseAddress, base[name.count] == 0 else {
            throw SystemError("lstat", path: String(decoding: name, as: UTF8.self), errno: .invalid)
        }
        _ = try syscall("lstat", path: String(decoding: name, as: UTF8.self)) {
            base.withMemoryRebound(to: CChar.self, capacity: name.count + 1) { SystemCalls.fstatat(dir.rawValue, $0, &st, AT_SYMLINK_NOFOLLOW) }
        }
        return FileStatus(st)
    }

    /// stat that follows symlinks (used for roots, which may be symlinks themselves).
    public static func following(_ path: ByteString) throws(SystemError) -> FileStatus {
        var st = stat()
        _ = try syscall("stat", path: path.lossyString) { path.withCString { SystemCalls.stat($0, &st) } }
        return FileStatus(st)
    }

    public static func of(descriptor: FileDescriptor) throws(SystemError) -> FileStatus {
        var st = stat()
        _ = try syscall("fstat") { SystemCalls.fstat(descriptor.rawValue, &st) }
        return FileStatus(st)
    }

    /// Nil when the path does not exist; other failures throw.
    public static func ifExists(_ path: ByteString, relativeTo dir: FileDescriptor = .currentDirectory) throws(SystemError) -> FileStatus? {
        do { return try of(path, relativeTo: dir) } catch where error.errno == .noEntry || error.errno == .notDirectory {
            return nil
        }
    }
}
