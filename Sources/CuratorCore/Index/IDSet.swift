// SPDX-License-Identifier: GPL-2.0-or-later

/// A set of photo ids as a bitmap: ids are handed out in sequence from 1, so a
/// bit per id ever given out is far smaller than a `Set<Int64>`'s buckets (the
/// thumbnailer's queue of a million photos was 16 MB as a set, 128 kB here).
/// Ids the bitmap does not cover (not positive, or past `SlotIndex.flatLimit`,
/// which only a corrupt index holds) go to a set beside it.
struct IDSet: ExpressibleByArrayLiteral {
    private var words: [UInt64] = []
    private var sparse: Set<Int64> = []
    private var flatCount = 0

    init() {}

    init(arrayLiteral ids: Int64...) {
        for id in ids { insert(id) }
    }

    var count: Int { flatCount + sparse.count }

    /// Room for ids up to `id` without growing (tests: a set that grows is not one that was copied).
    mutating func reserve(through id: Int64) {
        guard Self.covers(id), Int(id >> 6) >= words.count else { return }
        words.append(contentsOf: repeatElement(0, count: Int(id >> 6) + 1 - words.count))
    }

    /// Where the bitmap's words are (tests: an insert into a shared set copies them).
    var wordsAddress: UInt { words.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
    var isEmpty: Bool { count == 0 }

    private static func covers(_ id: Int64) -> Bool { id > 0 && id < SlotIndex.flatLimit }

    func contains(_ id: Int64) -> Bool {
        guard Self.covers(id) else { return sparse.contains(id) }
        let word = Int(id >> 6)
        return word < words.count && words[word] & (1 << UInt64(id & 63)) != 0
    }

    /// Adds `id`; true when it was not there.
    @discardableResult
    mutating func insert(_ id: Int64) -> Bool {
        guard Self.covers(id) else { return sparse.insert(id).inserted }
        let word = Int(id >> 6)
        if word >= words.count {
            // Geometric growth: inserting ids in sequence stays amortised O(1).
            words.append(contentsOf: repeatElement(0, count: max(word + 1, words.count * 3 / 2) - words.count))
        }
        let bit: UInt64 = 1 << UInt64(id & 63)
        if words[word] & bit != 0 { return false }
        words[word] |= bit
        flatCount += 1
        return true
    }

    /// Takes `id` out; true when it was there. An emptied set gives its memory back.
    @discardableResult
    mutating func remove(_ id: Int64) -> Bool {
        guard Self.covers(id) else { return sparse.remove(id) != nil }
        let word = Int(id >> 6)
        let bit: UInt64 = 1 << UInt64(id & 63)
        guard word < words.count, words[word] & bit != 0 else { return false }
        words[word] &= ~bit
        flatCount -= 1
        if flatCount == 0 { words = [] }
        return true
    }
}
