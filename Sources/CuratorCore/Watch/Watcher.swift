// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials
import Glibc

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
    // @unchecked: `crawlers`, `cookies` and `stopping` (and the supervisor) are
    // touched only by the watcher thread (`run`); the rest is Sendable.
    let state: any WatcherStateLock
    let inbox: WatcherInbox
    let report: WatcherReport
    let outgoing: OutgoingMoves
    let source: InotifySource
    private var crawlers: [Int32: Crawler] = [:]
    private lazy var supervisor = RootSupervisor(state: state, probe: SystemRootProbe(), control: self,
                                                 staleEntryLimit: staleEntryLimit)
    private var cookies = CookieGate()
    private let sequence = WorkSequence()
    private var stopping = false
    private let staleEntryLimit: Int
    /// Fired when the thread leaves its loop, so that shutdown can wait for the
    /// scan step in progress to finish before the index is closed.
    private let exited = OneShotSignal()

    /// Hints taken at a time.
    static let hintsPerTake = 4096
    /// How long the thread applies hints before it serves commands and scans again.
    static let hintBudgetNs: UInt64 = 50_000_000
    static let defaultStaleEntryLimit = 10_000
    /// Lowers the compaction bound, for tests that churn directories.
    static let staleEntryLimitVariable = "CURATORD_STALE_WATCH_LIMIT"

    /// `tools` is nil when inotify could not be initialised: every root is then polled.
    public init(curator: Curator, tools: InotifyToolsHandle?) {
        state = curator
        inbox = curator.inbox
        report = curator.watcherReport
        outgoing = curator.outgoing
        let inbox = curator.inbox
        source = InotifySource(tools: tools?.tools, hints: PendingHints(wake: { inbox.wake() }), report: curator.watcherReport,
                               outgoing: curator.outgoing)
        let limit = ProcessInfo.processInfo.environment[Self.staleEntryLimitVariable].flatMap { Int($0) }
        staleEntryLimit = max(limit ?? Self.defaultStaleEntryLimit, 1)
    }

    /// Starts the threads.
    public func start() throws(SystemError) {
        try source.start()
        try SystemThread.detach(name: "curatord-watch", stackSize: 1 << 20) { [self] in run() }
    }

    /// Asks the thread to stop after the step in progress and waits for it, up
    /// to `seconds`. False when it did not stop in time.
    @discardableResult
    public func stop(waitingUpTo seconds: Double) -> Bool {
        inbox.post(.stop)
        return exited.wait(seconds: seconds)
    }

    private func run() {
        supervisor.startAll(now: MonotonicClock.nanoseconds())
        while !stopping {
            // Selections that photos left during the last burst are saved and
            // announced once, here, not once per photo.
            state.withUpdates { $0.flushSelections() }
            for command in inbox.takeCommands() { handle(command) }
            if stopping { break }
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
        exited.signal()
    }

    private func handle(_ command: WatcherCommand) {
        switch command {
        case .stop:
            stopping = true
        case .rescan(let ids):
            for id in ids ?? state.withUpdates({ $0.watchedRoots.map(\.id) }) {
                crawlers[id]?.scheduleFullScan(reason: "requested")
            }
        case .reconfigure:
            supervisor.reconfigure(now: MonotonicClock.nanoseconds())
        case .ping(let probe):
            // Answered by the source once this thread has got here: both turn.
            source.ping(probe)
        case .recheck(let files):
            for (root, entries) in Dictionary(grouping: files, by: \.rootID) { crawlers[root]?.recheck(entries.map(\.path)) }
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
            crawlers[root]?.apply(list)
        }
        for hint in hints {
            switch hint.kind {
            case .cookie(let name):
                for root in waiting.keys { apply(root) }
                cookieArrived(name)
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

    /// The number of the oldest scan or unpaired move of any root.
    private var oldestWork: UInt64? {
        crawlers.values.compactMap(\.oldestOutstandingWork).min()
    }

    private func cookieArrived(_ name: ByteString) {
        if cookies.arrived(name, sequence: sequence.next(), oldestWork: oldestWork) { inbox.cookieSeen(name) }
    }

    private func releaseCookies() {
        guard !cookies.isEmpty else { return }
        for name in cookies.release(oldestWork: oldestWork) { inbox.cookieSeen(name) }
    }

    // MARK: scans

    /// The crawler whose scan was queued first.
    private func nextScan() -> Crawler? {
        var next: (crawler: Crawler, sequence: UInt64)?
        for crawler in crawlers.values {
            guard let sequence = crawler.nextScan else { continue }
            if next == nil || sequence < next?.sequence ?? .max { next = (crawler, sequence) }
        }
        return next?.crawler
    }

    private func runScanStep(of crawler: Crawler) {
        switch crawler.runScanStep() {
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
            switch crawler.finishFullScan() {
            case .finished(let listed):
                // Cookies whose events were lost (an overflow, a restarted inotify) are
                // answered here: the scan read the whole root after they were made.
                for name in listed { cookieArrived(name) }
            case .rootChanged:
                supervisor.checkLiveness(only: crawler.root, now: MonotonicClock.nanoseconds())
            case .superseded:
                break
            }
        }
    }

    // MARK: timers

    private func runTimers() {
        let now = MonotonicClock.nanoseconds()
        supervisor.tick(now: now)
        for crawler in crawlers.values { crawler.settle(now: now) }
    }

    private func millisecondsToNextDeadline() -> Int32 {
        let now = MonotonicClock.nanoseconds()
        var deadline = supervisor.nextDeadline(now: now)
        for crawler in crawlers.values {
            if let due = crawler.nextDeadline(now: now) { deadline = min(deadline, due) }
        }
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

    func startCrawling(_ id: Int32, config: RootConfig, watching: Bool) {
        if let crawler = crawlers[id] {
            crawler.start(config: config, watching: watching)
        } else {
            crawlers[id] = Crawler(root: id, config: config, watching: watching, state: state, watcher: source,
                                   outgoing: outgoing, sequence: sequence)
        }
    }

    func stopCrawling(_ id: Int32) {
        crawlers[id]?.stop()
        source.unwatch(root: id)
    }

    func removeCrawler(_ id: Int32) {
        stopCrawling(id)
        crawlers[id] = nil
    }

    func scheduleFullScan(_ id: Int32, reason: String?) {
        crawlers[id]?.scheduleFullScan(reason: reason)
    }

    func stopWatching(_ id: Int32) {
        source.unwatch(root: id)
        crawlers[id]?.watching = false
    }

    func forgetPendingMoves() {
        for crawler in crawlers.values { crawler.forgetPendingMoves() }
    }

    func restartInotify() -> Result<Int, SystemError> { source.restart() }
}
