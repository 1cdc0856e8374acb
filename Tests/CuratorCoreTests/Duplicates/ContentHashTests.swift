// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import Testing

/// XXH3-128 through libxxhash: the library's own vectors, and pieces hash as the whole.
@Suite struct ContentHashTests {
    @Test func matchesTheReferenceVectors() {
        // From a C program calling XXH3_128bits on the same bytes (xxhsum -H2's digits).
        #expect(hash([]).description == "99aa06d3014798d86001c324468d497f")
        #expect(hash(Array("curatord".utf8)).description == "8bf45711f4cd81f3be11d19d268e7c6d")
    }

    @Test func piecesHashAsTheWhole() {
        var random = SplitMix64(seed: 53)
        let bytes = (0..<300_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let whole = hash(bytes)
        for piece in [1, 7, 4096, 65_536, 299_999] {
            guard let hasher = ContentHasher() else {
                Issue.record("no hasher")
                return
            }
            var start = 0
            while start < bytes.count {
                let end = min(start + piece, bytes.count)
                bytes[start..<end].withUnsafeBytes { hasher.update($0) }
                start = end
            }
            #expect(hasher.digest() == whole, "pieces of \(piece)")
        }
        var changed = bytes
        changed[150_000] ^= 1
        #expect(hash(changed) != whole)
    }

    private func hash(_ bytes: [UInt8]) -> ContentHash {
        bytes.withUnsafeBytes { ContentHash(of: $0) }
    }
}
