// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Writes `.trashinfo` files of a chunk's moves as a job on a batch helper while
/// the batch thread checks and renames the photos. The two touch different
/// directories (`info/` on one side, the photo's folder and `files/` on the other),
/// so on two cores they run side by side.
///
/// Both go through the chunk forwards and share one cursor: the helper takes the
/// next info nobody has taken, and so does the batch thread when it comes to a
/// photo whose info the helper has not taken yet (it writes that one itself);
/// otherwise it waits for the one info the helper may be writing at that moment.
/// An info costs less than a rename and its checks, so the helper keeps ahead and
/// the batch thread only renames; a helper the scheduler keeps waiting (a loaded
/// host) never holds the batch thread up. Before, the helper wrote from the
/// chunk's last move backwards while the batch thread wrote its own from the
/// first: both created names in `info/` at once the whole time, and the
/// directory's lock had them spin on each other (33 ms of 15 001 files).
///
/// Only first attempts are written here, all of them for photos whose intent is
/// committed: a crash leaves what recovery already handles (an `intent` photo in
/// place with its `.trashinfo`: the info is removed). A batch that stops early calls
/// `finish()`, which hands back the names written ahead, for the caller to remove.
///
/// Started by the helper that journals the chunk's intents (`ChunkPreparer`), often
/// while the batch thread still moves the chunk before; from then on asked by the
/// batch thread only (`result(at:)`, `finish`).
final class InfoWriterAhead: Sendable {
    enum Result: Sendable {
        case written
        case taken
        case failed(SystemError)
    }

    /// What the two threads share: moves before `next` are taken (by either);
    /// `results[i]` is the helper's result for a move it took, once written.
    private struct Claims: Sendable {
        var next = 0
        var stopped = false
        var results: [Result?]
        /// The helper's job, once started.
        var job: JobHandle<Void, Never>?
        /// Results asked for by the batch thread so far.
        var taken = 0
    }

    /// The chunk's moves in the order the batch thread takes them.
    private let work: [ChunkPlanner.PlannedMove]
    private let claims: Monitor<Claims>
    private let failpoints: Failpoints

    init(_ work: [ChunkPlanner.PlannedMove], failpoints: Failpoints) {
        self.work = work
        self.failpoints = failpoints
        claims = Monitor(Claims(results: Array(repeating: nil, count: work.count)))
    }

    /// Starts the helper on `helpers`; when no helper can be had, `result(at:)`
    /// answers nil and the batch thread writes each info itself, as it always could.
    /// The helper begins once `previous` (the chunk before's writer, which may still
    /// be writing) is done: two writers creating names in one `info/` at once spin
    /// on its lock. Meanwhile the batch thread, should it get there first, writes
    /// this chunk's infos itself.
    func start(on helpers: WorkerPool, after previous: InfoWriterAhead? = nil) {
        guard !work.isEmpty else { return }
        let (work, claims, failpoints) = (work, claims, failpoints)
        do throws(WorkerError) {
            let job = try helpers.submit(named: "curatord-info") {
                previous?.waitForHelper()
                InfoWriterAhead.write(work, claims: claims, failpoints: failpoints)
            }
            claims.withLock { $0.state.job = job }
        } catch {
            log.warning("writing .trashinfo files on the batch thread: \(error)")
        }
    }

    /// Returns once the helper's job has ended (at once when there is none). Its job
    /// was submitted before any job that waits here: the pool's queue is in order.
    private func waitForHelper() {
        _ = claims.withLock { $0.state.job }?.wait()
    }

    /// The helper's job: takes the next move nobody has taken, writes its info,
    /// publishes how it went; until the chunk's end or the batch thread stops it.
    /// A move taken always gets its result (the batch thread may be waiting for it).
    private static func write(_ work: [ChunkPlanner.PlannedMove], claims: Monitor<Claims>, failpoints: Failpoints) {
        while true {
            let next: Int? = claims.withLock { locked in
                guard !locked.state.stopped, locked.state.next < work.count else { return nil }
                locked.state.next += 1
                return locked.state.next - 1
            }
            guard let position = next else { return }
            let move = work[position]
            let result: Result
            do throws(SystemError) {
                result = try move.trash.writeInfoUnsynced(move.name, move.info, beforeWriting: { [failpoints] in
                    try? failpoints.reach(.itemInfoCreated)
                }, beforeNaming: { [failpoints] in
                    try? failpoints.reach(.itemInfoUnnamed)
                }) ? .written : .taken
            } catch {
                result = .failed(error)
            }
            claims.withLock { locked in
                locked.state.results[position] = result
                locked.broadcast()
            }
        }
    }

    /// How the first attempt of move `position` (in `work`'s order, each asked once,
    /// in turn) went, once the helper wrote it; nil when the helper is not running or
    /// has not taken it: the caller writes that info (and the helper goes on after it).
    func result(at position: Int) -> Result? {
        claims.withLock { locked in
            guard locked.state.job != nil, position == locked.state.taken else { return nil }
            locked.state.taken += 1
            if position >= locked.state.next {
                locked.state.next = position + 1
                return nil
            }
            locked.wait { $0.results[position] != nil }
            return locked.state.results[position]
        }
    }

    /// Stops the helper and waits for it; returns the moves from `reached` on (those
    /// the batch thread never took) whose info it wrote.
    func finish(reached: Int) -> [ChunkPlanner.PlannedMove] {
        let job = claims.withLock { locked -> JobHandle<Void, Never>? in
            locked.state.stopped = true
            return locked.state.job
        }
        guard let job else { return [] }
        _ = job.wait()
        return claims.withLock { locked in
            (reached..<work.count).compactMap { position in
                if case .written? = locked.state.results[position] { work[position] } else { nil }
            }
        }
    }
}
