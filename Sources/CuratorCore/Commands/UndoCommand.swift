// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// `undo`: a batch put back (the caller's latest when none is named), in ascending
/// order, never over a file that now stands at a photo's path; the photos are then
/// indexed again under their former ids. Told like a delete: one event per photo
/// with the total, then a last one.
enum UndoCommand: CuratorCommand {
    static func run(_ args: UndoRequest, curator: Curator, caller: Caller) throws -> UndoResult {
        let uid = caller.uid
        let requester = Requester.resolving(uid: uid, gid: caller.credentials.gid)
        // The batch is found first, so that the undo holds the slots of its roots
        // only: an undo on one root waits for no batch on another.
        let target = try curator.batches.withRunner { (runner) throws(BatchError) in
            try runner.undoTarget(batch: args.batch, requester: requester)
        }
        try curator.claimBatchSlots(target.roots)
        defer { curator.releaseBatchSlots(target.roots) }
        var total = 0
        var done = 0
        // The watcher leaves the undo's own moves back to it (it indexes them itself),
        // and looks again at any it skipped that the undo did not put back.
        var arriving: [WatchTable.Entry] = []
        var arrivingRoots: [String] = []
        var putBack: [String: Set<ByteString>] = [:]
        defer {
            let skipped = curator.ownMoves.incoming.end(arriving)
            let again = skipped.filter { putBack[arrivingRoots[$0]]?.contains(arriving[$0].path) != true }.map { arriving[$0] }
            if !again.isEmpty { curator.inbox.post(.recheck(again)) }
        }
        // Each chunk's photos are indexed again (and told) on a thread of their own
        // while the next chunk moves back.
        let reports = ChunkReports<(first: Int, total: Int, results: [BatchItemResult], back: [RestoredPhoto])> { chunk in
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
                                           for (photo, id) in zip(photos, ids) {
                                               guard let id else { continue }
                                               arriving.append(WatchTable.Entry(rootID: id, path: photo.relativePath))
                                               arrivingRoots.append(photo.rootName)
                                           }
                                           curator.ownMoves.incoming.expect(arriving)
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
}
