// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Step 1 of the next chunk as a job on a batch helper, while the batch thread
/// moves the chunk before it: the photos looked at and given names
/// (`ChunkPlanner.prepare`), the chunk's intents committed
/// (`PhotoTrasher.journalIntents`), then its `.trashinfo` files started ahead
/// (`InfoWriterAhead`). So when the batch thread comes to the chunk, its journal
/// work is done and part of its infos are written: the batch thread renames, on one
/// core, while the other writes the journal and the infos (before, each chunk's
/// commit and its wait for the disk came between two chunks' renames).
///
/// Preparing changes nothing on disk, and the intents are committed before any
/// info is written: the journal still names every photo a crash may find in the
/// trash. The identity check right before each rename is what keeps a changed
/// photo out of the trash, however early this one ran.
///
/// What it shares with the jobs of the chunk being moved: the journal's connection
/// (one thread in it at a time, `Journal`) and the trash directories (whose name
/// bookkeeping has its own lock). The planner's caches are used by one chunk at a
/// time: the batch thread waits for a chunk's preparer before it starts the next.
struct ChunkPreparer {
    /// A chunk with its intents committed and its infos being written ahead.
    struct Ready: Sendable {
        /// The chunk's items as journaled now (`intent` for each photo to move).
        let items: [JournalItem]
        let prepared: [ChunkPlanner.Prepared]
        /// The photos to move, in order, each with its index in `items`.
        let moves: [(index: Int, move: ChunkPlanner.PlannedMove)]
        /// Started on a helper (or not, when none could be had: the batch thread
        /// then writes every info itself).
        let ahead: InfoWriterAhead
    }

    /// What the job needs besides the chunk.
    struct Context: Sendable {
        let planner: ChunkPlanner
        let journal: Journal
        let batch: Int64
        let failpoints: Failpoints
        let helpers: WorkerPool
    }

    private let context: Context
    private let work: ChunkPlanner.Work
    /// The chunk before's infos, written ahead perhaps still: this chunk's go after them.
    private let previous: InfoWriterAhead?
    private let job: JobHandle<Ready, BatchError>?

    /// Starts preparing `work` as a job on `helpers`; with `inline` (the first chunk,
    /// which the batch thread waits for anyway) or when no helper can be had,
    /// `ready()` does the work on the caller's thread. `previous`: the writer of the
    /// chunk before's infos.
    init(_ context: Context, _ work: ChunkPlanner.Work, after previous: InfoWriterAhead? = nil, inline: Bool = false) {
        self.context = context
        self.work = work
        self.previous = previous
        guard !inline else {
            job = nil
            return
        }
        do throws(WorkerError) {
            job = try context.helpers.submit(named: "curatord-plan") { () throws(BatchError) in
                try Self.prepare(context, work, after: previous)
            }
        } catch {
            log.warning("preparing a chunk on the batch thread: \(error)")
            job = nil
        }
    }

    private static func prepare(_ context: Context, _ work: ChunkPlanner.Work, after previous: InfoWriterAhead?) throws(BatchError) -> Ready {
        let prepared = context.planner.prepare(work)
        let items = try PhotoTrasher.journalIntents(context.journal, batch: context.batch, items: work.map(\.item),
                                                    prepared: prepared)
        let moves = prepared.indices.compactMap { index -> (index: Int, move: ChunkPlanner.PlannedMove)? in
            if case .move(let move) = prepared[index] { (index, move) } else { nil }
        }
        let ahead = InfoWriterAhead(moves.map(\.move), failpoints: context.failpoints)
        ahead.start(on: context.helpers, after: previous)
        return Ready(items: items, prepared: prepared, moves: moves, ahead: ahead)
    }

    /// The chunk, journaled and with its infos under way (waiting for the helper if
    /// need be). Throws the journal's failure to commit its intents.
    func ready() throws(BatchError) -> Ready {
        if let job, let ready = try job.wait().get() { return ready }
        return try Self.prepare(context, work, after: previous)
    }

    /// For a batch that stops before it reaches this chunk: waits for the helper and
    /// removes the infos it wrote ahead. The chunk's photos stay `intent` in place
    /// (recovery records them `pending`); nothing of it moved.
    func abandon() {
        guard let job, case .returned(let ready) = job.wait() else { return }
        PhotoTrasher.removeInfos(ready.ahead.finish(reached: 0), batch: context.batch)
    }
}
