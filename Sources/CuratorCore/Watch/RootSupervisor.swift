// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Glibc

/// Keeps each root's watching in line with the world: whether its folder is there
/// (offline when it goes, never empty; reconciled when it comes back, rescanned when
/// its file system is mounted anew; offline while another folder stands at its
/// path, which is never crawled), how it is watched (inotify, polls
/// for shares, polling when watches run out or inotify is lost), what a reload
/// changes (roots added, removed, changed), and when libinotifytools is started
/// afresh to shed stale entries. It decides; the crawlers and the inotify source
/// do the work (`RootControl`). Runs on the watcher thread.
final class RootSupervisor {
    private let state: any WatcherStateLock
    private let probe: any RootProbe
    private unowned let control: any RootControl
    /// Past this many stale library entries, libinotifytools is started afresh.
    let staleEntryLimit: Int
    /// The settings each root was started with, so that a reload restarts only the roots that changed.
    private(set) var startedConfigs: [Int32: RootConfig] = [:]
    /// When each polled root is scanned next.
    private(set) var nextPoll: [Int32: UInt64] = [:]
    private var nextLivenessCheck: UInt64 = 0
    /// Roots on a share: their presence is asked on a thread of their own.
    private(set) var remoteRoots = Set<Int32>()
    private var probes: [Int32: RemoteProbe] = [:]

    static let livenessIntervalNs: UInt64 = 1_000_000_000
    static let replaced = "another folder stands at its path (renamed away and replaced?); restart curatord to take it"

    /// A share whose presence check has not answered for this long is unresponsive.
    static let unresponsiveAfterNs: UInt64 = 3_000_000_000

    init(state: any WatcherStateLock, probe: any RootProbe, control: any RootControl, staleEntryLimit: Int) {
        self.state = state
        self.probe = probe
        self.control = control
        self.staleEntryLimit = max(staleEntryLimit, 1)
    }

    // MARK: roots

    func startAll(now: UInt64) {
        for root in state.withUpdates({ $0.watchedRoots }) { start(root.id, now: now) }
    }

    /// Decides how a root is watched and has it scanned. A root on a share is
    /// asked on its own thread: one whose server does not answer starts when it does.
    func start(_ id: Int32, now: UInt64) {
        guard let root = state.withUpdates({ $0.watchedRoot(id) }) else { return }
        let config = root.config
        startedConfigs[id] = config
        let remote = probe.remoteKind(of: config.path)
        if remote != nil { remoteRoots.insert(id) } else { remoteRoots.remove(id) }
        let presence: RootPresence
        if remote != nil {
            guard let answer = askRemote(id, path: config.path, recordedDevice: root.device, now: now) else {
                starting.insert(id)
                return
            }
            presence = answer
        } else {
            presence = probe.presence(of: config.path, recordedDevice: root.device)
        }
        starting.remove(id)
        let directory: FileStatus
        switch presence {
        case .present(let status): directory = status
        case .absent(let reason):
            setOffline(id, reason: reason)
            return
        }
        let watching = RootWatching.decide(method: config.watch, inotifyAvailable: control.inotifyAvailable, remote: remote)
        state.withUpdates { $0.rootStarted(id, directory: directory, watching: watching) }
        nextPoll[id] = watching.polls ? now + Self.interval(config) : nil
        control.startCrawling(id, config: config, watching: watching.usesInotify, remote: remote != nil)
        control.scheduleFullScan(id, reason: nil)
    }

    /// Remote roots whose start waits for their server's first answer.
    private var starting = Set<Int32>()

    /// Asks a remote root's presence on its own thread: the answer if it comes within
    /// a moment (now, or from a check asked earlier), else nil, and the check goes on.
    /// One that has not answered for `unresponsiveAfterNs` makes the root
    /// unresponsive; the first answer after that makes it responsive again.
    private func askRemote(_ id: Int32, path: ByteString, recordedDevice: UInt64, now: UInt64) -> RootPresence? {
        let pending: RemoteProbe
        if let running = probes[id] {
            pending = running
        } else {
            let probe = self.probe
            guard let started = RemoteProbe.start(root: id, { probe.presence(of: path, recordedDevice: recordedDevice) }) else {
                return nil
            }
            pending = started
            probes[id] = started
        }
        guard let answer = pending.answer(waitingUpTo: RootLane.patienceSeconds) else {
            if now >= pending.startedNs + Self.unresponsiveAfterNs && !pending.reported {
                pending.reported = true
                let name = state.withUpdates { updates in
                    updates.rootUnresponsive(id, since: pending.startedWall)
                    return updates.rootName(id)
                }
                log.warning("root \(name): its file system has not answered for \((now - pending.startedNs) / 1_000_000_000) s; "
                    + "its photos stay indexed, and it is left alone until it answers")
            }
            return nil
        }
        probes[id] = nil
        let wasUnresponsive = state.withUpdates { updates in
            let was = updates.watchedRoot(id)?.unresponsiveSince != nil
            if was { updates.rootResponsive(id) }
            return was
        }
        if wasUnresponsive {
            log.notice("root \(state.withUpdates { $0.rootName(id) }): its file system answers again")
            control.scheduleFullScan(id, reason: "its file system answers again")
        }
        return answer
    }

