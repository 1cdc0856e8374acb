// SPDX-License-Identifier: GPL-2.0-or-later
import CXXHash

/// An XXH3-128 digest of bytes, from libxxhash: fast and non-cryptographic. Two
/// files are taken as identical only when their sizes and whole-content hashes
/// agree; 128 bits make a chance collision negligible for any library's size.
struct ContentHash: Hashable, Sendable, CustomStringConvertible {
    let high: UInt64
    let low: UInt64

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The hash of `bytes` in one call.
    init(of bytes: UnsafeRawBufferPointer) {
        let digest = XXH3_128bits(bytes.baseAddress, bytes.count)
        self.init(high: digest.high64, low: digest.low64)
    }

    /// The canonical text form: 32 hex digits, high half first (as `xxhsum -H2`).
    var description: String {
        ZeroPaddedHex.text(high) + ZeroPaddedHex.text(low)
    }
}

/// XXH3-128 over bytes given in pieces. The state is libxxhash's own allocation,
/// so the daemon never depends on its layout; freed when the hasher goes.
struct ContentHasher: ~Copyable {
    private let state: OpaquePointer

    /// Nil only when the library could not allocate its state.
    init?() {
        guard let state = XXH3_createState() else { return nil }
        XXH3_128bits_reset(state)
        self.state = state
    }

    deinit { XXH3_freeState(state) }

    func update(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        XXH3_128bits_update(state, bytes.baseAddress, bytes.count)
    }

    /// The hash of everything given so far (the hasher may go on).
    func digest() -> ContentHash {
        let digest = XXH3_128bits_digest(state)
        return ContentHash(high: digest.high64, low: digest.low64)
    }
}

private enum ZeroPaddedHex {
    static func text(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
