// SPDX-License-Identifier: GPL-2.0-or-later
import CInotifyTools
import CuratorProtocol
import CuratorSystem
import FoundationEssentials
import Glibc

/// The watcher thread: it alone calls libinotifytools, walks the roots, and feeds
/// what it sees into `CuratorState`. inotify events are hints: each one names a
/// path that is then stat'ed, and the disk is the authority.
public final class Watcher: @unchecked Sendable {
    // @unchecked: every stored property below is touched only by the watcher
    // thread (`run`), except `curator`, `inbox` and `report`, which are Sendable.
    let curator: Curator
    let inbox: WatcherInbox
    let report: WatcherReport
    /// Nil when inotify could not be initialised (or re-initialised): every root is then polled.
    var tools: InotifyTools?
    var table = WatchTable()
    /// Scans waiting to run, oldest first.
    var scans: [ScanJob] = []
    /// Events read while a scan was running, handled when it ends.
    var backlog: [InotifyEvent] = []
    var backlogOverflowed = false
    /// MOVED_FROM halves waiting for their MOVED_TO, by cookie.
    var pendingMoves: [UInt32: PendingMove] = [:]
    /// Files created but not yet closed after writing.
    var pendingCreates: [WatchTable.Entry: PendingCreate] = [:]
    /// Sync cookies seen while earlier work (a scan, an unpaired move) was still
    /// outstanding: answered once that work is done.
    var deferredCookies: [(name: ByteString, sequence: UInt64)] = []
    /// Orders work items (scans, pending moves) against sync cookies.
    var sequence: UInt64 = 0
    var nextPoll: [Int32: UInt64] = [:]
    var nextLivenessCheck: UInt64 = 0
    /// The settings each root was started with, so that a reload restarts only the roots that changed.
    var startedConfigs: [Int32: RootConfig] = [:]
    var stopping = false
    /// Fired when the thread leaves its loop, so that shutdown can wait for the
    /// scan step in progress to finish before the index is closed.
    let exited = OneShotSignal()
    /// Past this many stale library entries, libinotifytools is started afresh.
    let staleEntryLimit: Int

    static let maxBacklog = 200_000
    /// A created file that sees no close-after-write is indexed once its size and
    /// mtime have stayed the same this long.
    static let createSettleNs: UInt64 = 2_000_000_000
    /// How long a MOVED_FROM waits for its MOVED_TO before it counts as a move out.
    static let moveSettleNs: UInt64 = 2_000_000
    static let livenessIntervalNs: UInt64 = 1_000_000_000
    static let defaultStaleEntryLimit = 10_000
    /// Lowers the compaction bound, for tests that churn directories.
    static let staleEntryLimitVariable = "CURATORD_STALE_WATCH_LIMIT"

    struct PendingMove {
        var root: Int32
        var path: ByteString
        var isDirectory: Bool
        var seenAt: UInt64
        var sequence: UInt64
    }

    struct PendingCreate {
        /// When size or mtime last changed (or the create was seen).
        var quietSince: UInt64
        var size: Int64
        var mtimeNs: Int64
    }

    /// `tools` is nil when inotify could not be initialised: every root is then polled.
    public init(curator: Curator, tools: InotifyToolsHandle?) {
        self.curator = curator
        self.inbox = curator.inbox
        self.report = curator.watcherReport
        self.tools = tools?.tools
        let limit = ProcessInfo.processInfo.environment[Self.staleEntryLimitVariable].flatMap { Int($0) }
        staleEntryLimit = max(limit ?? Self.defaultStaleEntryLimit, 1)
    }

    /// Starts the thread.
    public func start() throws(SystemError) {
        try SystemThread.detach(name: "curatord-watch", stackSize: 1 << 20) { [self] in run() }
    }

    /// Asks the thread to stop after the step in progress and waits for it, up
    /// to `seconds`. False when it did not stop in time.
    @discardableResult
    public func stop(waitingUpTo seconds: Double) -> Bool {
        inbox.post(.stop)
        return exited.wait(seconds: seconds)
    }

    func run() {
        startAllRoots()
        while !stopping {
            // Selections that photos left during the last burst are saved and
            // announced once, here, not once per photo.
            curator.withState { $0.flushSelections() }
            for command in inbox.takeCommands() { handle(command) }
            if stopping { break }
            releaseDeferredCookies()
            if let tools, tools.staleEntries >= staleEntryLimit {
                compact()
                continue
            }
            if !scans.isEmpty {
                runScanStep()
                runTimers()
                continue
            }
            if !backlog.isEmpty {
                let events = backlog
                backlog.removeAll()
                process(events)
                continue
            }
            waitForEvents(timeoutMs: millisecondsToNextDeadline())
            runTimers()
        }
        inbox.releaseAllCookies()
        exited.signal()
    }

