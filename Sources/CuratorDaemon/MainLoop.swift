// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCore
import CuratorSystem
import Glibc
import Synchronization

/// The main thread once everything runs: waits for SIGTERM, SIGINT and SIGHUP
/// with sigtimedwait (they are blocked in every thread, so none is lost or
/// delivered elsewhere), reloads on SIGHUP, feeds the watchdog, and keeps
/// systemd's STATUS= current. Returns when the daemon must stop.
struct MainLoop {
    let curator: Curator
    let reloader: ConfigReloader
    var watchdog: Watchdog?
    private var lastStatus = ""
    /// When `recycle_keep_days` is applied next: a minute after the start (tests:
    /// `CURATORD_EXPIRY_FIRST_SECONDS`), then hourly.
    private var nextExpiry = MonotonicClock.nanoseconds()
        + UInt64(getenv("CURATORD_EXPIRY_FIRST_SECONDS").flatMap { UInt32(String(cString: $0)) } ?? 60) * 1_000_000_000
    /// One round of `recycle_keep_days` at a time: a round due while one runs is skipped.
    private let expiry = WorkerPool(name: "curatord-expire", threads: 1, stackSize: 512 << 10, keepIdleSeconds: 0)

    static let expiryPeriodNs: UInt64 = 3_600 * 1_000_000_000

    /// How often STATUS= is refreshed (scan progress, counts).
    static let statusPeriodNs: UInt64 = 1_000_000_000

    init(curator: Curator, reloader: ConfigReloader, watchdog: Watchdog?) {
        self.curator = curator
        self.reloader = reloader
        self.watchdog = watchdog
    }

    /// Runs until SIGTERM or SIGINT; returns the signal.
    mutating func run() -> Int32 {
        var set = sigset_t()
        sigemptyset(&set)
        for s in Daemon.handledSignals { sigaddset(&set, s) }
        watchdog?.start(curator)
        while true {
            let now = MonotonicClock.nanoseconds()
            let wait = min(Self.statusPeriodNs, watchdog?.nanosecondsUntilDue(now: now) ?? .max)
            var timeout = timespec(tv_sec: Int(wait / 1_000_000_000), tv_nsec: Int(wait % 1_000_000_000))
            let signal = sigtimedwait(&set, nil, &timeout)
            if signal == SIGTERM || signal == SIGINT { return signal }
            if signal == SIGHUP { reloader.reload(askedBy: "SIGHUP") }
            watchdog?.service(curator, now: MonotonicClock.nanoseconds())
            publishStatus()
            expireTrashIfDue()
        }
    }

    /// Empties what `recycle_keep_days` says is due, on a thread of its own (it may
    /// take a while, and the watchdog must be fed), one round at a time.
    private mutating func expireTrashIfDue() {
        let now = MonotonicClock.nanoseconds()
        guard now >= nextExpiry else { return }
        nextExpiry = now + Self.expiryPeriodNs
        guard curator.configuration.roots.contains(where: { $0.recycleKeepDays != nil }) else { return }
        let curator = self.curator
        do throws(WorkerError) {
            try expiry.submit(whenFull: .refuse) { curator.emptyExpiredTrash() }
        } catch {
            if case .full = error { return }  // the last round still runs
            log.error("recycle_keep_days: \(error)")
        }
    }

    private mutating func publishStatus() {
        let status = curator.statusLine()
        if status != lastStatus {
            SystemdNotifier.status(status)
            lastStatus = status
        }
    }
}
