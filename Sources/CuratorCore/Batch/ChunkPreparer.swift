// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Step 1 of the next chunk (`ChunkPlanner.prepare`) as a job on a batch helper,
/// while the batch thread moves the chunk before it. Preparing changes nothing on
/// disk and uses no journal, so it can run ahead; the identity check right before
/// each rename is what keeps a changed photo out of the trash, however early this
/// one ran.
///
/// What it shares with the jobs of the chunk being moved: the trash directories
/// (whose name bookkeeping has its own lock). The planner's caches are used by one
/// chunk at a time: the batch thread waits for a chunk's preparer before it starts
/// the next.
struct ChunkPreparer {
    private let planner: ChunkPlanner
    private let work: ChunkPlanner.Work
    private let job: JobHandle<[ChunkPlanner.Prepared], Never>?

    /// Starts preparing `work` on `helpers`; with none (or when no helper can be
    /// had), `prepared()` does the work on the caller's thread.
    init(_ planner: ChunkPlanner, _ work: ChunkPlanner.Work, on helpers: WorkerPool?) {
        self.planner = planner
        self.work = work
        guard let helpers else {
            job = nil
            return
        }
        do throws(WorkerError) {
            job = try helpers.submit(named: "curatord-plan") { planner.prepare(work) }
        } catch {
            log.warning("preparing a chunk on the batch thread: \(error)")
            job = nil
        }
    }

    /// The chunk's photos prepared, in order (waiting for the helper if need be).
    func prepared() -> [ChunkPlanner.Prepared] {
        if let job, let prepared = job.wait().get() { return prepared }
        return planner.prepare(work)
    }

    /// Waits for the helper, if one was started: a batch that stops early leaves
    /// no planning behind it.
    func finish() {
        _ = job?.wait()
    }
}
