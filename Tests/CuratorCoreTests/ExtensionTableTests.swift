// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import Testing

/// The table of extensions says what a dictionary of them says, for every known
/// extension and for words that are none.
struct ExtensionTableTests {
    @Test func everyExtensionAndNoOtherWordHasItsType() {
        var expected: [UInt64: PhotoType] = [:]
        for type in PhotoType.allCases {
            for ext in type.extensions where ext.utf8.count <= 7 { expected[ExtensionTable.pack(ext)] = type }
        }
        #expect(expected.count == PhotoType.allCases.reduce(0) { $0 + $1.extensions.count }, "every extension, each of one type")
        let table = ExtensionTable()
        for (key, type) in expected { #expect(table[key] == type, "\(String(key, radix: 16))") }
        // Near misses (a byte changed, one more or fewer, upper case unfolded) and random words.
        var random = SystemRandomNumberGenerator()
        var words: [UInt64] = expected.keys.flatMap { key in [key ^ 1, key << 8 | 0x67, key >> 8, key ^ 0x20] }
        words += (0..<20_000).map { _ in random.next() | 1 << 63 }
        for word in words where expected[word] == nil { #expect(table[word] == nil, "\(String(word, radix: 16))") }
    }
}