    /// The root went away: its watches and scans go, its photos stay (flagged offline).
    func setOffline(_ id: Int32, reason: String) {
        control.stopCrawling(id)
        let (changed, name) = state.withUpdates { ($0.rootWentOffline(id, reason: reason), $0.rootName(id)) }
        if changed { log.warning("root \(name) is offline: \(reason); its photos stay indexed") }
    }

    /// Checks that each root (or just `only`) is still the folder it was: unmounts
    /// and deletions make it offline (never empty); a root coming back is reconciled.
    func checkLiveness(only: Int32? = nil, now: UInt64) {
        for root in state.withUpdates({ $0.watchedRoots }) where only == nil || root.id == only {
            if starting.contains(root.id) {
                start(root.id, now: now)
                continue
            }
            let presence: RootPresence
            if remoteRoots.contains(root.id) {
                guard let answer = askRemote(root.id, path: root.config.path, recordedDevice: root.device, now: now) else { continue }
                presence = answer
            } else {
                presence = probe.presence(of: root.config.path, recordedDevice: root.device)
            }
            switch presence {
            case .absent(let reason):
                if root.online { setOffline(root.id, reason: reason) }
            case .present(let status):
                if root.inode != 0 && status.inode != root.inode {
                    // Another folder at the path: renamed away and replaced (by a symlink to a
                    // folder its users may not read, say), or deleted and made again. Never
                    // crawled: offline until the folder it was is back, or a restart takes the new one.
                    if root.online { setOffline(root.id, reason: Self.replaced) }
                } else if root.online && root.inode != 0 && status.device != root.device {
                    // Its file system mounted anew: the same folder, on a new device number.
                    log.notice("root \(root.config.name) was mounted anew; rescanning")
                    control.stopCrawling(root.id)
                    start(root.id, now: now)
                } else if !root.online {
                    log.notice("root \(root.config.name) is back; reconciling")
                    state.withUpdates { $0.rootCameBack(root.id) }
                    start(root.id, now: now)
                }
            }
        }
    }

    /// A reload: roots no longer configured are dropped (watches, scans, polls),
    /// new ones started, and those whose settings changed started over, so a new
    /// path, watch method or exclusion list takes effect without a restart.
    func reconfigure(now: UInt64) {
        let roots = state.withUpdates { $0.watchedRoots }
        let current = Dictionary(roots.map { ($0.id, $0.config) }, uniquingKeysWith: { first, _ in first })
        for id in Set(startedConfigs.keys).union(control.crawledRoots) where current[id] == nil { stop(id) }
        for root in roots where startedConfigs[root.id] != root.config {
            if let old = startedConfigs[root.id] {
                stop(root.id)
                if old.path != root.config.path {
                    // Another folder: the device and inode recorded for the old one would make it look unmounted.
                    state.withUpdates { $0.forgetRootDirectory(root.id) }
                }
            }
            start(root.id, now: now)
        }
    }

    /// Forgets everything held for a root.
    func stop(_ id: Int32) {
        control.removeCrawler(id)
        nextPoll[id] = nil
        startedConfigs[id] = nil
        starting.remove(id)
        remoteRoots.remove(id)
        probes[id] = nil
    }

    /// Out of inotify watches (ENOSPC): this root is polled instead, and says so.
    func fallBackToPolling(_ id: Int32, now: UInt64) {
        guard let root = state.withUpdates({ $0.watchedRoot(id) }) else { return }
        control.stopWatching(id)
        let note = "inotify watch limit reached (fs.inotify.max_user_watches = \(probe.maxUserWatches)); "
            + "polling every \(Int(root.config.pollInterval)) s"
        state.withUpdates { $0.rootPolled(id, note: note) }
        nextPoll[id] = now + Self.interval(root.config)
        log.warning("root \(root.config.name): \(note)")
    }

    /// Events were lost (the kernel queue overflowed, or too many waited): every
    /// inotify root is rescanned, and the index converges to what is on disk.
    func eventsLost(reason: String) {
        let ids = state.withUpdates { $0.eventsLost(reason: reason) }
        log.warning("\(reason): rescanning \(ids.count) root(s)")
        control.forgetPendingMoves()
        for id in ids { control.scheduleFullScan(id, reason: reason) }
    }

    // MARK: timers

    /// Liveness checks (every second) and the polls that are due.
    func tick(now: UInt64) {
        if now >= nextLivenessCheck {
            nextLivenessCheck = now + Self.livenessIntervalNs
            checkLiveness(now: now)
        }
        for (id, at) in nextPoll where now >= at {
            let root = state.withUpdates { $0.watchedRoot(id) }
            nextPoll[id] = now + (root.map { Self.interval($0.config) } ?? 300_000_000_000)
            // An unresponsive share is not polled: its answer schedules a scan.
            if root?.online == true && root?.unresponsiveSince == nil { control.scheduleFullScan(id, reason: nil) }
        }
    }

