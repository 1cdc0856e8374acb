// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Testing

/// `UTF8Validation` must accept exactly what the standard library's validation
/// accepts: `ByteString.utf8String` and a listing choose between `path` and
/// `path_raw` by it.
struct UTF8ValidationTests {
    private static func oracle(_ bytes: [UInt8]) -> Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// Every sequence of one and two bytes.
    @Test func everyOneAndTwoByteSequence() {
        for a in 0...255 {
            #expect(UTF8Validation.isValid([UInt8(a)]) == Self.oracle([UInt8(a)]), "\(a)")
            for b in 0...255 {
                let bytes = [UInt8(a), UInt8(b)]
                #expect(UTF8Validation.isValid(bytes) == Self.oracle(bytes), "\(bytes)")
            }
        }
    }

    /// Every lead byte and second byte, with third and fourth bytes at the edges of
    /// the continuation range and beyond it: the overlong forms, the surrogates,
    /// the end of Unicode, truncated sequences.
    @Test func threeAndFourByteSequencesAtEveryBoundary() {
        let edges: [UInt8] = [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
        var disagreements: [[UInt8]] = []
        for a in 0...255 {
            for b in 0...255 {
                for c in edges {
                    let three = [UInt8(a), UInt8(b), c]
                    if UTF8Validation.isValid(three) != Self.oracle(three) { disagreements.append(three) }
                    // Four bytes where a four-byte lead (or one just past them) begins.
                    for d in edges where a >= 0xF0 && a <= 0xF5 {
                        let four = three + [d]
                        if UTF8Validation.isValid(four) != Self.oracle(four) { disagreements.append(four) }
                    }
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }

    /// Names as a listing meets them, with every sequence at every offset of the
    /// eight-byte ASCII steps, and cut at every length.
    @Test func sequencesAtEveryOffsetOfLongerNames() {
        let pieces: [[UInt8]] = [Array("かぞく".utf8), Array("Ölmühle".utf8), Array("😀".utf8), [0xED, 0xA0, 0x80], [0xC0, 0xAF],
                                 [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xFF], [0x80]]
        for piece in pieces {
            for before in 0...17 {
                for after in [0, 1, 7, 8, 9] {
                    let name = Array(repeating: UInt8(ascii: "a"), count: before) + piece + Array(repeating: UInt8(ascii: "b"), count: after)
                    for length in 0...name.count {
                        let cut = Array(name[0..<length])
                        #expect(UTF8Validation.isValid(cut) == Self.oracle(cut), "\(cut)")
                    }
                }
            }
        }
    }

    /// Random bytes, mostly ASCII with some of every kind, many lengths.
    @Test func randomNames() {
        var generator = SystemRandomNumberGenerator()
        let kinds: [[UInt8]] = [Array(0x20...0x7E), Array(0x80...0xBF), Array(0xC0...0xFF)]
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<length).map { _ -> UInt8 in
                let roll = Int.random(in: 0..<10, using: &generator)
                return kinds[roll < 7 ? 0 : roll < 9 ? 1 : 2].randomElement(using: &generator) ?? 0
            }
            #expect(UTF8Validation.isValid(bytes) == Self.oracle(bytes), "\(bytes)")
            #expect(ByteString(bytes).utf8String == String(validating: bytes, as: UTF8.self), "\(bytes)")
        }
        #expect(UTF8Validation.isValid(UnsafeBufferPointer(start: nil, count: 0)))
    }
}
