// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Testing

/// ByteString compares and hashes whole byte ranges (memcmp, one hasher call);
/// it must agree with the element-wise definitions, prefixes and bytes ≥ 0x80 included.
struct ByteStringTests {
    @Test func orderEqualityAndHashAgreeWithTheBytes() {
        var generator = SplitMix64(seed: 11)
        let alphabet: [UInt8] = [0x00, 0x2F, 0x41, 0x61, 0x7F, 0x80, 0xC3, 0xE9, 0xFF]
        var samples: [[UInt8]] = [[], [0x41], [0x41, 0x41], [0xFF], [0x41, 0x00]]
        for _ in 0..<300 {
            let count = Int(generator.next() % 6)
            samples.append((0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
        }
        for a in samples {
            for b in samples {
                let x = ByteString(a), y = ByteString(b)
                #expect((x < y) == a.lexicographicallyPrecedes(b), "\(a) < \(b)")
                #expect((x == y) == (a == b), "\(a) == \(b)")
                if a == b { #expect(x.hashValue == y.hashValue) }
            }
        }
        #expect(Set(samples.map(ByteString.init)).count == Set(samples).count)
    }
}
