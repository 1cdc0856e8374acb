// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Writes the `.trashinfo` files of a chunk's moves as a job on a batch helper, in
/// order, while the batch thread checks and renames the photos whose info is
/// already written. The two touch different directories (`info/` on one side, the
/// photo's folder and `files/` on the other), so on two cores they run side by
/// side; one thread doing both spent half its time creating info files.
///
/// The two threads share the work rather than hand it over: each info is claimed,
/// in order, by whichever thread gets to it first. When the batch thread needs an
/// info the helper has not claimed yet (a helper the scheduler left waiting on a
/// busy host), it claims and writes that one itself instead of waiting for it; it
/// waits only for an info the helper is writing at that moment. Waiting for the
/// helper (first by spinning on `sched_yield`) cost more on a loaded host than the
/// infos themselves: each yield could give the core away for a whole time slice.
///
/// Only first attempts are written here, all of them for photos whose intent is
/// committed: a crash leaves what recovery already handles (an `intent` photo in
/// place with its `.trashinfo`: the info is removed). A batch that stops early calls
/// `finish()`, which hands back the names written ahead, for the caller to remove.
/// Used by the batch thread only.
final class InfoWriterAhead {
    enum Result: Sendable {
        case written
        case taken
        case failed(SystemError)
    }

    /// What the two threads share: moves before `claimed` are taken (by the helper,
    /// or by the batch thread when it got there first); `results[i]` is the helper's
    /// result for a move it claimed, once written.
    private struct Claims: Sendable {
        var claimed = 0
        var stopped = false
        var results: [Result?]
    }

    /// The chunk's moves in the order the batch thread takes them.
    private let work: [ChunkPlanner.PlannedMove]
    private let claims: Monitor<Claims>
    private var job: JobHandle<Void, Never>?
    /// Results asked for by the batch thread so far.
    private var taken = 0
    private let failpoints: Failpoints

    init(_ work: [ChunkPlanner.PlannedMove], failpoints: Failpoints) {
        self.work = work
        self.failpoints = failpoints
        claims = Monitor(Claims(results: Array(repeating: nil, count: work.count)))
    }

    /// Starts the helper on `helpers`; when no helper can be had, `result(at:)`
    /// answers nil and the batch thread writes each info itself, as it always could.
    func start(on helpers: WorkerPool) {
        guard !work.isEmpty else { return }
        let (work, claims, failpoints) = (work, claims, failpoints)
        do throws(WorkerError) {
            job = try helpers.submit(named: "curatord-info") {
                InfoWriterAhead.write(work, claims: claims, failpoints: failpoints)
            }
        } catch {
            log.warning("writing .trashinfo files on the batch thread: \(error)")
        }
    }

    /// The helper's job: claims the next info no thread has taken, writes it,
    /// publishes how it went; until every info is taken or the batch thread stops it.
    /// A claimed info always gets its result (the batch thread may be waiting for it).
    private static func write(_ work: [ChunkPlanner.PlannedMove], claims: Monitor<Claims>, failpoints: Failpoints) {
        while true {
            let next: Int? = claims.withLock { locked in
                guard !locked.state.stopped, locked.state.claimed < work.count else { return nil }
                locked.state.claimed += 1
                return locked.state.claimed - 1
            }
            guard let position = next else { return }
            let move = work[position]
            let result: Result
            do throws(SystemError) {
                result = try move.trash.writeInfoUnsynced(move.name, move.info, beforeNaming: { [failpoints] in
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
    /// in turn) went, waiting only if the helper is writing it right now; nil when the
    /// helper is not running or has not reached it: the caller writes that info.
    func result(at position: Int) -> Result? {
        guard job != nil, position == taken else { return nil }
        taken += 1
        return claims.withLock { locked in
            if position >= locked.state.claimed {
                // Not reached by the helper (positions are claimed in order, and this
                // thread asks for each in turn: `claimed` is exactly `position`).
                locked.state.claimed = position + 1
                return nil
            }
            locked.wait { $0.results[position] != nil }
            return locked.state.results[position]
        }
    }

    /// Stops the helper and waits for it; returns the moves from `reached` on (those
    /// the batch thread never took) whose info it wrote.
    func finish(reached: Int) -> [ChunkPlanner.PlannedMove] {
        guard let job else { return [] }
        claims.withLock { $0.state.stopped = true }
        _ = job.wait()
        return claims.withLock { locked in
            (reached..<work.count).compactMap { position in
                if case .written? = locked.state.results[position] { work[position] } else { nil }
            }
        }
    }
}
