// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Writes the `.trashinfo` files of a chunk's moves as a job on a batch helper, in
/// order, while the batch thread checks and renames the photos whose info is
/// already written. The two touch different directories (`info/` on one side, the
/// photo's folder and `files/` on the other), so on two cores they run side by
/// side; one thread doing both spent half its time creating info files.
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

    /// The chunk's moves in the order the batch thread takes them.
    private let work: [ChunkPlanner.PlannedMove]
    /// The helper's results, one per move in `work`'s order, until it stops.
    private let results = BlockingQueue<Result>()
    private let stop = OneShotSignal()
    private var job: JobHandle<Void, Never>?
    /// Results taken by the batch thread so far.
    private var taken = 0
    private let failpoints: Failpoints

    init(_ work: [ChunkPlanner.PlannedMove], failpoints: Failpoints) {
        self.work = work
        self.failpoints = failpoints
    }

    /// Starts the helper on `helpers`; when no helper can be had, `result(at:)`
    /// answers nil and the batch thread writes each info itself, as it always could.
    func start(on helpers: WorkerPool) {
        let (work, results, stop, failpoints) = (work, results, stop, failpoints)
        do throws(WorkerError) {
            job = try helpers.submit(named: "curatord-info") {
                InfoWriterAhead.write(work, into: results, until: stop, failpoints: failpoints)
            }
        } catch {
            log.warning("writing .trashinfo files on the batch thread: \(error)")
        }
    }

    /// The helper's job: each first attempt, in order, its result queued as soon as
    /// it is known; stops between two when asked. The queue is closed when it ends.
    private static func write(_ work: [ChunkPlanner.PlannedMove], into results: BlockingQueue<Result>, until stop: OneShotSignal,
                              failpoints: Failpoints) {
        defer { results.close() }
        for move in work {
            if stop.isSignalled { return }
            let result: Result
            do throws(SystemError) {
                result = try move.trash.writeInfoUnsynced(move.name, move.info, beforeNaming: { [failpoints] in
                    try? failpoints.reach(.itemInfoUnnamed)
                }) ? .written : .taken
            } catch {
                result = .failed(error)
            }
            results.push(result)
        }
    }

    /// How the first attempt of move `at` (in `work`'s order, each asked once, in
    /// turn) went, waiting for it if needed; nil when the helper is not running or
    /// stopped before it (the caller writes the info).
    func result(at position: Int) -> Result? {
        guard job != nil, position == taken else { return nil }
        // The helper is usually a few microseconds ahead: look a few times before sleeping.
        guard let result = results.pop(spinning: 32) else { return nil }
        taken += 1
        return result
    }

    /// Stops the helper and waits for it; returns the moves from `reached` on (those
    /// the batch thread never took) whose info it wrote.
    func finish(reached: Int) -> [ChunkPlanner.PlannedMove] {
        guard let job else { return [] }
        stop.signal()
        _ = job.wait()
        var left: [ChunkPlanner.PlannedMove] = []
        var position = taken
        while let result = results.pop(until: .now) {
            if case .written = result, position >= reached { left.append(work[position]) }
            position += 1
        }
        return left
    }
}
