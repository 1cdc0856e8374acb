// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// One directory entry: its name as bytes and its type when the file system says it.
public struct DirectoryEntry: Sendable {
    public enum Kind: Sendable { case file, directory, symlink, other, unknown }
    public var name: ByteString
    public var kind: Kind
    /// d_ino: finds a file by its inode without a stat per entry.
    public var inode: UInt64
}

/// Lists a directory without following symlinks or allocating per entry more than its name.
public enum DirectoryReader {
    public static func entries(of path: ByteString, relativeTo dir: FileDescriptor = .currentDirectory) throws(SystemError) -> [DirectoryEntry] {
        let fd = try FileDescriptor.openDirectory(path, relativeTo: dir)
        return try entries(ofOpen: fd, path: path)
    }

    /// Takes ownership of `fd`.
    public static func entries(ofOpen fd: FileDescriptor, path: ByteString) throws(SystemError) -> [DirectoryEntry] {
        guard let stream = SystemCalls.fdopendir(fd.rawValue) else {
            let err = Errno.current
            try? fd.close()  // only read: the fdopendir error says what went wrong
            throw SystemError("fdopendir", path: path.lossyString, errno: err)
        }
        defer { _ = SystemCalls.closedir(stream) }  // only read: nothing for a close to lose
        var result: [DirectoryEntry] = []
        while true {
            errno = 0
            guard let entry = SystemCalls.readdir(stream) else {
                if errno != 0 { throw SystemError("readdir", path: path.lossyString, errno: .current) }
                break
            }
            let name: [UInt8] = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let len = raw.firstIndex(of: 0) ?? raw.count
                return Array(raw[0..<len])
            }
            if name == [46] || name == [46, 46] { continue }
            let kind: DirectoryEntry.Kind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): kind = .file
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_LNK): kind = .symlink
            case Int32(DT_UNKNOWN): kind = .unknown
            default: kind = .other
            }
            result.append(DirectoryEntry(name: ByteString(name), kind: kind, inode: UInt64(entry.pointee.d_ino)))
        }
        return result
    }
}
