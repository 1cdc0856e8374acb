// SPDX-License-Identifier: GPL-2.0-or-later

/// The batch this grid last moved to the trash: what Ctrl+Z offers first, while it
/// is still there.
struct BatchMemory {
    private(set) var last: Int64?

    mutating func moved(_ batch: Int64) { last = batch }

    mutating func putBack(_ batch: Int64) {
        if last == batch { last = nil }
    }

    /// This grid's last batch while it is in the trash, else the latest one there.
    func toUndo(inTrash batches: Set<Int64>) -> Int64? {
        last.flatMap { batches.contains($0) ? $0 : nil } ?? batches.max()
    }
}
