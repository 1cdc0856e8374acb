// SPDX-License-Identifier: GPL-2.0-or-later

/// A directory's or a photo's POSIX access ACL (acl(5)), as libacl reads it: only
/// those whose ACL says more than their mode have one (`FolderPermissions.acl`). Checked
/// the way the kernel checks it (acl(5), "ACCESS CHECK ALGORITHM"), so that what
/// the daemon shows or deletes for a user is what that user's own `ls` and `rm`
/// could reach.
struct AccessControlList: Hashable, Sendable {
    enum Tag: Hashable, Sendable {
        case owner
        case user(UInt32)
        case owningGroup
        case group(UInt32)
        case mask
        case other
    }

    struct Entry: Hashable, Sendable {
        var tag: Tag
        /// rwx as in a mode's three bits: read 4, write 2, execute (search) 1.
        var permissions: UInt32
    }

    var entries: [Entry]

    private func permissions(of tag: Tag) -> UInt32? { entries.first { $0.tag == tag }?.permissions }

    /// Whether `requester` has every bit of `wanted` (rwx bits) on a directory
    /// owned by `ownerUID`:`ownerGID`. Root is not special here (`AccessRule` is).
    func grants(_ wanted: UInt32, to requester: Requester, ownerUID: UInt32, ownerGID: UInt32) -> Bool {
        func has(_ bits: UInt32) -> Bool { bits & wanted == wanted }
        if requester.uid == ownerUID { return has(permissions(of: .owner) ?? 0) }
        // Without a mask entry (a minimal ACL), nothing is masked.
        let mask = permissions(of: .mask) ?? 0o7
        if let named = permissions(of: .user(requester.uid)) { return has(named & mask) }
        var matchedGroup = false
        for entry in entries {
            let member: Bool
            switch entry.tag {
            case .owningGroup: member = requester.isMember(of: ownerGID)
            case .group(let gid): member = requester.isMember(of: gid)
            default: continue
            }
            guard member else { continue }
            matchedGroup = true
            if has(entry.permissions & mask) { return true }
        }
        if matchedGroup { return false }
        return has(permissions(of: .other) ?? 0)
    }
}
