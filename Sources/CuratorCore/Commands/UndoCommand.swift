// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// `undo`: a batch put back (the caller's latest when none is named), in ascending
/// order, never over a file that now stands at a photo's path; the photos are then
/// indexed again under their former ids. Told like a delete: one event per photo
/// with the total, then a last one.
enum UndoCommand: CuratorCommand {
    static func arguments(of command: Command) -> UndoRequest? { if case .undo(let a) = command { a } else { nil } }

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
        let outcome = try curator.batches.withRunner { (runner) throws(BatchError) in
            var reported: [BatchItemResult] = []
            return try runner.undo(batch: target.batch, requester: requester,
                                   progress: { reported.append($0) },
                                   willRestore: { total = $0 },
                                   chunkReported: {
                                       let chunk = reported
                                       reported.removeAll(keepingCapacity: true)
                                       let first = done
                                       done += chunk.count
                                       curator.withState { state in
                                           for (offset, item) in chunk.enumerated() {
                                               state.events.send(Event(event: .batch, photoId: item.id, state: "restoring",
                                                                       done: first + offset + 1, total: total, outcome: item.outcome),
                                                                 toUID: uid)
                                           }
                                       }
                                   },
                                   shouldStop: { curator.isStopping })
        }
        curator.withState { state in
            for restored in outcome.restored { state.photoRestored(restored) }
            // Photos no longer in the trash (purged by another tool): their kept thumbnails go.
            state.thumbnailsPurged(outcome.result.items)
            state.events.send(Event(event: .batch, state: outcome.result.state.rawValue, batch: outcome.result.batch,
                                    done: done, total: total), toUID: uid)
        }
        return outcome.result
    }
}
