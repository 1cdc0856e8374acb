// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorStore
import CuratorSystem

/// Puts the photos of one batch back at their original paths a chunk at a time,
/// with one journal commit before and one after, and one sync per file system:
///
///   journal `restoring` for the chunk → per photo, nothing synced:
///   renameat2(NOREPLACE) from files/ to the original path (link + unlink where the
///   file system lacks NOREPLACE), then the .trashinfo removed → the chunk's file
///   systems synced → the chunk's outcomes journaled.
///
/// Nothing standing at a path is ever overwritten: that photo is a `conflict` and
/// stays in the trash. The .trashinfo goes only once the file is back, so a crash
/// leaves at worst a stale entry, never an unrestorable file; and until the chunk is
/// synced and journaled, its photos are `restoring`, which recovery settles from the
/// disk whichever of the two steps a power cut kept. One per undo.
final class PhotoRestorer {
    private let journal: Journal
    private let failpoints: Failpoints
    private let observer = DiskObserver()
    private let requester: Requester
    private let effectiveUID: UInt32
    private let batch: Int64
    /// The undo's helpers: syncs.
    private let helpers: WorkerPool
    /// Inode -> names, of the folders looked into for photos restored under another name.
    private var namesByInode: [ByteString: [UInt64: [ByteString]]] = [:]

    init(journal: Journal, failpoints: Failpoints, requester: Requester, effectiveUID: UInt32, batch: Int64, helpers: WorkerPool) {
        self.helpers = helpers
        self.journal = journal
        self.failpoints = failpoints
        self.requester = requester
        self.effectiveUID = effectiveUID
        self.batch = batch
    }

    /// How one photo's undo ends, journaled at the chunk's commit.
    fileprivate struct Ending {
        var state: JournalItemState
        var outcome: PhotoOutcome
        var detail: String?
        var photo: RestoredPhoto?
    }

    /// What a run of photos ended with, recorded by one statement.
    private struct Outcome: Equatable {
        var state: JournalItemState
        var outcome: PhotoOutcome
    }

    /// A chunk whose moves back are done and whose sync is under way.
    struct StagedChunk {
        fileprivate var items: [JournalItem]
        fileprivate let known: [Bool]
        fileprivate let endings: [Ending?]
        fileprivate let sync: ChunkSync
    }

    /// Journals `restoring` for one chunk of trashed photos (in undo order), moves
    /// them back unsynced and starts the chunk's sync on a helper thread, so that
    /// the next chunk's work overlaps it.
    func stage(chunk: [JournalItem]) throws(BatchError) -> StagedChunk {
        var items = chunk
        let known = items.map { $0.photoPath != nil && $0.trashName != nil && $0.trashDirectory != nil }
        try journaling { () throws(SQLiteError) in
            try journal.transaction { () throws(SQLiteError) in
                // Only the state changes: one statement per run of consecutive steps.
                var restoring = StepRuns<Bool>()
                for (item, isKnown) in zip(items, known) {
                    if isKnown {
                        restoring.add(item.step, true)
                    } else {
                        try journal.recordItem(batch: batch, step: item.step, state: .gone, outcome: .error,
                                               detail: "the journal does not say where this photo went")
                    }
                }
                for run in restoring.runs { try journal.recordStates(batch: batch, steps: run.steps, state: .restoring) }
            }
        }
        try failpoints.reach(.undoChunkIntent)

        let sync = ChunkSync(helpers: helpers)
        let parents = RestoreParents(observer: observer, requester: requester, effectiveUID: effectiveUID, failpoints: failpoints)
        // The .trashinfo files go on a helper, each after its photo is back.
        let remover = InfoRemoverBehind(failpoints: failpoints)
        let behind = remover.start(on: helpers) ? remover : nil
        var endings: [Ending?] = Array(repeating: nil, count: items.count)
        do throws(BatchError) {
            for index in items.indices where known[index] {
                items[index].state = .restoring
                endings[index] = try restore(items[index], at: index, parents: parents, sync: sync, remover: behind)
            }
        } catch {
            _ = try? remover.finish()
            throw error
        }
        let removals = try remover.finish()
        for removal in removals.removed { sync.touched(removal.trash, directory: nil, info: removal.name) }
        for (removal, error) in removals.failed {
            // Left `restoring`: recovery will see the photo back and remove the stale info.
            log.error("undo of batch \(batch) step \(items[removal.index].step): \(error)")
            if let end = endings[removal.index] {
                endings[removal.index] = Ending(state: .restoring, outcome: .restored, detail: end.detail, photo: end.photo)
            }
        }
        sync.start()
        return StagedChunk(items: items, known: known, endings: endings, sync: sync)
    }

