// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Photos we moved to the trash: one that comes back (an undo, or `trash-restore`
/// behind our back) gets its former id. Filled from the journal at start and by
/// every batch; emptied as photos come back, and as they leave the trash for good
/// (`forget`): the inode of a purged file is free for the next file made, which
/// must not be taken for the photo it was.
///
/// Two keys, for two kinds of file system. On a local one a photo is known by its
/// inode, which a rename keeps wherever the photo is put back. On a share whose
/// inode numbers are the client's own (sshfs; any share after a remount) the
/// restored file is another inode: there it is known by where it was and what it
/// was, its root, path, size and mtime, which a rename to the trash and back keeps.
/// The path key is asked only for such roots, so a local root's identity rests on
/// the inode as before.
struct Tombstones {
    private struct PathKey: Hashable {
        var rootName: String
        var relativePath: ByteString
    }

    private var ids: [InodeKey: Int64] = [:]
    private var inodeOf: [Int64: InodeKey] = [:]
    private var byPath: [PathKey: Burial] = [:]
    private var pathOf: [Int64: PathKey] = [:]

    var count: Int { ids.count }

    /// Room for `count` more burials at once: a batch's chunk buries thousands, and
    /// growing four tables step by step rehashed them over and over. The room grows
    /// at least twofold: reserving just enough for each chunk rehashed every
    /// tombstone of every batch so far once a chunk (60 of a report thread's 469
    /// samples in a batch of 15 001 files).
    mutating func reserve(_ count: Int) {
        Self.reserve(&ids, count)
        Self.reserve(&inodeOf, count)
        Self.reserve(&byPath, count)
        Self.reserve(&pathOf, count)
    }

    private static func reserve<K, V>(_ table: inout [K: V], _ more: Int) {
        let needed = table.count + more
        guard needed > table.capacity else { return }
        table.reserveCapacity(max(needed, table.capacity * 2))
    }

    /// `burial.id` went to the trash as the file its identity names, from its path.
    mutating func bury(_ burial: Burial) {
        let inode = InodeKey(device: burial.identity.device, inode: burial.identity.inode)
        if let earlier = inodeOf[burial.id], earlier != inode, ids[earlier] == burial.id { ids[earlier] = nil }
        if let other = ids[inode], other != burial.id { inodeOf[other] = nil }
        ids[inode] = burial.id
        inodeOf[burial.id] = inode
        let key = PathKey(rootName: burial.rootName, relativePath: burial.relativePath)
        if let earlier = byPath[key], earlier.id != burial.id { pathOf[earlier.id] = nil }
        byPath[key] = burial
        pathOf[burial.id] = key
    }

    /// The id of the trashed photo that this inode was, if any, forgotten as it is
    /// handed back: an id is given back once.
    mutating func exhume(device: UInt64, inode: UInt64) -> Int64? {
        guard let id = ids.removeValue(forKey: InodeKey(device: device, inode: inode)) else { return nil }
        inodeOf[id] = nil
        forgetPath(of: id)
        return id
    }

    /// Photo `id` left the trash for good (emptied, expired, or purged by another
    /// tool): no file is that photo any more.
    mutating func forget(_ id: Int64) {
        if let inode = inodeOf.removeValue(forKey: id), ids[inode] == id { ids[inode] = nil }
        forgetPath(of: id)
    }

    /// The id of the trashed photo that stood at this path with this size and mtime
    /// (for a root whose inode numbers do not last), forgotten as it is handed back.
    mutating func exhume(rootName: String, relativePath: ByteString, size: Int64, mtimeNs: Int64) -> Int64? {
        let key = PathKey(rootName: rootName, relativePath: relativePath)
        guard let burial = byPath[key], burial.identity.size == size, burial.identity.mtimeNs == mtimeNs else { return nil }
        byPath[key] = nil
        pathOf[burial.id] = nil
        let inode = InodeKey(device: burial.identity.device, inode: burial.identity.inode)
        if ids[inode] == burial.id { ids[inode] = nil }
        inodeOf[burial.id] = nil
        return burial.id
    }

    func id(device: UInt64, inode: UInt64) -> Int64? { ids[InodeKey(device: device, inode: inode)] }

    private mutating func forgetPath(of id: Int64) {
        guard let key = pathOf.removeValue(forKey: id), byPath[key]?.id == id else { return }
        byPath[key] = nil
    }
}
