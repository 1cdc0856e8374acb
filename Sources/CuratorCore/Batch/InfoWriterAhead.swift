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
    // `results[i]` before publishing `i + 1` in `written` (release); the batch thread
    // reads `results[i]` only after seeing `written > i` (acquire).
    enum Result {
        case written
        case taken
        case failed(SystemError)
    }

    private let work: [(index: Int, move: PhotoTrasher.PlannedMove)]
    private let results: UnsafeMutableBufferPointer<Result?>
    private let written = Atomic<Int>(0)
    private let stopRequested = Atomic<Bool>(false)
    private let exited = OneShotSignal()
    private let gate = ProgressGate()
    /// Position in `work` of each chunk index, for the batch thread's lookups.
    private let position: [Int: Int]

    init(_ work: [(index: Int, move: PhotoTrasher.PlannedMove)]) {
        self.work = work
        results = .allocate(capacity: max(work.count, 1))
        results.initialize(repeating: nil)
        var position: [Int: Int] = [:]
        for (at, entry) in work.enumerated() { position[entry.index] = at }
        self.position = position
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
        for (at, entry) in work.enumerated() {
            if stopRequested.load(ordering: .acquiring) { break }
            let result: Result
            do throws(SystemError) {
                result = try entry.move.trash.writeInfoUnsynced(entry.move.name, entry.move.info) ? .written : .taken
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

    /// How the first attempt of chunk index `index` went, waiting for it if needed;
    /// nil when the helper is not running (the caller writes the info itself).
    func result(for index: Int) -> Result? {
        guard let at = position[index] else { return nil }
        gate.wait { written.load(ordering: .sequentiallyConsistent) > at || exited.isSignalled }
        let done = written.load(ordering: .acquiring)
        return done > at ? results[at] : nil
    }

    /// Stops the helper and waits for it; returns the moves whose info it wrote
    /// among `unconsumed` chunk indexes (those the batch thread never reached).
    func finish(unconsumed: Set<Int>) -> [PhotoTrasher.PlannedMove] {
        stopRequested.store(true, ordering: .releasing)
        while !exited.wait(seconds: 3600) {}
        let done = max(written.load(ordering: .acquiring), 0)
        var left: [PhotoTrasher.PlannedMove] = []
        for at in 0..<done where unconsumed.contains(work[at].index) {
            if case .written = results[at] { left.append(work[at].move) }
        }
        return left
    }
}

/// A counter the helper bumps and the batch thread waits on: a short spin first
/// (the helper is usually a few microseconds ahead), then a condition variable.
private final class ProgressGate: @unchecked Sendable {
    // @unchecked: the pthread mutex guards `generation` and the condition.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var generation: UInt64 = 0
    private let waiters = Atomic<Int>(0)

    init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func advance() {
        guard waiters.load(ordering: .sequentiallyConsistent) > 0 else { return }
        pthread_mutex_lock(mutex)
        generation &+= 1
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Returns once `ready()` holds. The waiter registers before it looks again, and
    /// the helper publishes before it looks for waiters (both sequentially
    /// consistent), so an advance is never missed; the timeout is only a backstop.
    func wait(until ready: () -> Bool) {
        for _ in 0..<32 {
            if ready() { return }
            sched_yield()
        }
        pthread_mutex_lock(mutex)
        waiters.add(1, ordering: .sequentiallyConsistent)
        while !ready() {
            var deadline = timespec()
            clock_gettime(CLOCK_REALTIME, &deadline)
            deadline.tv_nsec += 10_000_000
            if deadline.tv_nsec >= 1_000_000_000 {
                deadline.tv_sec += 1
                deadline.tv_nsec -= 1_000_000_000
            }
            _ = pthread_cond_timedwait(condition, mutex, &deadline)
        }
        waiters.subtract(1, ordering: .sequentiallyConsistent)
        pthread_mutex_unlock(mutex)
    }
}
