// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCore
import CuratorSystem
import Glibc

/// The main thread once everything runs: waits for SIGTERM, SIGINT and SIGHUP
/// with sigtimedwait (they are blocked in every thread, so none is lost or
/// delivered elsewhere), reloads on SIGHUP, feeds the watchdog, and keeps
/// systemd's STATUS= current. Returns when the daemon must stop.
struct MainLoop {
    let curator: Curator
    let reloader: ConfigReloader
    var watchdog: Watchdog?
    private var lastStatus = ""

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