    func handle(_ command: WatcherCommand) {
        switch command {
        case .stop:
            stopping = true
        case .rescan(let ids):
            for id in ids ?? curator.withState({ $0.rootOrder }) { scheduleFullScan(root: id, reason: "requested") }
        case .reconfigure:
            reconfigure()
        case .ping(let probe):
            probe.signal()
        case .recheck(let files):
            for file in files { fileChanged(root: file.rootID, path: file.path) }
        }
    }

    func nextSequence() -> UInt64 {
        sequence += 1
        return sequence
    }

    // MARK: roots

    func startAllRoots() {
        let ids = curator.withState { $0.rootOrder }
        for id in ids { startRoot(id) }
    }

    /// Decides how a root is watched and schedules its first scan.
    func startRoot(_ id: Int32) {
        let now = MonotonicClock.nanoseconds()
        let (config, recordedDevice) = curator.withState { state in (state.roots[id]?.config, state.roots[id]?.device ?? 0) }
        guard let config else { return }
        startedConfigs[id] = config
        let status: FileStatus
        switch RootPresence.check(config.path, recordedDevice: recordedDevice) {
        case .present(let s): status = s
        case .absent(let reason):
            setOffline(id, reason: reason)
            return
        }
        let remote = RemoteFilesystem.kind(of: config.path)
        let inotify = tools != nil
        curator.withState { state in
            guard var r = state.roots[id] else { return }
            r.online = true
            r.device = status.device
            r.inode = status.inode
            switch config.watch {
            case .inotify:
                r.usesInotify = inotify
                r.polls = !inotify
            case .poll:
                r.usesInotify = false
                r.polls = true
            case .auto:
                r.usesInotify = inotify
                r.polls = remote != nil || !inotify
            }
            r.note = nil
            if !inotify && config.watch != .poll { r.note = "inotify is unavailable; polling" }
            if let remote, config.watch == .auto { r.note = "on a \(remote) share: inotify misses other hosts' changes, so it is also polled" }
            state.roots[id] = r
            try? state.library.storeForRoots.updateRoot(id: id, path: config.path, device: status.device)
        }
        if curator.withState({ $0.roots[id]?.polls ?? false }) {
            nextPoll[id] = now + UInt64(config.pollInterval * 1e9)
        } else {
            nextPoll[id] = nil
        }
        scheduleFullScan(root: id, reason: nil)
    }

    /// Drops every watch of a root (kept in the index: its photos stay).
    func unwatchRoot(_ id: Int32) {
        for wd in table.removeRoot(id) { tools?.unwatch(wd) }
        pendingCreates = pendingCreates.filter { $0.key.rootID != id }
    }

    func setOffline(_ id: Int32, reason: String) {
        unwatchRoot(id)
        scans.removeAll { $0.root == id }
        let changed = curator.withState { state -> Bool in
            guard var r = state.roots[id] else { return false }
            let was = r.online
            r.online = false
            r.scanning = false
            r.watches = 0
            r.note = reason
            state.roots[id] = r
            state.viewCache.invalidate()
            if was { state.send(Event(event: .offline, root: r.config.name, message: reason), root: id) }
            return was
        }
        if changed {
            let name = curator.withState { $0.rootName(id) }
            log.warning("root \(name) is offline: \(reason); its photos stay indexed")
        }
    }

    /// Checks that each root (or just `only`) is still the folder it was: unmounts
    /// and deletions make it offline (never empty); a root coming back is reconciled.
    func checkLiveness(only: Int32? = nil) {
        let roots = curator.withState { state in state.rootOrder.compactMap { state.roots[$0] } }
        for root in roots where only == nil || root.id == only {
            switch RootPresence.check(root.config.path, recordedDevice: root.device) {
            case .absent(let reason):
                if root.online { setOffline(root.id, reason: reason) }
            case .present(let status):
                if root.online && root.inode != 0 && (status.inode != root.inode || status.device != root.device) {
                    // Deleted and recreated (or remounted): a new directory at the same path.
                    log.notice("root \(root.config.name) was replaced at its path; rescanning")
                    unwatchRoot(root.id)
                    startRoot(root.id)
                } else if !root.online {
                    log.notice("root \(root.config.name) is back; reconciling")
                    curator.withState { state in
                        state.send(Event(event: .online, root: root.config.name), root: root.id)
                        state.requeuePendingCaptures(root: root.id)
                    }
                    startRoot(root.id)
                }
            }
        }
    }

