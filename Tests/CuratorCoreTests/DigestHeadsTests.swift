// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import Testing

/// The chain heads of a folder's grouping, by digest, against a `Dictionary`.
@Suite struct DigestHeadsTests {
    @Test func answersAsADictionaryWouldUnderEveryLoad() {
        var random = SplitMix64(seed: 14)
        for capacity in [1, 2, 3, 7, 100, 5000] {
            var heads = DigestHeads(capacity: capacity)
            var reference: [UInt64: Int32] = [:]
            // Few distinct digests for the capacity, some alike but in their low
            // bits, each set several times: the last setting is the head.
            let digests = (0..<capacity).map { k -> UInt64 in
                k % 3 == 0 ? UInt64(k) : random.next()
            }
            for step in 0..<(capacity * 3) {
                let digest = digests[Int.random(in: 0..<digests.count, using: &random)]
                // `exchange` gives back the head it replaces.
                #expect(heads.exchange(digest, Int32(step)) == (reference[digest] ?? -1))
                reference[digest] = Int32(step)
            }
            for digest in digests { #expect(heads[digest] == (reference[digest] ?? -1), "capacity \(capacity), \(digest)") }
            for _ in 0..<200 {
                let absent = random.next()
                if reference[absent] == nil { #expect(heads[absent] == -1) }
            }
        }
    }

    @Test func aFullTableOfOneSlotStillAnswers() {
        var heads = DigestHeads(capacity: 4)  // eight slots
        for k in 0..<4 { #expect(heads.exchange(UInt64(k) << 61, Int32(k)) == -1) }  // the same top bits before the multiply
        for k in 0..<4 { #expect(heads[UInt64(k) << 61] == Int32(k)) }
        #expect(heads[1 << 60] == -1)
        #expect(heads.exchange(0, 9) == 0)
        #expect(heads[0] == 9)
    }
}
