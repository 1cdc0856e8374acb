// SPDX-License-Identifier: GPL-2.0-or-later

/// Photo ids last in, first out, as runs of consecutive ids: a first scan pushes
/// every photo in the order it handed out their ids, so a run holds a folder's
/// photos up to its first sidecar. An `[Int64]` of the same was 8 bytes a photo
/// (9 MB at a million, held until the background work is done, for each of the
/// capture time and thumbnail queues); a run here is one word.
///
/// A word is a run: its first id in the low 40 bits, its length less one in the
/// high 24. An id a word cannot hold (negative, or past 40 bits: only a corrupt
/// index has one) takes two: the id, then `wide`.
struct IDStack {
    private var words: [UInt64] = []
    private(set) var count = 0

    private static let idBits: UInt64 = 40
    private static let idMask: UInt64 = (1 << idBits) - 1
    private static let maxRun: UInt64 = 1 << (64 - idBits)
    private static let wide = UInt64.max

    var isEmpty: Bool { count == 0 }

    /// The id `popLast` would give.
    var last: Int64? {
        guard let top = words.last else { return nil }
        if top == Self.wide { return Int64(bitPattern: words[words.count - 2]) }
        return Int64(top & Self.idMask) + Int64(top >> Self.idBits)
    }

    mutating func append(_ id: Int64) {
        count += 1
        // The sentinel `wide` is a run past the id range, so the last id is kept aside.
        guard id >= 0 && UInt64(id) < Self.idMask else {
            words.append(UInt64(bitPattern: id))
            words.append(Self.wide)
            return
        }
        if let top = words.last, top != Self.wide {
            let length = (top >> Self.idBits) + 1
            if length < Self.maxRun && (top & Self.idMask) + length == UInt64(id) {
                words[words.count - 1] = top + (1 << Self.idBits)
                return
            }
        }
        words.append(UInt64(id))
    }

    mutating func popLast() -> Int64? {
        guard let top = words.last else { return nil }
        count -= 1
        defer {
            // An emptied stack gives its words back.
            if words.isEmpty { words = [] }
        }
        if top == Self.wide {
            words.removeLast()
            return Int64(bitPattern: words.removeLast())
        }
        let extra = top >> Self.idBits
        if extra == 0 {
            words.removeLast()
        } else {
            words[words.count - 1] = top - (1 << Self.idBits)
        }
        return Int64(top & Self.idMask) + Int64(extra)
    }

    /// Every id, first pushed first.
    var ids: [Int64] {
        var result: [Int64] = []
        result.reserveCapacity(count)
        // Read from the top, as `popLast` does (a kept-aside id may look like `wide`).
        var index = words.count - 1
        while index >= 0 {
            if words[index] == Self.wide {
                result.append(Int64(bitPattern: words[index - 1]))
                index -= 2
                continue
            }
            let first = Int64(words[index] & Self.idMask)
            for offset in (0...Int64(words[index] >> Self.idBits)).reversed() { result.append(first + offset) }
            index -= 1
        }
        return result.reversed()
    }

    /// The bytes its words take (tests).
    var wordBytes: Int { words.capacity * MemoryLayout<UInt64>.stride }
}
