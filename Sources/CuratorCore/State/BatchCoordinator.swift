// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// Carries out the batches the commands ask for: a confirmed delete plan, an undo,
/// an emptying of the trash. Each goes the same way: its roots' slots held, the
/// watcher told which moves are the batch's own, the runner moving files under the
/// journal's lock (never the state's), each chunk applied to the state on a thread
/// of its own while the next one moves, the owner told of every photo, and the
/// moves the watcher left to the batch that it did not make looked at again. What
/// it decides from what it is told is in the static functions below, tested alone
/// (`BatchCoordinatorTests`).
struct BatchCoordinator {
    let curator: Curator

    /// Moves a taken plan's photos to the trash (its roots' slots are held: see
    /// `DeleteConfirmCommand.takePlan`) and gives the slots back.
    func delete(_ plan: DeletePlan, items: [BatchPlanItem], caller: Caller) throws -> BatchResult {
        let client = caller.credentials
        let origin = caller.origin
        var trashed: [Int64] = []
        let total = plan.items.count
        let requester = Requester.resolving(uid: client.uid, gid: client.gid)
        let (ownerOnly, leaving) = curator.withState { state in
            (Set(state.config.roots.filter { $0.deletePolicy == .owner }.map(\.path)),
             Self.leaving(plan.items, rootIDs: Dictionary(state.rootOrder.map { (state.rootName($0), $0) },
                                                           uniquingKeysWith: { first, _ in first })))
        }
        let entries = leaving.map(\.entry)
        curator.ownMoves.outgoing.expect(entries)
        defer {
            let again = Self.rechecks(skipped: curator.ownMoves.outgoing.end(entries), leaving: leaving, trashed: Set(trashed))
            if !again.isEmpty { curator.inbox.post(.recheck(again)) }
        }
        let planned = plan.items
        let reports = ChunkReports<[BatchItemResult]> { [curator] chunk in
            let gone = Self.burials(chunk, planned: planned)
            curator.withState { state in
                state.photosTrashed(gone)
                for item in chunk {
                    // A group's file is told by the group's id, which clients know.
                    state.events.send(Event(event: .batch, photoId: item.group ?? item.id, state: "trashing", batch: nil,
                                            done: item.step, total: total, outcome: item.outcome),
                                      toUID: client.uid)
                }
            }
        }
        do {
            var reported: [BatchItemResult] = []
            let outcome: BatchOutcome
            do {
                defer { reports.finish() }  // every chunk applied before the batch ends, however it ends
                outcome = try curator.batches.withRunner { (runner) throws(BatchError) in
                    try runner.run(plan: BatchPlan(session: plan.key.name, items: items, ownerOnlyRoots: ownerOnly),
                                   requester: requester,
                                   progress: { reported.append($0) },
                                   chunkReported: {
                                       trashed += reported.filter { $0.outcome == .trashed }.map(\.id)
                                       reports.hand(reported)
                                       reported.removeAll(keepingCapacity: true)
                                   },
                                   shouldStop: { curator.isStopping })
                }
            }
            curator.withState { state in
                state.finishBatch(plan, trashed: trashed, origin: origin)
                state.events.send(Event(event: .batch, state: outcome.result.state.rawValue, batch: outcome.result.batch,
                                        done: total, total: total), toUID: client.uid)
            }
            return outcome.result
        } catch {
            curator.withState { state in state.finishBatch(plan, trashed: trashed, origin: origin) }
            throw error
        }
    }

    /// Puts a batch back (the caller's latest when `batch` is nil), holding the
    /// slots of its roots only: an undo on one root waits for no batch on another.
    func undo(batch: Int64?, caller: Caller) throws -> UndoResult {
        let uid = caller.uid
        let requester = Requester.resolving(uid: uid, gid: caller.credentials.gid)
        let target = try curator.batches.withRunner { (runner) throws(BatchError) in
            try runner.undoTarget(batch: batch, requester: requester)
        }
        try curator.claimBatchSlots(target.roots)
        defer { curator.releaseBatchSlots(target.roots) }
        var total = 0
        var done = 0
        // The watcher leaves the undo's own moves back to it (it indexes them itself),
        // and looks again at any it skipped that the undo did not put back.
        var arriving: [Arrival] = []
        var putBack: [String: Set<ByteString>] = [:]
        defer {
            let again = Self.rechecks(skipped: curator.ownMoves.incoming.end(arriving.map(\.entry)), arriving: arriving, putBack: putBack)
            if !again.isEmpty { curator.inbox.post(.recheck(again)) }
        }
        let reports = ChunkReports<(first: Int, total: Int, results: [BatchItemResult], back: [RestoredPhoto])> { [curator] chunk in
            curator.withState { state in
                state.photosRestored(chunk.back)
                for (offset, item) in chunk.results.enumerated() {
                    state.events.send(Event(event: .batch, photoId: item.id, state: "restoring",
                                            done: chunk.first + offset + 1, total: chunk.total, outcome: item.outcome),
                                      toUID: uid)
                }
            }
        }
        let outcome: UndoOutcome
        do {
            defer { reports.finish() }  // every chunk applied before the undo's end is told, however it ends
            outcome = try curator.batches.withRunner { (runner) throws(BatchError) in
                var reported: [BatchItemResult] = []
                return try runner.undo(batch: target.batch, requester: requester,
                                       progress: { reported.append($0) },
                                       willRestore: { photos in
                                           total = photos.count
                                           let ids = curator.withState { state in photos.map { state.rootID(named: $0.rootName) } }
                                           arriving += Self.arrivals(photos, rootIDs: ids)
                                           curator.ownMoves.incoming.expect(arriving.map(\.entry))
                                       },
                                       chunkReported: { back in
                                           for photo in back { putBack[photo.rootName, default: []].insert(photo.relativePath) }
                                           reports.hand((first: done, total: total, results: reported, back: back))
                                           done += reported.count
                                           reported.removeAll(keepingCapacity: true)
                                       },
                                       shouldStop: { curator.isStopping })
            }
        }
        curator.withState { state in
            // Photos no longer in the trash (purged by another tool): their kept thumbnails go.
            state.thumbnailsPurged(outcome.result.items)
            state.events.send(Event(event: .batch, state: outcome.result.state.rawValue, batch: outcome.result.batch,
                                    done: done, total: total), toUID: uid)
        }
        return outcome.result
    }

