// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Whether a user may read a photo themselves: search on every directory from its
/// root down, read on the file (mode bits, as `AccessRule`; ACLs not consulted).
/// Asked when the daemon runs as another user than the client (the system
/// service), so that nobody sees through a thumbnail what they could not open.
enum PhotoReadAccess {
    static func mayRead(root: ByteString, relative: ByteString, _ requester: Requester) -> Bool {
        if requester.uid == 0 { return true }
        guard let path = PhotoPath(root: root, relative: relative) else { return false }
        do {
            let top = try DirectoryHandle.open(root, followingSymlinks: true)
            let (parent, chain) = try path.openParent(from: top)
            guard AccessRule.maySearch(chain, requester), let file = try parent.status(of: path.name) else { return false }
            return permitsRead(file, requester)
        } catch {
            return false
        }
    }

    static func permitsRead(_ status: FileStatus, _ requester: Requester) -> Bool {
        if requester.uid == 0 { return true }
        let shift: UInt32 = status.uid == requester.uid ? 6 : requester.isMember(of: status.gid) ? 3 : 0
        return (status.mode >> shift) & 0o4 != 0
    }
}
