// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials
import Glibc
import Synchronization

/// The watcher: three rooms and the thread that runs two of them.
///
/// - `InotifySource` (a thread of its own) reads the kernel's events into hints;
/// - one `Crawler` per root looks at what the hints name, walks folders and
///   updates the index;
/// - `RootSupervisor` keeps the roots' presence, polling, reload and inotify
///   restarts in line.
///
/// This thread takes the hints in order and hands each root's to its crawler,
/// answers sync cookies once everything before them is applied (`CookieGate`),
/// runs the crawlers' scans a slice at a time, the timers, and the commands of
/// other threads (`WatcherInbox`).
public final class Watcher: RootControl, @unchecked Sendable {
    // @unchecked: `crawlers`, `lanes`, `deferred`, `cookies` and `stopping` (and the
    // supervisor) are touched only by the watcher thread (`run`); a remote root's
    // crawler is used by its lane's thread only while the watcher leaves it alone
    // (`RootLane`); the rest is Sendable.
    let state: any WatcherStateLock
    let inbox: WatcherInbox
    let report: WatcherReport
    let moves: OwnMoves
    let source: InotifySource
    private var crawlers: [Int32: Crawler] = [:]
    /// The lanes of remote roots: their crawlers' work runs there (`RootLane`).
    private var lanes: [Int32: RootLane] = [:]
    /// Work for a root whose lane is away, in order, run when it is back.
    private var deferred: [Int32: [(Crawler) -> LaneOutcome]] = [:]
    private lazy var supervisor = RootSupervisor(state: state, probe: SystemRootProbe(), control: self,
                                                 staleEntryLimit: staleEntryLimit)
    private var cookies = CookieGate()
    private let sequence = WorkSequence()
    private var stopping = false
    private let staleEntryLimit: Int
    /// The watcher thread: one long job. Shutdown waits for its handle, so that the
    /// scan step in progress finishes before the index is closed.
    private let thread = WorkerPool(name: "curatord-watch", threads: 1, stackSize: 1 << 20, keepIdleSeconds: 0)
    private let loop = Mutex<JobHandle<Void, Never>?>(nil)

    /// Hints taken at a time.
    static let hintsPerTake = 4096
    /// How long the thread applies hints before it serves commands and scans again.
    static let hintBudgetNs: UInt64 = 50_000_000
    static let defaultStaleEntryLimit = 10_000
    /// Lowers the compaction bound, for tests that churn directories.
    static let staleEntryLimitVariable = "CURATORD_STALE_WATCH_LIMIT"

    /// `tools` is nil when inotify could not be initialised: every root is then polled.
    /// The state's side (`Watcher(curator:tools:)`) hands in its parts.
    init(state: any WatcherStateLock, inbox: WatcherInbox, report: WatcherReport, moves: OwnMoves, tools: InotifyToolsHandle?) {
        self.state = state
        self.inbox = inbox
        self.report = report
        self.moves = moves
        source = InotifySource(tools: tools?.tools, hints: PendingHints(wake: { inbox.wake() }), report: report, moves: moves)
        let limit = ProcessInfo.processInfo.environment[Self.staleEntryLimitVariable].flatMap { Int($0) }
        staleEntryLimit = max(limit ?? Self.defaultStaleEntryLimit, 1)
    }

    /// Starts the threads.
    public func start() throws(WorkerError) {
        try source.start()
        let job = try thread.submit { [self] in run() }
        loop.withLock { $0 = job }
    }

    /// Asks the thread to stop after the step in progress and waits for it, up
    /// to `seconds`. False when it did not stop in time.
    @discardableResult
    public func stop(waitingUpTo seconds: Double) -> Bool {
        inbox.post(.stop)
        guard let job = loop.withLock({ $0 }) else { return true }
        return job.wait(until: .after(seconds: seconds)) != nil
    }

    private func run() {
        supervisor.startAll(now: MonotonicClock.nanoseconds())
        while !stopping {
            // Selections that photos left during the last burst are saved and
            // announced once, here, not once per photo.
            state.withUpdates { $0.flushSelections() }
            for command in inbox.takeCommands() { handle(command) }
            if stopping { break }
            collectLanes()
            dispatchHints(budgetNs: Self.hintBudgetNs)
            releaseCookies()
            if supervisor.compactIfNeeded(now: MonotonicClock.nanoseconds()) { continue }
            if let crawler = nextScan() {
                runScanStep(of: crawler)
                runTimers()
                continue
            }
            if !source.hints.isEmpty { continue }
            waitForWake(timeoutMs: millisecondsToNextDeadline())
            runTimers()
        }
        source.stop(waitingUpTo: 2)
        inbox.releaseAllCookies()
    }

    private func handle(_ command: WatcherCommand) {
        switch command {
        case .stop:
            stopping = true
        case .rescan(let ids):
            for id in ids ?? state.withUpdates({ $0.watchedRoots.map(\.id) }) {
                perform(id) { $0.scheduleFullScan(reason: "requested") }
            }
        case .reconfigure:
            supervisor.reconfigure(now: MonotonicClock.nanoseconds())
        case .ping(let probe):
            // Answered by the source once this thread has got here: both turn.
            source.ping(probe)
        case .recheck(let files):
            for (root, entries) in Dictionary(grouping: files, by: \.rootID) {
                let paths = entries.map(\.path)
                perform(root) { $0.recheck(paths) }
            }
        }
    }

