// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// What a delete plan pins about a photo: the file object (device, inode) and its
/// content's fingerprint (size, mtime). A file that no longer matches all four is
/// not the photo the user saw.
public struct PhotoIdentity: Hashable, Sendable, CustomStringConvertible {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var mtimeNanoseconds: Int64

    public init(device: UInt64, inode: UInt64, size: Int64, mtimeNanoseconds: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.mtimeNanoseconds = mtimeNanoseconds
    }

    public init(_ status: FileStatus) {
        self.init(device: status.device, inode: status.inode, size: status.size, mtimeNanoseconds: status.mtimeNanoseconds)
    }

    /// A regular file with the same object and content fingerprint.
    public func matches(_ status: FileStatus) -> Bool {
        status.isRegularFile && isSameFile(status) && status.size == size && status.mtimeNanoseconds == mtimeNanoseconds
    }

    /// The same file object, whatever happened to its content: what a rename keeps.
    public func isSameFile(_ status: FileStatus) -> Bool {
        !status.isSymlink && status.device == device && status.inode == inode
    }

    /// Why `status` does not match, for a skip reason.
    public func mismatch(_ status: FileStatus) -> String? {
        if status.isSymlink { return "replaced by a symlink" }
        if !status.isRegularFile { return "no longer a regular file" }
        if !isSameFile(status) { return "replaced by another file" }
        if status.size != size { return "size changed from \(size) to \(status.size) bytes" }
        if status.mtimeNanoseconds != mtimeNanoseconds { return "modified since the plan" }
        return nil
    }

    public var description: String { "dev \(device) ino \(inode) size \(size) mtime \(mtimeNanoseconds)" }
}
