// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Writes `.trashinfo` files of a chunk's moves as a job on a batch helper while
/// the batch thread checks and renames the photos. The two touch different
/// directories (`info/` on one side, the photo's folder and `files/` on the other),
/// so on two cores they run side by side.
///
/// The two threads share the chunk from both ends: the batch thread takes the moves
/// in order and writes each info itself, while the helper writes infos from the
/// chunk's last move backwards; when the batch thread reaches the first info the
/// helper took, the rest are written or being written. So the batch thread waits at
/// most once a chunk, for the one info the helper may be writing where they meet.
/// Handing every info over from a helper that went first instead made the batch
/// thread wait for each one (an info costs more than a rename): on a loaded host
/// each wait lasted until the scheduler ran the helper again (0.6-1.1 s of a
/// 10 000-photo batch, first in `sched_yield`, then on a futex).
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

    /// What the two threads share: moves before `front` are the batch thread's,
    /// moves from `back` on the helper's; `results[i]` is the helper's result for a
    /// move it took, once written.
    private struct Claims: Sendable {
        var front = 0
        var back: Int
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
        claims = Monitor(Claims(back: work.count, results: Array(repeating: nil, count: work.count)))
    }

    /// Starts the helper on `helpers`; when no helper can be had, `result(at:)`
    /// answers nil and the batch thread writes each info itself, as it always could.
    func start(on helpers: WorkerPool) {
        guard !work.isEmpty else { return }
        let (work, claims, failpoints) = (work, claims, failpoints)
        do throws(WorkerError) {
            let job = try helpers.submit(named: "curatord-info") {
                InfoWriterAhead.write(work, claims: claims, failpoints: failpoints)
            }
            claims.withLock { $0.state.job = job }
        } catch {
            log.warning("writing .trashinfo files on the batch thread: \(error)")
        }
    }

    /// The helper's job: takes the last move nobody has taken, writes its info,
    /// publishes how it went; until the two ends meet or the batch thread stops it.
    /// A move taken always gets its result (the batch thread may be waiting for it).
    private static func write(_ work: [ChunkPlanner.PlannedMove], claims: Monitor<Claims>, failpoints: Failpoints) {
        while true {
            let next: Int? = claims.withLock { locked in
                guard !locked.state.stopped, locked.state.back > locked.state.front else { return nil }
                locked.state.back -= 1
                return locked.state.back
            }
            guard let position = next else { return }
            let move = work[position]
            let result: Result
            do throws(SystemError) {
                result = try move.trash.writeInfoUnsynced(move.name, move.info, beforeWriting: { [failpoints] in
                    try? failpoints.reach(.itemInfoCreated)
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
    /// has not taken it: the caller writes that info.
    func result(at position: Int) -> Result? {
        claims.withLock { locked in
            guard locked.state.job != nil, position == locked.state.taken else { return nil }
            locked.state.taken += 1
            if position < locked.state.back {
                locked.state.front = position + 1
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
