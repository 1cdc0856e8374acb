// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// What a batch (or an undo) changes in the state as it goes: trashed photos
/// leave the index and get a tombstone, the plan's session is settled at the end,
/// and restored photos come back under their former ids.
extension CuratorState {
    /// A chunk of a running batch reached the trash (and its journal): those photos
    /// leave the index now, in one index transaction and one publication (selections
    /// are settled once, at the end of the batch). Tombstones come from the plan's
    /// pinned identities, not the index: the watcher may have seen the renames out of
    /// the root and unindexed some photos already.
    func photosTrashed(_ photos: [Burial]) {
        tombstones.reserve(photos.count)
        for photo in photos { tombstones.bury(photo) }
        let present = photos.filter { library.photo($0.id) != nil }
        guard !present.isEmpty else { return }
        do {
            let changes = try library.batch { () throws -> [LibraryChange] in
                try present.compactMap { try library.remove($0.id) }
            }
            publishWithoutSelections(changes)
        } catch {
            log.error("cannot unindex \(present.count) trashed photos: \(error)")
        }
    }

    /// The end of a batch: selections lose the trashed photos; the session the plan
    /// came from leaves select mode with an empty selection (article 000).
    ///
    /// The plan's own session changes here by its own request (the confirm): its
    /// followers hear it, except the confirming client (`origin`). Other sessions
    /// holding trashed photos lose them as to a deletion on disk, and all their
    /// followers hear it.
    func finishBatch(_ plan: DeletePlan, trashed: [Int64], origin: ObjectIdentifier? = nil) {
        plans.release(plan.roots)
        // A group (issue 15) leaves once no file of it is listed; a part trashed
        // (`only`) leaves it where it is.
        let units = Set(plan.items.compactMap(\.unit))
        let already = Set(trashed)
        let trashed = trashed + units.filter { library.listed($0) == nil && !already.contains($0) }
        let current = session(plan.key)
        var update = current.removingVanished(trashed)
        if plan.generation != nil, let left = try? update.state.setMode(.view) { update.state = left.state }
        do {
            try commit(update.state, for: plan.key, replacing: current, origin: origin)
        } catch {
            log.error("cannot save session \(plan.key.name): \(error)")
        }
        if !trashed.isEmpty { sessions.photosLeft(trashed) }
    }

    /// A photo back from the trash: indexed again (with its former id: the tombstone
    /// is keyed by its inode), whichever of the watcher and the undo sees it first.
    func photoRestored(_ restored: RestoredPhoto) {
        guard let rootID = rootID(named: restored.rootName), let root = roots[rootID] else { return }
        if restored.sameInode {
            tombstones.bury(Burial(id: restored.photoID, identity: restored.identity, rootName: restored.rootName,
                                   relativePath: restored.relativePath))
        }
        let absolute = root.config.path.appending(restored.relativePath)
        guard let type = NameFilter(root.config).photoType(restored.relativePath.lastComponent),
              let status = try? FileStatus.ifExists(absolute), status.isRegularFile
        else { return }
        do {
            try fileAppeared(root: rootID, directory: restored.relativePath.parent,
                             file: ScannedFile(name: restored.relativePath.lastComponent, status: status, type: type))
        } catch {
            log.error("cannot index restored photo \(absolute.lossyString): \(error)")
        }
    }
}