    /// Deletes for good what the `trash.list` of `token` listed, holding the slots of
    /// the roots of what it would empty now: if that changes before it runs, the
    /// token no longer matches and nothing is emptied.
    func empty(root: String?, cutoff: Int64?, token: String, caller: Caller) throws -> TrashEmptyResult {
        let roots = try Self.emptyRoots(root: root) { () throws(BatchError) in
            try curator.batches.withRunner { (runner) throws(BatchError) in
                try runner.trashed(uid: caller.uid, cutoff: cutoff).photos.map(\.root)
            }
        }
        try curator.claimBatchSlots(roots)
        defer { curator.releaseBatchSlots(roots) }
        let result = try curator.batches.withRunner { (runner) throws(BatchError) in
            try runner.empty(uid: caller.uid, root: root, cutoff: cutoff, token: token)
        }
        curator.withState { $0.photosPurged(result.items) }
        return result
    }

    // MARK: decisions

    /// A photo of a plan as the watcher knows its path, and its id.
    typealias Leaving = (entry: WatchTable.Entry, id: Int64)

    /// A photo an undo puts back, as the watcher knows its path, and its root's name.
    typealias Arrival = (entry: WatchTable.Entry, rootName: String)

    /// The plan's photos by root id; a photo of a root no longer configured is none
    /// of the watcher's business.
    static func leaving(_ items: [BatchPlanItem], rootIDs: [String: Int32]) -> [Leaving] {
        items.compactMap { item in
            rootIDs[item.rootName].map { (WatchTable.Entry(rootID: $0, path: item.relativePath), item.photoID) }
        }
    }

    /// Of the moves the watcher left to a delete (`skipped`, indices into
    /// `leaving`), those of photos the delete did not trash: looked at again.
    static func rechecks(skipped: [Int], leaving: [Leaving], trashed: Set<Int64>) -> [WatchTable.Entry] {
        skipped.map { leaving[$0] }.filter { !trashed.contains($0.id) }.map(\.entry)
    }

    /// The photos an undo is about to put back, by root id (`rootIDs` in the same
    /// order; nil for a root no longer configured, which the watcher does not see).
    static func arrivals(_ photos: [(rootName: String, relativePath: ByteString)], rootIDs: [Int32?]) -> [Arrival] {
        zip(photos, rootIDs).compactMap { photo, id in
            id.map { (WatchTable.Entry(rootID: $0, path: photo.relativePath), photo.rootName) }
        }
    }

    /// Of the moves the watcher left to an undo (`skipped`, indices into
    /// `arriving`), those the undo did not put back: looked at again.
    static func rechecks(skipped: [Int], arriving: [Arrival], putBack: [String: Set<ByteString>]) -> [WatchTable.Entry] {
        skipped.map { arriving[$0] }.filter { putBack[$0.rootName]?.contains($0.entry.path) != true }.map(\.entry)
    }

    /// A trashed chunk's photos as the state buries them: the plan's file at each
    /// item's step, when it is still that photo.
    static func burials(_ chunk: [BatchItemResult], planned: [BatchPlanItem]) -> [Burial] {
        chunk.compactMap { item in
            guard item.outcome == .trashed, item.step >= 1, item.step <= planned.count else { return nil }
            let file = planned[item.step - 1]
            guard file.photoID == item.id else { return nil }
            return Burial(id: file.photoID, identity: file.identity, rootName: file.rootName, relativePath: file.relativePath)
        }
    }

    /// The roots an emptying holds: the one named, or those of what is in the trash now.
    static func emptyRoots(root: String?, trashedRoots: () throws(BatchError) -> [String]) throws(BatchError) -> Set<String> {
        if let root { return [root] }
        return Set(try trashedRoots())
    }
}