    /// A reload: roots no longer configured are dropped (watches, scans, polls),
    /// new ones started, and those whose settings changed started over, so a new
    /// path, watch method or exclusion list takes effect without a restart.
    func reconfigure() {
        let configs = curator.withState { state in
            state.rootOrder.compactMap { id in state.roots[id].map { (id, $0.config) } }
        }
        let current = Dictionary(configs, uniquingKeysWith: { first, _ in first })
        let running = Set(startedConfigs.keys).union(table.byWD.values.map(\.rootID))
        for id in running where current[id] == nil { stopRoot(id) }
        for (id, config) in configs where startedConfigs[id] != config {
            if let old = startedConfigs[id] {
                stopRoot(id)
                if old.path != config.path {
                    // Another folder: the device and inode recorded for the old one would make it look unmounted.
                    curator.withState { state in
                        state.roots[id]?.device = 0
                        state.roots[id]?.inode = 0
                    }
                }
            }
            startRoot(id)
        }
    }

    /// Forgets everything the watcher holds for a root.
    func stopRoot(_ id: Int32) {
        unwatchRoot(id)
        scans.removeAll { $0.root == id }
        nextPoll[id] = nil
        startedConfigs[id] = nil
    }

    // MARK: timers

    func millisecondsToNextDeadline() -> Int32 {
        let now = MonotonicClock.nanoseconds()
        var deadline = max(nextLivenessCheck, now)
        for (_, at) in nextPoll { deadline = min(deadline, at) }
        if !pendingCreates.isEmpty { deadline = min(deadline, now + 250_000_000) }
        if let oldest = pendingMoves.values.map(\.seenAt).min() { deadline = min(deadline, oldest + Self.moveSettleNs) }
        return Int32(clamping: (deadline > now ? deadline - now : 0) / 1_000_000 + 1)
    }

    func runTimers() {
        let now = MonotonicClock.nanoseconds()
        if now >= nextLivenessCheck {
            nextLivenessCheck = now + Self.livenessIntervalNs
            checkLiveness()
        }
        for (id, at) in nextPoll where now >= at {
            let interval = curator.withState { $0.roots[id]?.config.pollInterval } ?? 300
            nextPoll[id] = now + UInt64(interval * 1e9)
            if curator.withState({ $0.roots[id]?.online ?? false }) { scheduleFullScan(root: id, reason: nil) }
        }
        if now > Self.moveSettleNs { settlePendingMoves(olderThan: now - Self.moveSettleNs) }
        settlePendingCreates(now: now)
    }

    // MARK: reading events

    /// Waits for inotify (or a wake-up) and handles everything readable.
    func waitForEvents(timeoutMs: Int32) {
        // Events left in the library's own buffer do not make the descriptor readable.
        if let tools, tools.mayHoldBufferedEvents {
            process(readAvailableEvents())
            return
        }
        var fds = [pollfd(fd: inbox.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        if let tools { fds.append(pollfd(fd: tools.descriptor, events: Int16(POLLIN), revents: 0)) }
        let n = SystemCalls.poll(&fds, nfds_t(fds.count), timeoutMs)
        if n <= 0 { return }
        if fds[0].revents != 0 { inbox.drainWake() }
        if fds.count > 1 && fds[1].revents != 0 {
            // While a batch moves photos out, their events come by the thousand, each
            // a wake-up of this thread on the cores the batch needs: they are read a
            // few milliseconds' worth at a time instead (other events wait as long).
            if curator.outgoing.isExpecting { usleep(Self.batchCoalesceMicroseconds) }
            process(readAvailableEvents())
        }
    }

    /// How long events gather before they are read while a batch runs.
    static let batchCoalesceMicroseconds: UInt32 = 4000

    /// What the kernel has queued, copied out event by event (a bounded number at
    /// a time; `mayHoldBufferedEvents` says when more is left).
    func readAvailableEvents() -> [InotifyEvent] {
        guard let tools else { return [] }
        var events: [InotifyEvent] = []
        while let event = tools.nextEvent() {
            events.append(event)
            if events.count >= 65536 { break }
        }
        return events
    }

    /// While a scan runs, events are read (so the kernel queue does not overflow)
    /// and kept for afterwards.
    func bufferEvents() {
        guard tools != nil else { return }
        let events = readAvailableEvents()
        // Cookies stay in order with the rest: a sync answers only once everything
        // before its cookie is applied.
        if !backlogOverflowed { backlog.append(contentsOf: events) }
        if backlog.count > Self.maxBacklog {
            // Handled like a kernel queue overflow once the scan step is over.
            backlog.removeAll()
            backlogOverflowed = true
        }
    }
}

/// libinotifytools, initialised first thing in `main` and handed to the watcher.
public final class InotifyToolsHandle: @unchecked Sendable {
    // @unchecked: created on the main thread, then used by the watcher thread only.
    let tools: InotifyTools
    public init() throws(SystemError) { tools = try InotifyTools() }
}