    /// Waits for a staged chunk's sync, journals its outcomes in one commit, and
    /// returns its items as now journaled, with the photos that came back.
    func finish(_ staged: StagedChunk) throws(BatchError) -> [(JournalItem, RestoredPhoto?)] {
        let items = staged.items
        let known = staged.known
        let endings = staged.endings
        for error in staged.sync.finish() { log.warning("undo of batch \(batch): \(error)") }
        try failpoints.reach(.undoChunkSynced)

        try journaling { () throws(SQLiteError) in
            try journal.transaction { () throws(SQLiteError) in
                // Runs of consecutive steps that ended alike without detail (a chunk
                // put back whole) are one statement each.
                var alike = StepRuns<Outcome>()
                for (item, end) in zip(items, endings) {
                    guard let end else { continue }
                    if end.detail == nil {
                        alike.add(item.step, Outcome(state: end.state, outcome: end.outcome))
                    } else {
                        try journal.recordItem(batch: batch, step: item.step, state: end.state, outcome: end.outcome, detail: end.detail)
                    }
                }
                for run in alike.runs {
                    try journal.recordItems(batch: batch, steps: run.steps, state: run.key.state, outcome: run.key.outcome, moved: false)
                }
            }
        }
        try failpoints.reach(.undoChunkJournaled)
        return items.indices.map { index in
            var item = items[index]
            guard known[index] else {
                item.state = .gone
                item.outcome = .error
                item.detail = "the journal does not say where this photo went"
                return (item, nil)
            }
            guard let end = endings[index] else { return (item, nil) }
            item.state = end.state
            item.outcome = end.outcome
            item.detail = end.detail
            return (item, end.photo)
        }
    }

    /// One photo (`index` in its chunk), its `restoring` committed; nothing synced.
    /// Its `.trashinfo` is handed to `remover` once it is back, or removed here.
    private func restore(_ item: JournalItem, at index: Int, parents: RestoreParents, sync: ChunkSync,
                         remover: InfoRemoverBehind?) throws(BatchError) -> Ending {
        func stays(_ outcome: PhotoOutcome, _ detail: String?) -> Ending {
            Ending(state: .trashed, outcome: outcome, detail: detail)
        }
        guard let path = item.photoPath, let name = item.trashName else { return stays(.error, "no path") }

        // Still in the trash under its name? The usual case needs one look at files/;
        // anything else gets the full observation (original path, .trashinfo).
        let trash: TrashDirectory
        do throws(SystemError) {
            let quick = try item.trashDirectory.map { (directory) throws(SystemError) in
                try observer.trash(directory, kind: item.trashKind, root: item.rootPath)
            }
            if let quick, let status = try quick.files.status(of: name), item.identity.isSameFile(status) {
                trash = quick
            } else {
                let look = try observer.observe(item)
                guard look.facts.trashFile == .same, let found = look.trash else { return gone(item, look, sync: sync) }
                trash = found
            }
        } catch {
            // Its trash cannot be read (deleted, unmounted, EACCES): unless another tool
            // already put the photo back, nothing is decided, and a later undo finishes
            // the job. Say where, not just the errno.
            if let back = putBackByAnotherTool(item) { return back }
            log.error("undo of batch \(batch) step \(item.step): \(error)")
            if error.call == TrashWalk.untrusted {
                return stays(.error, "\(error.path ?? "its trash") is not its user's (renamed away and replaced?); left alone")
            }
            return stays(.error, "\(error.errno.name) (\(error.errno.message))" + (error.path.map { " at \($0)" } ?? ""))
        }

        let parent: DirectoryHandle
        let recreated: [ByteString]
        switch parents.open(path) {
        case .opened(let handle, let made, let changed):
            (parent, recreated) = (handle, made)
            for directory in changed { sync.touched(trash, directory: directory, info: nil) }
        case .refused(let outcome, let why): return stays(outcome, why)
        }

        do throws(SystemError) {
            try moveBack(trash, name, parent, path.name)
        } catch {
            switch error.errno {
            case .exists: return stays(.conflict, "a file now stands at \(path.relative.lossyString)")
            default:
                log.error("undo of batch \(batch) step \(item.step): \(error)")
                return stays(.error, error.errno.name)
            }
        }
        sync.touched(trash, directory: parent, info: nil)
        try failpoints.reach(.undoRenamed)

        let back = (try? parent.status(of: path.name)) ?? nil
        let photo = back.map { item.restoredPhoto(at: $0, byOtherTool: false, recreated: recreated) }
        let detail = recreated.isEmpty ? nil : "recreated \(recreated.map(\.lossyString).joined(separator: ", "))"
        if let remover {
            try remover.hand(InfoRemoverBehind.Removal(index: index, trash: trash, name: name))
            return Ending(state: .restored, outcome: .restored, detail: detail, photo: photo)
        }
        do throws(SystemError) {
            try trash.removeInfo(name, synced: false)
        } catch {
            // Left `restoring`: recovery will see the photo back and remove the stale info.
            log.error("undo of batch \(batch) step \(item.step): \(error)")
            return Ending(state: .restoring, outcome: .restored, detail: detail, photo: photo)
        }
        sync.touched(trash, directory: nil, info: name)
        try failpoints.reach(.undoInfoRemoved)
        return Ending(state: .restored, outcome: .restored, detail: detail, photo: photo)
    }

