// SPDX-License-Identifier: GPL-2.0-or-later

/// Counts marked slots before a given slot in O(log n): a Fenwick (binary indexed)
/// tree over 0/1 flags. `OrderedSelection` marks the slots of deselected photos with
/// it, so that a photo's number is its slot minus the holes before it, without
/// shifting every later photo on each removal.
struct SlotCounter: Sendable {
    /// `tree[i - 1]` holds the sum of the flags of slots `(i - lowbit(i)) ..< i`.
    private var tree: [Int] = []
    private(set) var total = 0

    var slotCount: Int { tree.count }

    /// Adds an unmarked slot at the end.
    mutating func appendSlot() {
        let i = tree.count + 1
        // While nothing is marked every partial sum is zero; skip the two queries.
        tree.append(total == 0 ? 0 : marked(before: i - 1) - marked(before: i - (i & -i)))
    }

    /// Drops the last slot. No earlier node covers it, so the rest stays valid.
    mutating func removeLastSlot() {
        total -= marked(before: tree.count) - marked(before: tree.count - 1)
        tree.removeLast()
    }

    mutating func mark(_ slot: Int) {
        precondition(slot >= 0 && slot < tree.count, "slot out of range")
        total += 1
        var i = slot + 1
        while i <= tree.count {
            tree[i - 1] += 1
            i += i & -i
        }
    }

    /// How many of the slots `0 ..< slot` are marked.
    func marked(before slot: Int) -> Int {
        var sum = 0
        var i = slot
        while i > 0 {
            sum += tree[i - 1]
            i -= i & -i
        }
        return sum
    }

    mutating func reset(slotCount: Int) {
        tree = Array(repeating: 0, count: slotCount)
        total = 0
    }
}