    // MARK: hints

    /// Hands the waiting hints to the crawlers, in order, for up to `budgetNs`.
    private func dispatchHints(budgetNs: UInt64) {
        let deadline = MonotonicClock.nanoseconds() &+ budgetNs
        repeat {
            let (lost, hints) = source.hints.take(max: Self.hintsPerTake)
            if let lost { supervisor.eventsLost(reason: lost) }
            if hints.isEmpty { return }
            route(hints)
        } while MonotonicClock.nanoseconds() < deadline
    }

    /// Each root's hints go to its crawler in their order. A sync cookie is answered
    /// once everything before it is applied; a root's check comes before any later
    /// hint of that root is applied as if it were still there.
    private func route(_ hints: [Hint]) {
        var waiting: [Int32: [Hint]] = [:]
        func apply(_ root: Int32) {
            guard let list = waiting[root], !list.isEmpty else { return }
            waiting[root] = []
            perform(root) { crawler in
                crawler.apply(list)
                return .none
            }
        }
        for hint in hints {
            switch hint.kind {
            case .cookie(let name):
                apply(hint.root)
                cookieArrived(name, root: hint.root)
            case .rootChanged:
                apply(hint.root)
                supervisor.checkLiveness(only: hint.root, now: MonotonicClock.nanoseconds())
            case .path, .movedFrom, .movedTo:
                waiting[hint.root, default: []].append(hint)
            }
        }
        for root in waiting.keys { apply(root) }
    }

    // MARK: cookies

    /// The number of the oldest scan or unpaired move of a root (for a lane away,
    /// what it left with).
    private func oldestWork(of root: Int32) -> UInt64? {
        if let lane = lanes[root], lane.isAway { return lane.outstandingWorkWhileAway }
        return crawlers[root]?.oldestOutstandingWork
    }

    private func cookieArrived(_ name: ByteString, root: Int32) {
        if cookies.arrived(name, root: root, sequence: sequence.next(), oldestWork: oldestWork(of: root)) {
            inbox.cookieSeen(name)
        }
    }

    private func releaseCookies() {
        guard !cookies.isEmpty else { return }
        for name in cookies.release(oldestWork: { oldestWork(of: $0) }) { inbox.cookieSeen(name) }
    }

    // MARK: lanes (remote roots)

    /// Runs work on a root's crawler: here for a local root, on its lane for a
    /// remote one. Work for a lane that is away waits for it, in order. The
    /// outcome, when the work is done by the time this returns.
    @discardableResult
    private func perform(_ id: Int32, _ work: @escaping (Crawler) -> LaneOutcome) -> LaneOutcome? {
        guard let crawler = crawlers[id] else { return nil }
        guard let lane = lanes[id] else {
            let outcome = work(crawler)
            act(on: outcome, of: crawler)
            return outcome
        }
        if lane.isAway || deferred[id]?.isEmpty == false {
            deferred[id, default: []].append(work)
            return nil
        }
        guard let outcome = lane.run(crawler, work) else { return nil }
        act(on: outcome, of: crawler)
        return outcome
    }

    private func perform(_ id: Int32, _ work: @escaping (Crawler) -> Void) {
        perform(id) { crawler -> LaneOutcome in
            work(crawler)
            return .none
        }
    }

    /// Lanes whose work has ended: its outcome is acted on, and the work that
    /// waited for the lane runs.
    private func collectLanes() {
        for (id, lane) in lanes where lane.isAway {
            guard let outcome = lane.collect(), let crawler = crawlers[id] else { continue }
            act(on: outcome, of: crawler)
            while var waiting = deferred[id], !waiting.isEmpty, !lane.isAway {
                let work = waiting.removeFirst()
                deferred[id] = waiting
                if let done = lane.run(crawler, work) { act(on: done, of: crawler) }
            }
        }
    }

    private func act(on outcome: LaneOutcome, of crawler: Crawler) {
        switch outcome {
        case .none: break
        case .scanStep(let step): scanStepTaken(step, by: crawler)
        case .fullScanEnd(let end): fullScanEnded(end, of: crawler)
        }
    }

    /// True when the watcher may look at the crawler's own fields now.
    private func isHome(_ crawler: Crawler) -> Bool { lanes[crawler.root]?.isAway != true && deferred[crawler.root]?.isEmpty != false }

    // MARK: scans

    /// The crawler whose scan was queued first.
    private func nextScan() -> Crawler? {
        var next: (crawler: Crawler, sequence: UInt64)?
        for crawler in crawlers.values where isHome(crawler) {
            guard let sequence = crawler.nextScan else { continue }
            if next == nil || sequence < next?.sequence ?? .max { next = (crawler, sequence) }
        }
        return next?.crawler
    }

