// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// What the inotify source tells `status` (and the crawler) about inotify itself,
/// without taking the state lock for it.
final class WatcherReport: Sendable {
    struct Snapshot: Sendable {
        /// Entries libinotifytools keeps for watches the kernel already dropped.
        var staleEntries = 0
        /// Times libinotifytools was started afresh to shed them.
        var restarts = 0
        /// Live watches, all roots together.
        var watches = 0
        /// Live watches of each root.
        var watchesByRoot: [Int32: Int] = [:]
    }

    private let current = Mutex(Snapshot())

    var snapshot: Snapshot { current.withLock { $0 } }

    func update(_ body: (inout Snapshot) -> Void) { current.withLock { body(&$0) } }
}
