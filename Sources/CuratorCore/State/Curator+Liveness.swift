// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

extension Curator {
    /// Starts a liveness check for the systemd watchdog: takes the state lock (so
    /// it must be free), then posts a ping that the watcher thread answers from
    /// its loop. The returned signal fires when it does. A hung lock keeps the
    /// caller here, and a hung watcher never answers: either way the watchdog
    /// pings stop and systemd restarts the daemon, which a bare timer thread
    /// sending pings would never let happen.
    public func startLivenessProbe() -> OneShotSignal {
        withState { _ in }
        let answer = OneShotSignal()
        inbox.post(.ping(answer))
        return answer
    }
}
