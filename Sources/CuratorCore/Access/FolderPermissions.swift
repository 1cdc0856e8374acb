// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// What decides who may use a directory: its owner, group and mode, and its access
/// ACL where it has one (which then decides instead of the mode's bits).
struct FolderPermissions: Hashable, Sendable {
    var uid: UInt32
    var gid: UInt32
    var mode: UInt32
    var acl: AccessControlList?

    init(uid: UInt32, gid: UInt32, mode: UInt32, acl: AccessControlList? = nil) {
        self.uid = uid
        self.gid = gid
        self.mode = mode
        self.acl = acl
    }

    init(_ status: FileStatus, acl: AccessControlList? = nil) {
        self.init(uid: status.uid, gid: status.gid, mode: status.mode, acl: acl)
    }

    /// The directory at `path`, not following a symlink: one lstat, and one
    /// getxattr for its ACL (a second read only where it has one).
    static func read(_ path: ByteString) throws(SystemError) -> FolderPermissions {
        let status = try FileStatus.of(path)
        return FolderPermissions(status, acl: status.isDirectory ? try ACLReader.read(path: path) : nil)
    }

    /// An open directory: its status and ACL through its descriptor.
    static func read(_ directory: DirectoryHandle) throws(SystemError) -> FolderPermissions {
        FolderPermissions(try directory.status(), acl: try ACLReader.read(descriptor: directory.descriptor, path: directory.path))
    }

    var isDirectory: Bool { mode & 0o170000 == 0o040000 }
}
