// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// The photos the running batches move out of the roots themselves (several run at
/// once, each on roots of its own, so their files never overlap). A batch reports
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

    /// A batch is about to move these files out.
    func expect(_ entries: [WatchTable.Entry]) {
        table.withLock { $0.expected.formUnion(entries) }
    }

    /// True while some batch still has moves to make.
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

    /// The batch that expected `entries` is over: forgets them and returns those
    /// whose moves the watcher skipped, for the caller to hand back those the batch
    /// did not make. Other batches' entries stay.
    func end(_ entries: [WatchTable.Entry]) -> Set<WatchTable.Entry> {
        table.withLock { table in
            var skipped: Set<WatchTable.Entry> = []
            for entry in entries {
                table.expected.remove(entry)
                if table.claimed.remove(entry) != nil { skipped.insert(entry) }
            }
            return skipped
        }
    }
}
