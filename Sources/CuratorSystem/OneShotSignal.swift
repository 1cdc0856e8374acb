// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Synchronization

/// Something that happens once (a thread answered, a thread exited), waited for
/// with a deadline from any thread.
public final class OneShotSignal: Sendable {
    private let condition = NSCondition()
    private let fired = Atomic<Bool>(false)

    public init() {}

    public func signal() {
        condition.lock()
        fired.store(true, ordering: .releasing)
        condition.broadcast()
        condition.unlock()
    }

    public var isSignalled: Bool { fired.load(ordering: .acquiring) }

    /// True once signalled; false when `seconds` pass first.
    public func wait(seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while !fired.load(ordering: .acquiring) {
            if !condition.wait(until: deadline) { return fired.load(ordering: .acquiring) }
        }
        return true
    }
}
