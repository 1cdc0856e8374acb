// SPDX-License-Identifier: GPL-2.0-or-later
import CSystemd
import CuratorCore
import CuratorSystem
import Glibc

/// systemd's watchdog (`WatchdogSec=`): a WATCHDOG=1 every half interval, sent
/// from the main loop and only on evidence that the daemon works. Each ping
/// needs a fresh round trip through the state lock, and an answer from the
/// watcher thread to the probe posted at the previous ping. A hung lock holds
/// the main loop; a hung watcher leaves the probe unanswered; either way the
/// pings stop and systemd restarts us.
struct Watchdog {
    /// Half of WATCHDOG_USEC, in nanoseconds.
    let period: UInt64
    private var due: UInt64
    private var probe: OneShotSignal?
    private var lateSince: UInt64?

    /// The watchdog systemd asked for, or nil (not under systemd, or no WatchdogSec=).
    static func fromEnvironment() -> Watchdog? {
        var usec: UInt64 = 0
        // 0: keep WATCHDOG_USEC in the environment; sd_watchdog_enabled also checks WATCHDOG_PID.
        let rc = sd_watchdog_enabled(0, &usec)
        if rc < 0 {
            log.warning("ignoring a malformed WATCHDOG_USEC: \(Errno(-rc))")
            return nil
        }
        guard rc > 0, usec > 0 else { return nil }
        return Watchdog(intervalMicroseconds: usec)
    }

    init(intervalMicroseconds usec: UInt64) {
        period = max(usec * 1000 / 2, 1_000_000)
        due = MonotonicClock.nanoseconds()
    }

    /// Posts the first probe, so that the first ping has evidence to go on.
    mutating func start(_ curator: Curator) {
        probe = curator.startLivenessProbe()
        due = MonotonicClock.nanoseconds() + period
    }

    /// How long the main loop may sleep before it must come back here.
    func nanosecondsUntilDue(now: UInt64) -> UInt64 {
        // Late: look again soon, so a slow (not hung) watcher costs a short delay only.
        due > now ? due - now : min(period / 4, 100_000_000)
    }

    /// Pings systemd when a ping is due and the watcher has answered.
    mutating func service(_ curator: Curator, now: UInt64) {
        guard now >= due else { return }
        if let probe, !probe.isSignalled {
            if lateSince == nil {
                lateSince = now
                log.warning("watchdog: the watcher thread has not answered for \((now - due + period) / 1_000_000) ms; holding the ping")
            }
            return
        }
        if let since = lateSince {
            log.notice("watchdog: the watcher thread answered after \((now - since) / 1_000_000) ms more")
            lateSince = nil
        }
        // The lock round trip happens here, before the ping: stuck here, no ping.
        probe = curator.startLivenessProbe()
        SystemdNotifier.watchdog()
        due = now + period
    }
}
