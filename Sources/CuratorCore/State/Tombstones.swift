// SPDX-License-Identifier: GPL-2.0-or-later

/// Photos we moved to the trash, by the inode they keep there: one that comes
/// back (an undo, or `trash-restore` behind our back) is recognised by its inode
/// and gets its former id. Filled from the journal at start and by every batch;
/// emptied as photos come back.
struct Tombstones {
    private var ids: [InodeKey: Int64] = [:]

    var count: Int { ids.count }

    /// `id` went to the trash as the file `identity` names.
    mutating func bury(_ id: Int64, identity: FileIdentity) {
        ids[InodeKey(device: identity.device, inode: identity.inode)] = id
    }

    /// The id of the trashed photo that this inode was, if any, forgotten as it is
    /// handed back: an id is given back once.
    mutating func exhume(device: UInt64, inode: UInt64) -> Int64? {
        ids.removeValue(forKey: InodeKey(device: device, inode: inode))
    }

    func id(device: UInt64, inode: UInt64) -> Int64? { ids[InodeKey(device: device, inode: inode)] }
}
