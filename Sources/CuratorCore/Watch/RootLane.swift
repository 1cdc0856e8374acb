// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Synchronization

/// Where a remote root's crawler does its system calls: a thread of its own (a
/// one-thread `WorkerPool`), so that a share whose server hangs costs that root
/// alone. Each piece of crawler work is handed to the lane and the watcher thread
/// waits for it a short while (`patience`); work still running then leaves the
/// lane *away*: the watcher goes on with the other roots and touches this crawler
/// again only once the work has ended (it wakes the watcher), taking its outcome
/// then. Hints that arrive meanwhile wait in the lane, in their order.
///
/// A sync cookie of this root waits for its work (`oldestWork`); those of other
/// roots do not.
final class RootLane {
    let root: Int32
    private let pool: WorkerPool
    private let wake: @Sendable () -> Void
    /// Work handed over and still running, with when it was handed over.
    private var running: (handle: JobHandle<LaneOutcome, Never>, since: UInt64)?
    /// The outcome of the work, left by the lane's thread before it wakes the
    /// watcher (the handle itself is finished only after the job has returned).
    private let finished = FinishedWork()
    /// Hints that came while the lane was away, applied when it is back.
    private(set) var heldHints: [Hint] = []
    /// The work number the lane holds cookies behind while away: the oldest
    /// outstanding work of the crawler when it left.
    private var awayWork: UInt64?

    /// How long the watcher thread waits for a piece of work before it leaves the
    /// lane away: long enough for a share that answers, short against a hang.
    static let patienceSeconds = 0.2

    init(root: Int32, wake: @escaping @Sendable () -> Void) {
        self.root = root
        self.wake = wake
        pool = WorkerPool(name: "curatord-root\(root)", threads: 1, queueLimit: 1, stackSize: 1 << 20, keepIdleSeconds: 10)
    }

    /// True while work handed over earlier still runs.
    var isAway: Bool { running != nil }

    /// Runs `work` on the lane's thread and waits up to `patienceSeconds`: its
    /// outcome, or nil when it is still running (or the lane is away already, or
    /// its thread cannot start: then nothing ran, and the caller's hints are held).
    func run(_ crawler: Crawler, _ work: @escaping (Crawler) -> LaneOutcome) -> LaneOutcome? {
        guard running == nil else { return nil }
        let box = CrawlerBox(crawler: crawler, work: work)
        let wake = self.wake
        let finished = self.finished
        let handle: JobHandle<LaneOutcome, Never>
        do {
            handle = try pool.submit(whenFull: .refuse) { () -> LaneOutcome in
                let outcome = box.work(box.crawler)
                finished.put(outcome)
                wake()
                return outcome
            }
        } catch {
            log.error("root \(crawler.name): cannot hand work to its thread: \(error)")
            return nil
        }
        if case .returned(let outcome)? = handle.wait(until: .after(seconds: Self.patienceSeconds)) {
            _ = finished.take()
            return outcome
        }
        running = (handle, MonotonicClock.nanoseconds())
        awayWork = crawler.oldestOutstandingWorkWhenLeaving
        return nil
    }

    /// The outcome of the work that kept the lane away, once it has ended (the lane
    /// is then back); nil while it runs or when nothing was away.
    func collect() -> LaneOutcome? {
        guard running != nil, let outcome = finished.take() else { return nil }
        running = nil
        awayWork = nil
        return outcome
    }

    /// Holds hints for when the lane is back.
    func hold(_ hints: [Hint]) { heldHints.append(contentsOf: hints) }

    func takeHeldHints() -> [Hint] {
        let hints = heldHints
        heldHints = []
        return hints
    }

    /// Since when (monotonic ns) the lane has been away.
    var awaySince: UInt64? { running?.since }

    /// What this root's cookies wait for while the lane is away.
    var outstandingWorkWhileAway: UInt64? { running == nil ? nil : (awayWork ?? 0) }
}

/// What a piece of lane work leaves the watcher to act on.
enum LaneOutcome: Sendable {
    case none
    case scanStep(Crawler.ScanStep)
    case fullScanEnd(Crawler.FullScanEnd)
}

/// Where the lane's thread leaves the outcome of work the watcher stopped waiting for.
private final class FinishedWork: Sendable {
    private let slot = Mutex<LaneOutcome?>(nil)
    func put(_ outcome: LaneOutcome) { slot.withLock { $0 = outcome } }
    func take() -> LaneOutcome? { slot.withLock { $0.take() } }
}

/// The crawler and the work handed to its lane's thread.
private final class CrawlerBox: @unchecked Sendable {
    // @unchecked: while the lane's job runs, the watcher thread does not touch the
    // crawler (the lane is away, or the watcher waits for the job); the job's end
    // and the watcher's next use are ordered by the JobHandle's lock.
    let crawler: Crawler
    let work: (Crawler) -> LaneOutcome
    init(crawler: Crawler, work: @escaping (Crawler) -> LaneOutcome) {
        self.crawler = crawler
        self.work = work
    }
}

extension Crawler {
    /// The crawler's oldest outstanding work, or a number that holds back every
    /// later cookie of the root when there is none (the work in flight may add some).
    var oldestOutstandingWorkWhenLeaving: UInt64 { oldestOutstandingWork ?? sequence.current }
}
