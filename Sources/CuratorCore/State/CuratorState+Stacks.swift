// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import CuratorThumbnails

/// A listed group's place in the stacks, as a listing shows it.
struct StackMark: Sendable, Hashable {
    var stack: Int64
    var count: Int
    var keeper: Bool
    /// Why the keeper is kept (written with the keeper only).
    var reason: StackKeeperReason
}

/// The stack search's side of the state: the measures the thumbnailer brings
/// (kept in the index), the stacks one user sees, their marks in a listing, a
/// view of them (only stacks, or each stack as one position), and "all but the
/// keeper of each stack" for `select`.
extension CuratorState {
    /// Whether the thumbnailer is to measure the photo's thumbnails: an image with
    /// no measures of the file as the index knows it.
    func wantsLook(_ id: Int64, identity: FileIdentity) -> Bool {
        stackLooks[id]?.valid(size: identity.size, mtimeNs: identity.mtimeNs) == nil
    }

    /// The measures of a photo, when it is still the file they were made of.
    func applyLook(_ id: Int64, _ look: StackLook) {
        guard let photo = library.photo(id), look.valid(size: photo.identity.size, mtimeNs: photo.identity.mtimeNs) != nil else { return }
        stackLooks.set(look, of: id)
        setWatch.dirty = true
        do {
            try library.batch { try library.store.setStackLook(id, look) }
        } catch {
            // The index is a cache: the measures are taken again after a restart.
            log.error("cannot record the measures of a photo: \(error)")
        }
    }

    /// At a start and after a scan: the measures of photos the index no longer has,
    /// or of files since changed, are dropped (until then a photo that left keeps
    /// them: a trashed photo's come back with an undo).
    func dropLooksOfPhotosGone() {
        let gone = stackLooks.ids.filter { id in
            guard let row = library.photos.row(id) else { return true }
            return stackLooks[id]?.valid(size: row.size, mtimeNs: row.mtimeNs) == nil
        }
        guard !gone.isEmpty else { return }
        for id in gone { stackLooks.remove(id) }
        do {
            try library.batch { for id in gone { try library.store.setStackLook(id, nil) } }
        } catch {
            // The index is a cache: they are dropped again at the next start.
            log.error("cannot drop the measures of photos gone: \(error)")
        }
    }

    /// The stacks made of the listed groups `uid` may see (as duplicate sets are:
    /// a stack shown to a user holds only photos that user may see).
    func stacks(uid: UInt32) -> [Stack] { foundStacks(uid: uid).stacks }

    func stackMarks(uid: UInt32) -> [Int64: StackMark] { foundStacks(uid: uid).marks }

    /// The stacks `uid` sees, found again only when what they depend on changed.
    private func foundStacks(uid: UInt32) -> FoundStacks {
        let basis = stackBasis
        if let found = stackLooks.found.sets(uid: uid, basis: basis) { return found }
        let found = FoundStacks(basis: basis, stacks: setInputs.stacks(listable: listableFolders(uid: uid)))
        stackLooks.found.keep(found, uid: uid)
        return found
    }

    /// What a user's stacks are found from now (`FoundStacks.Basis`).
    var stackBasis: FoundStacks.Basis {
        FoundStacks.Basis(library: library.generation, access: access.generation, looks: stackLooks.version,
                          marks: marks.version, roots: rootOrder, online: rootOrder.map { roots[$0]?.online ?? false })
    }

    /// `view` with only the groups in a stack (`only`), and/or each stack as one
    /// position (`collapse`): its keeper, or when the keeper is not in the view its
    /// first frame that is; folder totals and files counted again.
    func stackView(_ view: ResolvedView, uid: UInt32, only: Bool, collapse: Bool) -> ResolvedView {
        let sets = stacks(uid: uid)
        let table = library.photos
        var stackOf: [Int64: Int] = [:]
        for (index, stack) in sets.enumerated() {
            for member in stack.members { stackOf[member.groupID] = index }
        }
        var shown: [Int: Int64] = [:]
        if collapse {
            var inView = Set<Int64>()
            for slot in view.slots { inView.insert(table.groupID(of: table.rows[Int(slot)])) }
            for (index, stack) in sets.enumerated() {
                shown[index] = stack.members.first { inView.contains($0.groupID) }?.groupID
            }
        }
        var result = ResolvedView(slots: [])
        for slot in view.slots {
            let row = table.rows[Int(slot)]
            let group = table.groupID(of: row)
            let stack = stackOf[group]
            if only && stack == nil { continue }
            if collapse, let stack, shown[stack] != group { continue }
            result.slots.append(slot)
            result.folderTotals[row.folderID, default: 0] += 1
            result.files += max(1, library.rows(ofGroup: group).count)
        }
        return result
    }

    /// What `select` with `stacks: "rest"` takes of the session's view.
    func stackRest(view: ViewSpec, selection: OrderedSelection, uid: UInt32) throws(ProtocolError) -> DuplicateRestChoice {
        let inView = Set(try resolve(view, uid: uid))
        return StackRest.choose(
            stacks(uid: uid),
            isProtected: { group in
                let ids = library.rows(ofGroup: group)
                return (ids.isEmpty ? [group] : ids).contains { id in library.photo(id).map(isProtected) ?? true }
            },
            inView: { inView.contains($0) },
            isSelected: { selection.contains($0) })
    }
}
