// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorStore
import CuratorSystem

/// Moves the photos of one batch to the trash a chunk at a time, with one journal
/// commit and one file system sync per chunk rather than several per photo
/// (docs/JOURNAL.md):
///
///   1. every photo of the chunk checked, its trash and a free name chosen, and the
///      whole chunk's intents (and the skips found) committed at once (by a
///      `ChunkPreparer`, on a helper while the chunk before moves);
///   2. per photo, nothing synced: `.trashinfo` created whole (written unnamed,
///      then named, never replacing), identity checked
///      again, renameat2(NOREPLACE) into `files/`;
///   3. the file systems touched synced (`ChunkSync`), then the chunk's outcomes
///      committed at once (unsynced: durable with the next synced commit). Only then
///      are its photos reported.
///
/// The journal still never claims more than the disk holds: a photo is `intent`
/// (which recovery settles from the disk) until its move is synced. A photo that is
/// not exactly what the plan pinned is left alone and reported. One per batch.
final class PhotoTrasher {
    typealias PlannedMove = ChunkPlanner.PlannedMove
    typealias Prepared = ChunkPlanner.Prepared

    let journal: Journal
    let failpoints: Failpoints
    let batch: Int64
    /// The batch's helpers: `.trashinfo` files written ahead, syncs.
    let helpers: WorkerPool

    init(journal: Journal, failpoints: Failpoints, batch: Int64, helpers: WorkerPool) {
        self.journal = journal
        self.failpoints = failpoints
        self.batch = batch
        self.helpers = helpers
    }

    /// How a photo's work ends, journaled at the chunk's commit.
    struct Ending: Equatable, Sendable {
        var state: JournalItemState
        var outcome: PhotoOutcome
        var detail: String?
        var moved = false
    }

    /// A chunk whose moves are done and whose sync is under way: what `finish` needs.
    struct StagedChunk {
        var items: [JournalItem]
        let prepared: [Prepared]
        var endings: [Ending?]
        let sync: ChunkSync
    }

    /// Step 1's commit for one chunk (`prepared` is `ChunkPlanner.prepare` of its
    /// photos, in order): the intents of the photos to move and the skips found, in
    /// one transaction, before anything on disk changes. Returns the items as now
    /// journaled. Run by the `ChunkPreparer` of the chunk, on a helper or here.
    static func journalIntents(_ journal: Journal, batch: Int64, items: [JournalItem],
                               prepared: [Prepared]) throws(BatchError) -> [JournalItem] {
        do {
            try journal.transaction { () throws(SQLiteError) in
                for (item, step) in zip(items, prepared) {
                    switch step {
                    case .done(let end): try record(item, end, batch: batch, in: journal)
                    case .move(let move):
                        try journal.recordIntent(batch: batch, step: item.step, trashDirectory: move.trash.path,
                                                 trashName: move.name, infoPath: move.infoPath, kind: move.trash.kind,
                                                 owner: move.owner)
                    }
                }
            }
        } catch {
            throw BatchError(.journal, "journal: \(error)")
        }
        var items = items
        for (index, step) in prepared.enumerated() {
            guard case .move(let move) = step else { continue }
            items[index].state = .intent
            items[index].trashDirectory = move.trash.path
            items[index].trashName = move.name
            items[index].infoPath = move.infoPath
            items[index].trashKind = move.trash.kind
        }
        return items
    }

