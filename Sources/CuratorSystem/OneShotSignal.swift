// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// Something that happens once (a thread answered, a thread exited), waited for
/// with a deadline from any thread.
public final class OneShotSignal: Sendable {
    private let condition = Condition()
    private let fired = Atomic<Bool>(false)

    public init() {}

    public func signal() {
        condition.withLock { _ in fired.store(true, ordering: .releasing) }
        condition.broadcast()
    }

    public var isSignalled: Bool { fired.load(ordering: .acquiring) }

    /// True once signalled; false when `seconds` pass first.
    public func wait(seconds: Double) -> Bool {
        let deadline = MonotonicClock.nanoseconds() + UInt64(max(seconds, 0) * 1e9)
        return condition.withLock { waiting in
            while !fired.load(ordering: .acquiring) {
                let now = MonotonicClock.nanoseconds()
                guard now < deadline else { return false }
                waiting.wait(seconds: Double(deadline - now) / 1e9)
            }
            return true
        }
    }
}
