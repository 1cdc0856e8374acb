// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// The moves curatord's own batches and undos make across a root's edge, which they
/// report themselves (several run at once, each on roots of its own, so their files
/// never overlap): a batch moves photos out to the trash and reports each outcome
/// (trashed photos leave the index a chunk at a time); an undo moves them back and
/// indexes them again under their former ids. The watcher's usual handling of their
/// unpaired MOVED_FROM or MOVED_TO (a stat and a state lock per photo) would be the
/// same work twice: it skips the moves listed here (`OwnMoves`). An event skipped
/// for a photo the batch or undo did not move after all (someone else moved it, or
/// put another file at its path, meanwhile) is handed back to the watcher for a
/// normal look when the batch or undo ends.
final class ExpectedMoves: Sendable {
    /// Every move expected, with whether the watcher has skipped its event yet: one
    /// table, so that a claim is one lookup (a batch of 15 000 files makes 15 000).
    private struct Table {
        var claimed: [WatchTable.Entry: Bool] = [:]
        /// Entries not claimed yet.
        var waiting = 0
    }

    private let table = Mutex(Table())

    /// A batch (or an undo) is about to move these files.
    func expect(_ entries: [WatchTable.Entry]) {
        table.withLock { table in
            table.claimed.reserveCapacity(table.claimed.count + entries.count)
            for entry in entries where table.claimed.updateValue(false, forKey: entry) != false { table.waiting += 1 }
        }
    }

    /// True while some batch or undo still has moves to make.
    var isExpecting: Bool { table.withLock { $0.waiting > 0 } }

    /// The watcher, for a file's MOVED_FROM that found no MOVED_TO (or a MOVED_TO
    /// that had no MOVED_FROM): true when a running batch (undo) expects it, in which
    /// case that batch accounts for it.
    func claim(_ entry: WatchTable.Entry) -> Bool {
        table.withLock { table in
            guard let index = table.claimed.index(forKey: entry), !table.claimed.values[index] else { return false }
            table.claimed.values[index] = true
            table.waiting -= 1
            return true
        }
    }

    /// The batch (undo) that expected `entries` is over: forgets them and returns
    /// the indices (in `entries`) of those whose moves the watcher skipped, for the
    /// caller to hand back those it did not make. Other batches' entries stay.
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

/// The moves of the running batches (out of the roots) and undos (back into them).
final class OwnMoves: Sendable {
    let outgoing = ExpectedMoves()
    let incoming = ExpectedMoves()

    /// While either has moves to make, their events come by the thousand.
    var isExpecting: Bool { outgoing.isExpecting || incoming.isExpecting }
}
