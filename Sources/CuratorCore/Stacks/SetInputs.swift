// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// What finding a user's stacks and duplicate sets reads, as the state held it at
/// one moment: copy-on-write values, taken under the lock in no time. Finding the
/// sets walks every listed photo, which would hold every other client waiting, so
/// the set watch does it outside the lock, on these (`CuratorState+SetEvents`);
/// a listing that finds them not yet kept does it under the lock, on the same.
struct SetInputs {
    var table: PhotoTable
    var tree: FolderTree
    var groupLinks: GroupLinks
    var looks: StackLookTable
    var marks: PhotoMarksTable
    var hashes: ContentHashes
    /// Each root's place in the configuration.
    var rootRank: [Int32: Int]
    /// Roots whose photos are in stacks (online) and in duplicate sets (online, not a share).
    var online: Set<Int32>
    var searched: Set<Int32>

    private func path(of row: PhotoRow) -> ByteString {
        (tree.path(row.folderID) ?? .empty).appending(table.name(of: row))
    }

    /// The stacks of the listed groups in `listable` folders (every folder when nil).
    /// A group is known by its shown photo: its capture time, camera and measures.
    func stacks(listable: Set<Int32>?) -> [Stack] {
        var members: [StackMember] = []
        for row in table.rows where row.role == .shown {
            guard let seconds = row.capture.seconds,
                  let look = looks[row.id]?.valid(size: row.size, mtimeNs: row.mtimeNs) else { continue }
            let root = table.rootID(of: row)
            guard online.contains(root), let rank = rootRank[root] else { continue }
            if let listable, !listable.contains(row.folderID) { continue }
            let milliseconds = Int64(table.captureDetail(of: row).milliseconds ?? 0)
            // The group's stars as its sidecars say (`PhotoMarksTable`): the keeper is
            // the highest rated before the sharpest.
            let group = table.groupID(of: row)
            members.append(StackMember(groupID: group, camera: look.camera, instantMs: seconds * 1000 + milliseconds,
                                       dHash: look.dHash, sharpness: look.sharpness, rating: marks.marks(ofGroup: group).rating,
                                       rootOrder: rank, path: path(of: row)))
        }
        return StackSets.find(members)
    }

    /// The exact duplicate sets of the listed groups in `listable` folders.
    func duplicateSets(listable: Set<Int32>?) -> [DuplicateSet] {
        var units: [DuplicateUnit] = []
        for row in table.rows where row.role == .shown {
            // Only a file that has hashes can be in a set: most photos stop here.
            guard hashes.record(row.id, size: row.size, mtimeNs: row.mtimeNs) != nil else { continue }
            let root = table.rootID(of: row)
            guard searched.contains(root), let rank = rootRank[root] else { continue }
            if let listable, !listable.contains(row.folderID) { continue }
            let group = table.groupID(of: row)
            let ids = PhotoLibrary.rows(ofGroup: group, links: groupLinks, photos: table)
            var files: [DuplicateFile] = []
            for id in ids.isEmpty ? [row.id] : ids {
                guard let member = table.row(id) else { continue }
                files.append(DuplicateFile(photoID: id, device: table.device(of: member), inode: member.inode, size: member.size))
            }
            units.append(DuplicateUnit(groupID: group, files: files, mtimeNs: row.mtimeNs, rootOrder: rank, path: path(of: row)))
        }
        return DuplicateSets.find(units) { id in
            guard let row = table.row(id), let record = hashes.record(id, size: row.size, mtimeNs: row.mtimeNs) else { return nil }
            let file = DuplicateFile(photoID: id, device: table.device(of: row), inode: row.inode, size: row.size)
            return DuplicateStages.contentKey(file, head: record.head, full: record.full)
        }
    }
}