    func nextDeadline(now: UInt64) -> UInt64 {
        var deadline = max(nextLivenessCheck, now)
        for (_, at) in nextPoll { deadline = min(deadline, at) }
        return deadline
    }

    // MARK: compaction

    /// libinotifytools never forgets the entry of a watch the kernel dropped
    /// (IN_IGNORED), so mkdir/rmdir churn would grow its memory without bound. Past
    /// `staleEntryLimit` such entries it is started afresh and every inotify root is
    /// rescanned (which watches each folder again). True when that happened.
    @discardableResult
    func compactIfNeeded(now: UInt64) -> Bool {
        guard control.inotifyAvailable, control.staleWatchEntries >= staleEntryLimit else { return false }
        let roots = state.withUpdates { $0.watchedRoots.filter { $0.usesInotify && $0.online }.map(\.id) }
        switch control.restartInotify() {
        case .success(let stale):
            log.info("restarted inotify to shed \(stale) stale watch entries; rescanning \(roots.count) root(s)")
            for id in roots { control.scheduleFullScan(id, reason: "inotify restarted to shed stale watch entries") }
        case .failure(let error):
            log.error("cannot restart inotify (\(error)); every root is polled from now on")
            let all = state.withUpdates { updates in
                updates.watchedRoots.map { root in
                    updates.rootPolled(root.id, note: "inotify could not be restarted (\(error)); polling")
                    return root
                }
            }
            for root in all {
                control.stopWatching(root.id)
                nextPoll[root.id] = now + Self.interval(root.config)
                control.scheduleFullScan(root.id, reason: "inotify lost")
            }
        }
        return true
    }

    private static func interval(_ config: RootConfig) -> UInt64 {
        UInt64(max(config.pollInterval, 0) * 1e9)
    }
}

/// What the supervisor has the watcher's other rooms do (implemented by `Watcher`).
protocol RootControl: AnyObject {
    var inotifyAvailable: Bool { get }
    var staleWatchEntries: Int { get }
    /// The roots that have a crawler, started or stopped.
    var crawledRoots: [Int32] { get }
    /// Crawls the root (again) with these settings.
    /// `remote`: the root is on a share, and its crawler works on a thread of its own.
    func startCrawling(_ id: Int32, config: RootConfig, watching: Bool, remote: Bool)
    /// Drops the root's watches, scans and waiting work (offline, or about to start again).
    func stopCrawling(_ id: Int32)
    /// Forgets the root altogether (no longer configured, or configured anew).
    func removeCrawler(_ id: Int32)
    func scheduleFullScan(_ id: Int32, reason: String?)
    /// The root is polled from now on: its watches go.
    func stopWatching(_ id: Int32)
    /// Events were lost: rename halves still waiting for their partner are moot.
    func forgetPendingMoves()
    /// Starts libinotifytools afresh (see `InotifySource.restart`).
    func restartInotify() -> Result<Int, SystemError>
}

/// What the supervisor asks of the file system, so that tests can stand in for it.
protocol RootProbe: Sendable {
    func presence(of path: ByteString, recordedDevice: UInt64) -> RootPresence
    /// The network or FUSE file system `path` is on, nil for a local one.
    func remoteKind(of path: ByteString) -> String?
    /// fs.inotify.max_user_watches, for the note of a root that ran out.
    var maxUserWatches: Int { get }
}

struct SystemRootProbe: RootProbe {
    func presence(of path: ByteString, recordedDevice: UInt64) -> RootPresence {
        RootPresence.check(path, recordedDevice: recordedDevice)
    }

    func remoteKind(of path: ByteString) -> String? { RemoteFilesystem.kind(of: path) }

    var maxUserWatches: Int { InotifyTools.maxUserWatches }
}

/// A remote root's presence check, running on a thread of its own (a one-thread
/// pool per check: a check that hangs holds that thread alone, until the server
/// answers). Touched by the watcher thread only.
final class RemoteProbe {
    let startedNs: UInt64
    /// Wall-clock seconds when it was asked, for the status's "unresponsive since".
    let startedWall: Int64
    /// The root was said to be unresponsive because of this check.
    var reported = false
    private let handle: JobHandle<RootPresence, Never>
    private let pool: WorkerPool

    private init(handle: JobHandle<RootPresence, Never>, pool: WorkerPool) {
        self.handle = handle
        self.pool = pool
        startedNs = MonotonicClock.nanoseconds()
        startedWall = Int64(time(nil))
    }

    static func start(root: Int32, _ check: @escaping @Sendable () -> RootPresence) -> RemoteProbe? {
        let pool = WorkerPool(name: "curatord-probe\(root)", threads: 1, stackSize: 256 << 10, keepIdleSeconds: 0)
        do {
            return RemoteProbe(handle: try pool.submit(whenFull: .refuse, check), pool: pool)
        } catch {
            log.error("cannot check root \(root) on a thread of its own: \(error)")
            return nil
        }
    }

    func answer(waitingUpTo seconds: Double) -> RootPresence? {
        if case .returned(let presence)? = handle.wait(until: .after(seconds: seconds)) { return presence }
        return nil
    }
}
