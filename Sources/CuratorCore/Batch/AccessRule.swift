// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc

/// Would the kernel let `requester` do this itself? Used when the daemon runs as
/// another user than the client, so that nobody deletes or restores through the
/// daemon what they could not with their own permissions. Mode bits only (ACLs
/// are not consulted; a denial by mode bits that an ACL would allow is reported
/// as `permission_denied`).
enum AccessRule {
    static func permits(_ status: FileStatus, _ requester: Requester, write: Bool, search: Bool) -> Bool {
        if requester.uid == 0 { return true }
        let shift: UInt32
        if status.uid == requester.uid {
            shift = 6
        } else if requester.isMember(of: status.gid) {
            shift = 3
        } else {
            shift = 0
        }
        let bits = (status.mode >> shift) & 0o7
        if write && bits & 0o2 == 0 { return false }
        if search && bits & 0o1 == 0 { return false }
        return true
    }

    /// Search permission on every directory from the root down to the photo's.
    static func maySearch(_ chain: [FileStatus], _ requester: Requester) -> Bool {
        chain.allSatisfy { permits($0, requester, write: false, search: true) }
    }

    /// unlink/rename-away: write and search on the directory and, when it is
    /// sticky, owning the file or the directory.
    static func mayRemove(_ file: FileStatus, from directory: FileStatus, _ requester: Requester) -> Bool {
        guard permits(directory, requester, write: true, search: true) else { return false }
        if requester.uid == 0 || directory.mode & S_ISVTX == 0 { return true }
        return file.uid == requester.uid || directory.uid == requester.uid
    }

    /// Creating an entry: write and search on the directory.
    static func mayCreate(in directory: FileStatus, _ requester: Requester) -> Bool {
        permits(directory, requester, write: true, search: true)
    }
}
