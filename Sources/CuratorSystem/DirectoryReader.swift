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

/// A directory's entries with every name in one buffer, each followed by a NUL:
/// listing a folder allocates two arrays, not one per name, and a name can be
/// given to the kernel (`FileStatus.of(terminated:relativeTo:)`) and read in place. A
/// scan then copies out only the names it keeps, in the order it keeps them.
public struct DirectoryListing: Sendable {
    public struct Entry: Sendable {
        /// Where the name starts in `names`; it runs for `length` bytes, then a NUL.
        public var start: Int32
        public var length: Int32
        public var kind: DirectoryEntry.Kind
        public var inode: UInt64
    }

    public private(set) var names: [UInt8] = []
    public private(set) var entries: [Entry] = []

    /// Entry `i`'s name, copied out.
    public func name(_ i: Int) -> ByteString {
        let entry = entries[i]
        return ByteString(Array(names[Int(entry.start)..<Int(entry.start + entry.length)]))
    }

    /// Calls `body` with the names' buffer: entry `i`'s name is
    /// `Self.name(of: entries[i], in: buffer)`.
    public func withNames<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try names.withUnsafeBufferPointer { (buffer) throws(E) -> R in try body(buffer) }
    }

    /// An entry's name in the names' buffer, without its NUL.
    public static func name(of entry: Entry, in buffer: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: buffer[Int(entry.start)..<Int(entry.start + entry.length)])
    }

    mutating func append(name: UnsafeRawBufferPointer, kind: DirectoryEntry.Kind, inode: UInt64) {
        entries.append(Entry(start: Int32(names.count), length: Int32(name.count), kind: kind, inode: inode))
        names.append(contentsOf: name)
        names.append(0)
    }
}

/// Lists a directory without following symlinks or allocating per entry more than its name.
public enum DirectoryReader {
    public static func entries(of path: ByteString, relativeTo dir: FileDescriptor = .currentDirectory) throws(SystemError) -> [DirectoryEntry] {
        let fd = try FileDescriptor.openDirectory(path, relativeTo: dir)
        return try entries(ofOpen: fd, path: path)
    }

    /// Takes ownership of `fd`.
    public static func entries(ofOpen fd: FileDescriptor, path: ByteString) throws(SystemError) -> [DirectoryEntry] {
        let listing = try self.listing(ofOpen: fd, path: path)
        return listing.entries.indices.map { i in
            DirectoryEntry(name: listing.name(i), kind: listing.entries[i].kind, inode: listing.entries[i].inode)
        }
    }

    /// The entries of a directory (not `.` or `..`), their names in one buffer. Takes ownership of `fd`.
    public static func listing(ofOpen fd: FileDescriptor, path: ByteString) throws(SystemError) -> DirectoryListing {
        guard let stream = SystemCalls.fdopendir(fd.rawValue) else {
            let err = Errno.current
            try? fd.close()  // only read: the fdopendir error says what went wrong
            throw SystemError("fdopendir", path: path.lossyString, errno: err)
        }
        defer { _ = SystemCalls.closedir(stream) }  // only read: nothing for a close to lose
        var result = DirectoryListing()
        while true {
            errno = 0
            guard let entry = SystemCalls.readdir(stream) else {
                if errno != 0 { throw SystemError("readdir", path: path.lossyString, errno: .current) }
                break
            }
            let kind: DirectoryEntry.Kind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): kind = .file
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_LNK): kind = .symlink
            case Int32(DT_UNKNOWN): kind = .unknown
            default: kind = .other
            }
            withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let name = UnsafeRawBufferPointer(rebasing: raw[0..<(raw.firstIndex(of: 0) ?? raw.count)])
                if name.elementsEqual([46]) || name.elementsEqual([46, 46]) { return }
                result.append(name: name, kind: kind, inode: UInt64(entry.pointee.d_ino))
            }
        }
        return result
    }
}
