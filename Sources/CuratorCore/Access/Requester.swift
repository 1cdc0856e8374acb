// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// The user a batch or undo runs for (the peer of the socket, by SO_PEERCRED).
public struct Requester: Hashable, Sendable {
    public var uid: UInt32
    public var gid: UInt32
    /// Supplementary groups, primary included.
    public var groups: [UInt32]

    public init(uid: UInt32, gid: UInt32, groups: [UInt32]) {
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }

    /// The user with its groups looked up in the group database.
    public static func resolving(uid: UInt32, gid: UInt32) -> Requester {
        Requester(uid: uid, gid: gid, groups: UserAccount.groups(uid: uid, gid: gid))
    }

    func isMember(of group: UInt32) -> Bool { gid == group || groups.contains(group) }
}
