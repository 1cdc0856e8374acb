// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// The duplicate sets as one user sees them: made of the listed groups of the
/// folders that user may list (`CuratorState+Visibility`), so that a set shown to
/// a user has only photos that user may see, and its keeper is one of them.
extension CuratorState {
    func duplicateSets(uid: UInt32) -> [DuplicateSet] {
        let rootRank = Dictionary(uniqueKeysWithValues: rootOrder.enumerated().map { ($1, $0) })
        var listable: [Int32: Bool] = [:]
        var units: [DuplicateUnit] = []
        let table = library.photos
        for row in table.rows where row.role == .shown {
            // Only a file that has hashes can be in a set: most photos stop here.
            guard contentHashes.record(row.id, size: row.size, mtimeNs: row.mtimeNs) != nil else { continue }
            let root = table.rootID(of: row)
            guard let runtime = roots[root], runtime.online, !runtime.onShare, let rank = rootRank[root] else { continue }
            let visible = listable[row.folderID] ?? mayList(folderID: row.folderID, root: root, uid: uid)
            listable[row.folderID] = visible
            guard visible else { continue }
            let group = table.groupID(of: row)
            let ids = library.rows(ofGroup: group)
            var files: [DuplicateFile] = []
            for id in ids.isEmpty ? [row.id] : ids {
                guard let member = table.row(id) else { continue }
                files.append(DuplicateFile(photoID: id, device: table.device(of: member), inode: member.inode, size: member.size))
            }
            let path = (library.folderPath(row.folderID) ?? .empty).appending(table.name(of: row))
            units.append(DuplicateUnit(groupID: group, files: files, mtimeNs: row.mtimeNs, rootOrder: rank, path: path))
        }
        return DuplicateSets.find(units) { id in
            guard let row = table.row(id), let record = contentHashes.record(id, size: row.size, mtimeNs: row.mtimeNs) else { return nil }
            let file = DuplicateFile(photoID: id, device: table.device(of: row), inode: row.inode, size: row.size)
            return DuplicateStages.contentKey(file, head: record.head, full: record.full)
        }
    }
}
