// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// The duplicate sets as one user sees them: made of the listed groups of the
/// folders that user may list (`CuratorState+Visibility`), so that a set shown to
/// a user has only photos that user may see, and its keeper is one of them.
extension CuratorState {
    func duplicateSets(uid: UInt32) -> [DuplicateSet] { foundDuplicates(uid: uid).sets }

    /// Each group in a set `uid` sees, with its set and whether it is (a file of) the keeper.
    func duplicateMarks(uid: UInt32) -> [Int64: DuplicateMark] { foundDuplicates(uid: uid).marks }

    /// The sets `uid` sees, found again only when the library, the permissions, the
    /// hashes or the roots changed since they were last found for `uid`.
    private func foundDuplicates(uid: UInt32) -> FoundDuplicates {
        let basis = FoundDuplicates.Basis(library: library.generation, access: access.generation,
                                          hashes: contentHashes.generation, roots: rootOrder,
                                          searched: rootOrder.map { roots[$0].map { $0.online && !$0.onShare } ?? false })
        if let found = contentHashes.found[uid], found.basis == basis { return found }
        let sets = findDuplicateSets(uid: uid)
        var marks: [Int64: DuplicateMark] = [:]
        for set in sets {
            for (index, copy) in set.copies.enumerated() {
                for unit in copy.units { marks[unit.groupID] = DuplicateMark(set: set.id, keeper: index == 0) }
            }
        }
        let found = FoundDuplicates(basis: basis, sets: sets, marks: marks)
        // Kept for a few users at most: each holds every hashed group.
        if contentHashes.found.count >= 8 { contentHashes.found.removeAll() }
        contentHashes.found[uid] = found
        return found
    }

    private func findDuplicateSets(uid: UInt32) -> [DuplicateSet] {
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