    /// Step 2 for one chunk whose intents are committed (`ready`): the moves,
    /// unsynced, each `.trashinfo` taken from the writer ahead or written here; the
    /// chunk's sync is started on a helper thread so that the next chunk's work
    /// overlaps it. Throws only when the batch must stop (journal failure,
    /// failpoint); the journal then holds the truth up to that point.
    func stage(_ ready: ChunkPreparer.Ready) throws(BatchError) -> StagedChunk {
        var items = ready.items
        let prepared = ready.prepared
        var endings: [Ending?] = prepared.map { step in if case .done(let end) = step { end } else { nil } }

        // 2. The moves, unsynced; the .trashinfo files written ahead on a helper thread.
        let sync = ChunkSync(helpers: helpers)
        let moves = ready.moves
        let ahead = ready.ahead
        var reached = 0
        do throws(BatchError) {
            // Within the catch below: a stop here must stop the writer ahead and take
            // back its infos too (thrown before it, the helper went on writing them
            // while the caller went on, and one could land after the recovery that
            // followed: an info with no photo in the trash).
            try failpoints.reach(.chunkIntent)
            for (at, (index, move)) in moves.enumerated() {
                reached = at + 1
                endings[index] = try self.move(&items[index], move, sync: sync, firstInfo: ahead.result(at: at))
            }
        } catch {
            // The batch stops here: infos written ahead for photos it never reached go,
            // as abandon() would take them (their photos stay `intent` in place).
            Self.removeInfos(ahead.finish(reached: reached), batch: batch)
            throw error
        }
        _ = ahead.finish(reached: moves.count)
        sync.start()
        return StagedChunk(items: items, prepared: prepared, endings: endings, sync: sync)
    }

    /// Step 3 for a staged chunk: its sync waited for (one per file system), then one
    /// commit for the chunk's outcomes, **not synced**: the batch thread does not wait
    /// for the disk a second time a chunk. The outcomes reach the disk with the next
    /// synced commit (the next chunk's intents, a group's put-back, the batch's end).
    /// A power cut before that leaves the chunk's photos `intent`, which recovery
    /// settles from the disk the chunk's sync made durable: in the trash with their
    /// info, `trashed`; at their path, `pending` (docs/JOURNAL.md, step 6). Returns the
    /// items as now journaled.
    func finish(_ staged: StagedChunk) throws(BatchError) -> [JournalItem] {
        var items = staged.items
        let endings = staged.endings
        for error in staged.sync.finish() { log.warning("batch \(batch): \(error)") }
        try failpoints.reach(.chunkSynced)
        let moved = items.indices.filter { if case .move = staged.prepared[$0] { true } else { false } }
        try journaling { () throws(SQLiteError) in
            try journal.transactionUnsynced { () throws(SQLiteError) in
                // Runs of consecutive steps that ended alike without detail (a chunk
                // that went to the trash whole) are one statement each.
                var alike = StepRuns<Ending>()
                for index in moved {
                    guard let end = endings[index] else { continue }
                    if end.detail == nil {
                        alike.add(items[index].step, end)
                    } else {
                        try record(items[index], end)
                    }
                }
                for run in alike.runs {
                    try journal.recordItems(batch: batch, steps: run.steps, state: run.key.state, outcome: run.key.outcome, moved: run.key.moved)
                }
            }
        }
        try failpoints.reach(.chunkJournaled)
        for index in items.indices {
            guard let end = endings[index] else { continue }
            items[index].state = end.state
            items[index].outcome = end.outcome
            items[index].detail = end.detail
            items[index].moved = items[index].moved || end.moved
        }
        return items
    }

    /// Removes the `.trashinfo` files written ahead for photos a batch that stops
    /// will not move (they stay `intent` in place: recovery finds no info, `pending`).
    static func removeInfos(_ moves: [PlannedMove], batch: Int64) {
        for move in moves {
            do throws(SystemError) {
                try move.trash.removeInfo(move.name, synced: false)
            } catch {
                log.error("batch \(batch): removing \(move.trash.path)/info/\(move.name).trashinfo: \(error)")
            }
        }
    }

    private func record(_ item: JournalItem, _ end: Ending) throws(SQLiteError) {
        try Self.record(item, end, batch: batch, in: journal)
    }

    private static func record(_ item: JournalItem, _ end: Ending, batch: Int64, in journal: Journal) throws(SQLiteError) {
        try journal.recordItem(batch: batch, step: item.step, state: end.state, outcome: end.outcome, detail: end.detail, moved: end.moved)
    }

    func journaling<R>(_ body: () throws(SQLiteError) -> R) throws(BatchError) -> R {
        do {
            return try body()
        } catch {
            throw BatchError(.journal, "journal: \(error)")
        }
    }
}
