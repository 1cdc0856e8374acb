// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// The photos a running batch moves out of the roots itself. The batch reports
/// each outcome (trashed photos leave the index a chunk at a time), so the
/// watcher's usual handling of their unpaired MOVED_FROM (a stat and a state lock
/// per photo) would be the same work twice: it skips the moves listed here. An
/// event skipped for a photo the batch did not trash after all (someone else moved
/// it meanwhile) is handed back to the watcher for a normal look when the batch ends.
final class OutgoingMoves: Sendable {
    private struct Table {
        var expected: Set<WatchTable.Entry> = []
        var claimed: Set<WatchTable.Entry> = []
    }

    private let table = Mutex(Table())

    /// A batch is about to move these files out (at most one batch runs at a time).
    func expect(_ entries: [WatchTable.Entry]) {
        table.withLock { $0.expected.formUnion(entries) }
    }

    /// True while a batch still has moves to make.
    var isExpecting: Bool { table.withLock { !$0.expected.isEmpty } }

    /// The watcher, for a file's MOVED_FROM that found no MOVED_TO: true when the
    /// running batch expects it, in which case the batch accounts for it.
    func claim(_ entry: WatchTable.Entry) -> Bool {
        table.withLock { table in
            guard table.expected.remove(entry) != nil else { return false }
            table.claimed.insert(entry)
            return true
        }
    }

    /// The batch is over: forgets everything and returns the moves the watcher
    /// skipped, for the caller to hand back those the batch did not make.
    func end() -> Set<WatchTable.Entry> {
        table.withLock { table in
            let claimed = table.claimed
            table = Table()
            return claimed
        }
    }
}
