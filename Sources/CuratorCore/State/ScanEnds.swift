// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Rung whenever a root may have stopped scanning (its scan ended or was abandoned,
/// it went offline, the roots were installed again): `sync` waits on it for the
/// scans of polled roots instead of looking at the state again and again. It is a
/// count, so that an end rung between a waiter's look at the state and its wait is
/// not missed: the waiter names the count it read before looking.
final class ScanEnds: Sendable {
    private let count = Monitor<UInt64>(0)

    /// Read before looking at the state; handed to `wait(past:until:)` after.
    var current: UInt64 { count.withLock { $0.state } }

    func ring() {
        count.withLock { locked in
            locked.state &+= 1
            locked.broadcast()
        }
    }

    /// Waits until it is rung after `seen`, or `deadline` passes: false when it passed.
    func wait(past seen: UInt64, until deadline: Deadline) -> Bool {
        count.withLock { locked in locked.wait(until: deadline) { $0 != seen } }
    }
}
