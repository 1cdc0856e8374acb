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
    /// Every move expected, with whether the watcher has skipped its event yet: one
    /// table, so that a claim is one lookup (a batch of 15 000 files makes 15 000).
    private struct Table {
        var claimed: [WatchTable.Entry: Bool] = [:]
        /// Entries not claimed yet.
        var waiting = 0
    }

    private let table = Mutex(Table())

    /// A batch is about to move these files out.
    func expect(_ entries: [WatchTable.Entry]) {
        table.withLock { table in
            table.claimed.reserveCapacity(table.claimed.count + entries.count)
            for entry in entries where table.claimed.updateValue(false, forKey: entry) != false { table.waiting += 1 }
        }
    }

    /// True while some batch still has moves to make.
    var isExpecting: Bool { table.withLock { $0.waiting > 0 } }

    /// The watcher, for a file's MOVED_FROM that found no MOVED_TO: true when the
    /// running batch expects it, in which case the batch accounts for it.
    func claim(_ entry: WatchTable.Entry) -> Bool {
        table.withLock { table in
            guard let index = table.claimed.index(forKey: entry), !table.claimed.values[index] else { return false }
            table.claimed.values[index] = true
            table.waiting -= 1
            return true
        }
    }

    /// The batch that expected `entries` is over: forgets them and returns the
    /// indices (in `entries`) of those whose moves the watcher skipped, for the
    /// caller to hand back those the batch did not make. Other batches' entries stay.
    func end(_ entries: [WatchTable.Entry]) -> [Int] {
        table.withLock { table in
            var skipped: [Int] = []
            for (index, entry) in entries.enumerated() {
                switch table.claimed.removeValue(forKey: entry) {
                case true?: skipped.append(index)
                case false?: table.waiting -= 1
                case nil: break
                }
            }
            return skipped
        }
    }
}