    /// Not in the trash any more: restored by another tool, or purged.
    private func gone(_ item: JournalItem, _ look: DiskObserver.Observation, sync: ChunkSync) -> Ending {
        if look.facts.trashFile == .absent, look.facts.info == .matching || look.facts.info == .unreadable,
           let trash = look.trash, let name = item.trashName {
            do throws(SystemError) {
                try trash.removeInfo(name, synced: false)
                sync.touched(trash, directory: nil, info: name)
            } catch {
                log.warning("undo of batch \(batch) step \(item.step): removing a stale .trashinfo: \(error)")
            }
        }
        if look.facts.original == .same, let status = look.original {
            return Ending(state: .gone, outcome: .missing, detail: "already back at its path (restored by another tool)",
                          photo: item.restoredPhoto(at: status, byOtherTool: true, recreated: []))
        }
        if look.facts.original == .absent, look.facts.trashFile == .absent, let path = item.photoPath,
           let name = restoredUnderAnotherName(item, path) {
            return Ending(state: .gone, outcome: .missing,
                          detail: "restored by another tool under another name: \(path.relative.parent.appending(name).lossyString)")
        }
        let why = look.facts.trashFile == .other ? "another file holds its name in the trash" : "no longer in the trash (purged)"
        return Ending(state: .gone, outcome: .missing, detail: why)
    }

    /// The photo found back by another tool's hand, at its path or under another name
    /// in its folder, when its trash cannot be read; nil when it is not (or when its
    /// root cannot be read either).
    private func putBackByAnotherTool(_ item: JournalItem) -> Ending? {
        guard let path = item.photoPath, let original = try? observer.roots.statusAtOriginalPath(path) else {
            if let path = item.photoPath, let name = restoredUnderAnotherName(item, path) {
                return Ending(state: .gone, outcome: .missing,
                              detail: "restored by another tool under another name: \(path.relative.parent.appending(name).lossyString)")
            }
            return nil
        }
        guard item.identity.isSameFile(original) else { return nil }
        return Ending(state: .gone, outcome: .missing, detail: "already back at its path (restored by another tool)",
                      photo: item.restoredPhoto(at: original, byOtherTool: true, recreated: []))
    }

    /// The name another tool put the photo back under in its own folder, when it did:
    /// `gio trash --restore` (GLib 2.74) writes each byte of a name outside printable
    /// ASCII as `\xNN`, so `été.jpg` comes back as `\xc3\xa9t\xc3\xa9.jpg`. Found by
    /// its inode in one listing of the folder, and checked whole (device, inode, size,
    /// mtime): a rename keeps them all.
    private func restoredUnderAnotherName(_ item: JournalItem, _ path: PhotoPath) -> ByteString? {
        let folder = path.root.appending(path.relative).parent
        if namesByInode[folder] == nil {
            var names: [UInt64: [ByteString]] = [:]
            if let root = try? observer.roots.handle(path.root), let opened = try? path.openParent(from: root),
               let listing = try? DirectoryReader.entries(ofOpen: FileDescriptor.openDirectory(".", relativeTo: opened.parent.descriptor),
                                                          path: folder) {
                for entry in listing where entry.kind == .file || entry.kind == .unknown { names[entry.inode, default: []].append(entry.name) }
            }
            namesByInode[folder] = names
        }
        guard let candidates = namesByInode[folder]?[item.identity.inode],
              let root = try? observer.roots.handle(path.root), let opened = try? path.openParent(from: root)
        else { return nil }
        return candidates.first { name in
            guard name != path.name, let status = (try? opened.parent.status(of: name)) ?? nil else { return false }
            return item.identity.mismatch(status) == nil
        }
    }

    /// renameat2(NOREPLACE); on a file system without it (EINVAL), link + unlink,
    /// which never overwrites either. EEXIST means something stands at the path.
    private func moveBack(_ trash: TrashDirectory, _ name: ByteString, _ parent: DirectoryHandle, _ target: ByteString) throws(SystemError) {
        do {
            try trash.files.rename(name, to: parent, as: target, noReplace: true)
        } catch where error.errno == .invalid {
            try trash.files.link(name, to: parent, as: target)
            do {
                try trash.files.remove(name)
            } catch {
                // Two names for one photo would block the next undo: take the new one back.
                _ = try? parent.remove(target)
                throw error
            }
        }
    }

    private func journaling(_ body: () throws(SQLiteError) -> Void) throws(BatchError) {
        do {
            try body()
        } catch {
            throw BatchError(.journal, "journal: \(error)")
        }
    }
}
