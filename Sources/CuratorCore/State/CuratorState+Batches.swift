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

    /// Photos back from the trash: indexed again (each with its former id: the
    /// tombstone is keyed by its inode), whichever of the watcher and the undo sees
    /// them first. The files of one folder, consecutive in `restored` (an undo's
    /// chunk goes folder by folder), are one index transaction, as files arriving in
    /// a folder are for the watcher; when that fails they are tried one by one.
    func photosRestored(_ restored: [RestoredPhoto]) {
        var filters: [Int32: NameFilter] = [:]
        var runs: [(root: Int32, directory: ByteString, files: [ScannedFile])] = []
        for photo in restored {
            guard let rootID = rootID(named: photo.rootName), let root = roots[rootID] else { continue }
            if photo.sameInode {
                tombstones.bury(Burial(id: photo.photoID, identity: photo.identity, rootName: photo.rootName,
                                       relativePath: photo.relativePath))
            }
            let filter = filters[rootID] ?? NameFilter(root.config)
            filters[rootID] = filter
            guard let type = filter.photoType(photo.relativePath.lastComponent),
                  let status = try? FileStatus.ifExists(root.config.path.appending(photo.relativePath)), status.isRegularFile
            else { continue }
            let file = ScannedFile(name: photo.relativePath.lastComponent, status: status, type: type)
            let directory = photo.relativePath.parent
            if let last = runs.last, last.root == rootID, last.directory == directory, !last.files.contains(where: { $0.name == file.name }) {
                runs[runs.count - 1].files.append(file)
            } else {
                runs.append((rootID, directory, [file]))
            }
        }
        for run in runs {
            do {
                try filesAppeared(root: run.root, directory: run.directory, files: run.files)
            } catch {
                for file in run.files {
                    do {
                        try fileAppeared(root: run.root, directory: run.directory, file: file)
                    } catch {
                        log.error("cannot index restored photo \(run.directory.appending(file.name).lossyString): \(error)")
                    }
                }
            }
        }
    }
}
