// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc

/// Would the kernel let `requester` do this itself? Used when the daemon runs as
/// another user than the client, so that nobody reads, deletes or restores through
/// the daemon what they could not with their own permissions: the owner, group
/// (supplementary groups included) and other bits, or the directory's ACL where it
/// has one (acl(5)). Root may do anything (CAP_DAC_OVERRIDE; directories only, so
/// execute is never in question).
enum AccessRule {
    static let read: UInt32 = 0o4
    static let write: UInt32 = 0o2
    static let search: UInt32 = 0o1

    static func permits(_ directory: FolderPermissions, _ requester: Requester, _ wanted: UInt32) -> Bool {
        if requester.uid == 0 { return true }
        if let acl = directory.acl {
            return acl.grants(wanted, to: requester, ownerUID: directory.uid, ownerGID: directory.gid)
        }
        let shift: UInt32
        if directory.uid == requester.uid {
            shift = 6
        } else if requester.isMember(of: directory.gid) {
            shift = 3
        } else {
            shift = 0
        }
        return (directory.mode >> shift) & wanted == wanted
    }

    /// Search permission on every directory from the root down to the photo's.
    static func maySearch(_ chain: [FolderPermissions], _ requester: Requester) -> Bool {
        chain.allSatisfy { permits($0, requester, search) }
    }

    /// What `ls` needs to show a folder's files: search on every directory above it
    /// (`chain` is the root down to its parent), read and search on the folder.
    static func mayList(_ folder: FolderPermissions, below chain: [FolderPermissions], _ requester: Requester) -> Bool {
        maySearch(chain, requester) && permits(folder, requester, read | search)
    }

    /// unlink/rename-away: write and search on the directory and, when it is
    /// sticky, owning the file or the directory.
    static func mayRemove(_ file: FileStatus, from directory: FolderPermissions, _ requester: Requester) -> Bool {
        guard permits(directory, requester, write | search) else { return false }
        if requester.uid == 0 || directory.mode & S_ISVTX == 0 { return true }
        return file.uid == requester.uid || directory.uid == requester.uid
    }

    /// Creating an entry: write and search on the directory.
    static func mayCreate(in directory: FolderPermissions, _ requester: Requester) -> Bool {
        permits(directory, requester, write | search)
    }
}