    private func runScanStep(of crawler: Crawler) {
        let root = crawler.root
        // A remote root's step runs on its lane's thread, which may not look at this one's fields.
        guard lanes[root] == nil else {
            perform(root) { .scanStep($0.runScanStep()) }
            return
        }
        perform(root) { [unowned self] in .scanStep($0.runScanStep(othersWaiting: { self.othersWait(besides: root) })) }
    }

    /// True when anything but root `id`'s scan step waits for this thread: hints,
    /// commands, a lane's work to collect, another root's scan, a timer due.
    private func othersWait(besides id: Int32) -> Bool {
        if !source.hints.isEmpty || inbox.hasCommands { return true }
        if lanes.values.contains(where: { $0.isAway }) { return true }
        if crawlers.contains(where: { $0.key != id && isHome($0.value) && $0.value.nextScan != nil }) { return true }
        let now = MonotonicClock.nanoseconds()
        return nextDeadline(now: now) <= now
    }

    private func scanStepTaken(_ step: Crawler.ScanStep, by crawler: Crawler) {
        switch step {
        case .idle, .working:
            break
        case .outOfWatches:
            supervisor.fallBackToPolling(crawler.root, now: MonotonicClock.nanoseconds())
        case .readyToFinish:
            // What happened on disk while the scan ran is applied first, so that a
            // photo renamed across folders meanwhile is moved (keeping its id), not
            // removed by the scan's end and added again. The flush makes sure every
            // event queued before now is among the hints.
            source.flush()
            dispatchHints(budgetNs: 1_000_000_000)
            perform(crawler.root) { .fullScanEnd($0.finishFullScan()) }
        }
    }

    private func fullScanEnded(_ end: Crawler.FullScanEnd, of crawler: Crawler) {
            switch end {
            case .finished(let listed):
                // Cookies whose events were lost (an overflow, a restarted inotify) are
                // answered here: the scan read the whole root after they were made.
                for name in listed { cookieArrived(name, root: crawler.root) }
            case .rootChanged:
                supervisor.checkLiveness(only: crawler.root, now: MonotonicClock.nanoseconds())
            case .superseded:
                break
            }
    }

    // MARK: timers

    private func runTimers() {
        let now = MonotonicClock.nanoseconds()
        supervisor.tick(now: now)
        for crawler in crawlers.values where isHome(crawler) {
            // A remote root's settling stats files: on its lane, and only when due.
            if lanes[crawler.root] != nil {
                guard let due = crawler.nextDeadline(now: now), due <= now else { continue }
            }
            perform(crawler.root) { $0.settle(now: now) }
        }
    }

    /// When the next timer (the supervisor's, a crawler's) is due.
    private func nextDeadline(now: UInt64) -> UInt64 {
        var deadline = supervisor.nextDeadline(now: now)
        for crawler in crawlers.values where isHome(crawler) {
            if let due = crawler.nextDeadline(now: now) { deadline = min(deadline, due) }
        }
        return deadline
    }

    private func millisecondsToNextDeadline() -> Int32 {
        let now = MonotonicClock.nanoseconds()
        let deadline = nextDeadline(now: now)
        return Int32(clamping: (deadline > now ? deadline - now : 0) / 1_000_000 + 1)
    }

    /// Waits for a command or hints (the source wakes this thread through the
    /// inbox), or the next deadline.
    private func waitForWake(timeoutMs: Int32) {
        var fds = [pollfd(fd: inbox.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        if SystemCalls.poll(&fds, 1, timeoutMs) > 0 && fds[0].revents != 0 { inbox.drainWake() }
    }

    // MARK: RootControl (the supervisor's hands)

    var inotifyAvailable: Bool { source.isAvailable }

    var staleWatchEntries: Int { report.snapshot.staleEntries }

    var crawledRoots: [Int32] { Array(crawlers.keys) }

    func startCrawling(_ id: Int32, config: RootConfig, watching: Bool, remote: Bool) {
        if remote && lanes[id] == nil {
            let inbox = self.inbox
            lanes[id] = RootLane(root: id, wake: { inbox.wake() })
        } else if !remote && lanes[id] != nil && lanes[id]?.isAway != true {
            lanes[id] = nil
        }
        if crawlers[id] != nil {
            perform(id) { $0.start(config: config, watching: watching) }
        } else {
            crawlers[id] = Crawler(root: id, config: config, watching: watching, state: state, watcher: source,
                                   moves: moves, sequence: sequence)
        }
    }

    func stopCrawling(_ id: Int32) {
        perform(id) { $0.stop() }
        source.unwatch(root: id)
    }

    func removeCrawler(_ id: Int32) {
        stopCrawling(id)
        crawlers[id] = nil
        // Work still running on its lane ends on its own; its outcome is dropped.
        lanes[id] = nil
        deferred[id] = nil
    }

    func scheduleFullScan(_ id: Int32, reason: String?) {
        perform(id) { $0.scheduleFullScan(reason: reason) }
    }

    func stopWatching(_ id: Int32) {
        source.unwatch(root: id)
        perform(id) { $0.watching = false }
    }

    func forgetPendingMoves() {
        for id in crawlers.keys { perform(id) { $0.forgetPendingMoves() } }
    }

    func restartInotify() -> Result<Int, SystemError> { source.restart() }
}
