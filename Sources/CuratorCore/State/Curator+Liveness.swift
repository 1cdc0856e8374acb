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

    /// Waits (up to `seconds`) until the watcher has taken every command posted to it
    /// before this call: it takes them in order, and answers the ping after them.
    /// False if it did not in that time (it still will).
    func watcherCaughtUp(within seconds: Double) -> Bool {
        let reached = OneShotSignal()
        inbox.post(.ping(reached))
        return reached.wait(seconds: seconds)
    }
}
