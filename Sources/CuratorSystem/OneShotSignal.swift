// SPDX-License-Identifier: GPL-2.0-or-later

/// Something that happens once (a thread answered, a cookie came through), waited
/// for with a deadline from any thread.
public final class OneShotSignal: Sendable {
    private let fired = Monitor(false)

    public init() {}

    public func signal() {
        fired.withLock { locked in
            locked.state = true
            locked.broadcast()
        }
    }

    public var isSignalled: Bool { fired.withLock { $0.state } }

    /// True once signalled; false when `seconds` pass first.
    public func wait(seconds: Double) -> Bool {
        let deadline = Deadline.after(seconds: seconds)
        return fired.withLock { locked in locked.wait(until: deadline) { $0 } }
    }
}
