// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// The checks a batch makes against the identity a delete plan pinned: the file
/// object (device, inode) and its content's fingerprint (size, mtime). A file that
/// no longer matches all four is not the photo the user saw.
extension FileIdentity: CustomStringConvertible {
    /// A regular file with the same object and content fingerprint.
    public func matches(_ status: FileStatus) -> Bool {
        mismatch(status) == nil
    }

    /// The same file object, whatever happened to its content: what a rename keeps.
    public func isSameFile(_ status: FileStatus) -> Bool {
        !status.isSymlink && status.device == device && status.inode == inode
    }

    /// Why `status` does not match, as a skip reason; nil when it matches.
    public func mismatch(_ status: FileStatus) -> String? {
        if status.isSymlink { return "replaced by a symlink" }
        if !status.isRegularFile { return "no longer a regular file" }
        if !isSameFile(status) { return "replaced by another file" }
        if status.size != size { return "size changed from \(size) to \(status.size) bytes" }
        if status.mtimeNanoseconds != mtimeNs { return "modified since the plan" }
        return nil
    }

    public var description: String { "dev \(device) ino \(inode) size \(size) mtime \(mtimeNs)" }
}
