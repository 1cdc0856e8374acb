// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import Testing

/// The bitmap set of ids against a `Set<Int64>`, through random inserts and
/// removals, with ids the bitmap does not cover (0, negative, past its limit).
struct IDSetTests {
    @Test func behavesLikeASet() {
        var set = IDSet()
        var model = Set<Int64>()
        var generator = SplitMix64(seed: 5)
        let ids: [Int64] = Array(1...2000) + [0, -1, -77, SlotIndex.flatLimit, SlotIndex.flatLimit + 1, Int64.max, 63, 64, 65, 4095, 4096]
        for step in 0..<40_000 {
            let id = ids[Int(generator.next() % UInt64(ids.count))]
            if generator.next() % 2 == 0 {
                let inserted = set.insert(id)
                #expect(inserted == model.insert(id).inserted, "insert \(id) at \(step)")
            } else {
                let removed = set.remove(id)
                #expect(removed == (model.remove(id) != nil), "remove \(id) at \(step)")
            }
            if step % 3999 == 0 {
                #expect(set.count == model.count)
                for candidate in ids { #expect(set.contains(candidate) == model.contains(candidate), "\(candidate) at \(step)") }
            }
        }
        for id in ids { set.remove(id) }
        #expect(set.isEmpty)
        for id in ids { #expect(!set.contains(id)) }
    }

    /// A million ids in sequence: every one found, none beyond, and each counted once.
    @Test func holdsAMillionInSequence() {
        var set = IDSet()
        for id in Int64(1)...1_000_000 { set.insert(id) }
        #expect(set.count == 1_000_000)
        let insertedAgain = set.insert(500_000)
        #expect(!insertedAgain)
        #expect(set.contains(1) && set.contains(1_000_000) && !set.contains(1_000_001))
        for id in stride(from: Int64(2), through: 1_000_000, by: 2) { set.remove(id) }
        #expect(set.count == 500_000)
        #expect(set.contains(999_999) && !set.contains(999_998))
    }
}
