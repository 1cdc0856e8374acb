// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// The hand-off between the inotify source (which adds) and the watcher thread
/// (which takes): a `HintQueue` behind a mutex held for a copy at a time, so that
/// neither side ever waits on the other's work.
final class PendingHints: Sendable {
    private let queue: Mutex<HintQueue>
    /// Called (on the adding thread) when hints arrive in an empty queue.
    private let wake: @Sendable () -> Void

    init(limit: Int = 200_000, wake: @escaping @Sendable () -> Void) {
        queue = Mutex(HintQueue(limit: limit))
        self.wake = wake
    }

    /// Adds what one read of the kernel queue gave, in order; `lost` first when the
    /// kernel reported an overflow among them (what came before it is moot).
    func add(_ hints: [Hint], lostBefore lost: String? = nil) {
        guard !hints.isEmpty || lost != nil else { return }
        let wasEmpty = queue.withLock { queue in
            let wasEmpty = queue.isEmpty
            if let lost { queue.eventsLost(lost) }
            for hint in hints { queue.append(hint) }
            return wasEmpty
        }
        if wasEmpty { wake() }
    }

    /// The oldest hints, up to `max`, and the loss reported since the last take.
    func take(max: Int) -> (lost: String?, hints: [Hint]) {
        queue.withLock { $0.take(max: max) }
    }

    var isEmpty: Bool { queue.withLock { $0.isEmpty } }
}
