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
        let basis = duplicateBasis
        if let found = contentHashes.found.sets(uid: uid, basis: basis) { return found }
        let found = FoundDuplicates(basis: basis, sets: setInputs.duplicateSets(listable: listableFolders(uid: uid)))
        contentHashes.found.keep(found, uid: uid)
        return found
    }

    /// What a user's duplicate sets are found from now (`FoundDuplicates.Basis`).
    var duplicateBasis: FoundDuplicates.Basis {
        FoundDuplicates.Basis(library: library.generation, access: access.generation, hashes: contentHashes.generation,
                              roots: rootOrder, searched: rootOrder.map { roots[$0].map { $0.online && !$0.onShare } ?? false })
    }

    /// The state's values the set searches read (`SetInputs`), as they are now.
    var setInputs: SetInputs {
        let order = rootOrder
        var online = Set<Int32>()
        var searched = Set<Int32>()
        for id in order {
            guard let runtime = roots[id], runtime.online else { continue }
            online.insert(id)
            if !runtime.onShare { searched.insert(id) }
        }
        return SetInputs(table: library.photos, tree: library.tree, groupLinks: library.groupLinks, looks: stackLooks,
                         marks: marks, hashes: contentHashes,
                         rootRank: Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) }),
                         online: online, searched: searched)
    }

    /// The folders `uid` may list; nil when every one (root, or a user who may).
    func listableFolders(uid: UInt32) -> Set<Int32>? {
        if listsEverything(uid: uid) { return nil }
        var listable = Set<Int32>()
        for (id, folder) in library.folders where mayList(folderID: id, root: folder.rootID, uid: uid) { listable.insert(id) }
        return listable
    }
}
