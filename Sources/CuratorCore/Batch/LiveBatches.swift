// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// The batches this process is carrying out now (a batch, or an undo of one), shared
/// by every `BatchRunner` of one journal. Batches on different roots run at once,
/// each on a connection of its own, so "recorded as running" no longer means "left
/// by a crash": a batch the journal records as running and that is not live here was
/// cut short (a crash before this start, or a journal write that failed) and waits
/// for the next start's recovery, and until then no batch or undo starts.
///
/// A batch is made live in the same locked step that checks for such leftovers and
/// records it in the journal (`start`), so that two starting at once never take each
/// other for a leftover.
final class LiveBatches: Sendable {
    private let ids = Mutex<Set<Int64>>([])

    /// Runs `begin` (which checks the journal's running batches against the live
    /// ones it is given, then journals the batch as running or undoing and returns
    /// its id) under the lock, and makes that batch live.
    func start(_ begin: (Set<Int64>) throws(BatchError) -> Int64) throws(BatchError) -> Int64 {
        try ids.withLock { (live) throws(BatchError) -> Int64 in
            let id = try begin(live)
            live.insert(id)
            return id
        }
    }

    /// Checks under the lock, with nothing to make live (an emptying of the trash).
    func check(_ body: (Set<Int64>) throws(BatchError) -> Void) throws(BatchError) {
        try ids.withLock { (live) throws(BatchError) in try body(live) }
    }

    /// The batch is over, however it ended (what the journal holds says how).
    func end(_ id: Int64) { _ = ids.withLock { $0.remove(id) } }

    var isEmpty: Bool { ids.withLock { $0.isEmpty } }
}
