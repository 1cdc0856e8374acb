// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc
import Synchronization

/// Writes the `.trashinfo` files of a chunk's moves on a helper thread, in order,
/// while the batch thread checks and renames the photos whose info is already
/// written. The two touch different directories (`info/` on one side, the photo's
/// folder and `files/` on the other), so on two cores they run side by side; one
/// thread doing both spent half its time creating info files.
///
/// Only first attempts are written here, all of them for photos whose intent is
/// committed: a crash leaves what recovery already handles (an `intent` photo in
/// place with its `.trashinfo`: the info is removed). A batch that stops early calls
/// `finish()`, which hands back the names written ahead, for the caller to remove.
final class InfoWriterAhead: @unchecked Sendable {
    // @unchecked: the helper reads `work` (immutable after init) and writes
    // `results[i]` before publishing `i + 1` in `written`; the batch thread reads
    // `results[i]` only after seeing `written > i`.
    enum Result {
        case written
        case taken
        case failed(SystemError)
    }

    /// The chunk's moves in the order the batch thread takes them.
    private let work: [PhotoTrasher.PlannedMove]
    private let results: UnsafeMutableBufferPointer<Result?>
    private let written = Atomic<Int>(0)
    private let stopRequested = Atomic<Bool>(false)
    private let exited = OneShotSignal()
    private let gate = ProgressGate()

    private let failpoints: Failpoints

    init(_ work: [PhotoTrasher.PlannedMove], failpoints: Failpoints) {
        self.work = work
        self.failpoints = failpoints
        results = .allocate(capacity: max(work.count, 1))
        results.initialize(repeating: nil)
    }

    deinit {
        results.deinitialize()
        results.deallocate()
    }

    /// Starts the helper; when no thread can be had, `result(for:)` answers nil and
    /// the batch thread writes each info itself, as it always could.
    func start() {
        do throws(SystemError) {
            try SystemThread.detach(name: "curatord-info", stackSize: 256 << 10) { [self] in run() }
        } catch {
            log.warning("writing .trashinfo files on the batch thread: \(error)")
            exited.signal()
        }
    }

    private func run() {
        for (at, move) in work.enumerated() {
            if stopRequested.load(ordering: .acquiring) { break }
            let result: Result
            do throws(SystemError) {
                result = try move.trash.writeInfoUnsynced(move.name, move.info, beforeNaming: { [failpoints] in
                    try? failpoints.reach(.itemInfoUnnamed)
                }) ? .written : .taken
            } catch {
                result = .failed(error)
            }
            results[at] = result
            written.store(at + 1, ordering: .sequentiallyConsistent)
            gate.advance()
        }
        exited.signal()
        gate.advance()
    }

    /// How the first attempt of move `at` (in `work`'s order) went, waiting for it
    /// if needed; nil when the helper is not running (the caller writes the info).
    func result(at position: Int) -> Result? {
        gate.wait { written.load(ordering: .sequentiallyConsistent) > position || exited.isSignalled }
        return written.load(ordering: .acquiring) > position ? results[position] : nil
    }

    /// Stops the helper and waits for it; returns the moves from `reached` on (those
    /// the batch thread never took) whose info it wrote.
    func finish(reached: Int) -> [PhotoTrasher.PlannedMove] {
        stopRequested.store(true, ordering: .releasing)
        while !exited.wait(seconds: 3600) {}
        let done = written.load(ordering: .acquiring)
        guard reached < done else { return [] }
        return (reached..<done).compactMap { if case .written = results[$0] { work[$0] } else { nil } }
    }
}

/// What the batch thread waits on while the helper is behind: a short spin first
/// (the helper is usually a few microseconds ahead), then a condition variable.
private final class ProgressGate: Sendable {
    private let condition = Condition()
    private let waiters = Atomic<Int>(0)

    /// The helper published something: wakes the batch thread if it waits.
    func advance() {
        guard waiters.load(ordering: .sequentiallyConsistent) > 0 else { return }
        condition.broadcast()
    }

    /// Returns once `ready()` holds. The waiter registers before it looks again, and
    /// the helper publishes before it looks for waiters (both sequentially
    /// consistent), so an advance is never missed; the timeout is only a backstop.
    func wait(until ready: () -> Bool) {
        for _ in 0..<32 {
            if ready() { return }
            sched_yield()
        }
        condition.withLock { waiting in
            waiters.add(1, ordering: .sequentiallyConsistent)
            while !ready() { waiting.wait(seconds: 0.01) }
            waiters.subtract(1, ordering: .sequentiallyConsistent)
        }
    }
}
