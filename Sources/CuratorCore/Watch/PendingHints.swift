// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// The hand-off between the inotify source (which adds) and the watcher thread
/// (which takes): a `HintQueue` behind a mutex held for a copy at a time, so that
/// neither side ever waits on the other's work.
final class PendingHints: Sendable {
    private struct Shared {
        var queue: HintQueue
        /// A wake-up was sent and the queue not taken since: another is not needed.
        var wakeSent = false
    }

    private let shared: Mutex<Shared>
    /// Called (on the adding thread) when hints that need the watcher arrive.
    private let wake: @Sendable () -> Void

    init(limit: Int = 200_000, wake: @escaping @Sendable () -> Void) {
        shared = Mutex(Shared(queue: HintQueue(limit: limit)))
        self.wake = wake
    }

    /// Adds what one read of the kernel queue gave, in order; `lost` first when the
    /// kernel reported an overflow among them (what came before it is moot).
    ///
    /// A file just created needs nothing before its close-after-write, which merges
    /// into its hint: such hints alone do not wake the watcher thread (it takes them
    /// with the next hint that does, or at its next timer, within a second). A file
    /// written costs it one wake-up, not two.
    func add(_ hints: [Hint], lostBefore lost: String? = nil) {
        guard !hints.isEmpty || lost != nil else { return }
        let needsWake = shared.withLock { shared in
            if let lost { shared.queue.eventsLost(lost) }
            for hint in hints { shared.queue.append(hint) }
            guard !shared.wakeSent, lost != nil || hints.contains(where: \.needsTheCrawler) else { return false }
            shared.wakeSent = true
            return true
        }
        if needsWake { wake() }
    }

    /// The oldest hints, up to `max`, and the loss reported since the last take.
    func take(max: Int) -> (lost: String?, hints: [Hint]) {
        shared.withLock { shared in
            shared.wakeSent = false
            return shared.queue.take(max: max)
        }
    }

    var isEmpty: Bool { shared.withLock { $0.queue.isEmpty } }
}

extension Hint {
    /// False for a file's creation alone: nothing is done about it until its close.
    var needsTheCrawler: Bool {
        if case .path(_, let flags) = kind, flags == .awaitingClose { return false }
        return true
    }
}
