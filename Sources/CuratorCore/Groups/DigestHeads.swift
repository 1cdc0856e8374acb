// SPDX-License-Identifier: GPL-2.0-or-later

/// Per digest of a base name, the last name of a folder that has it: the heads of
/// `GroupAssignment`'s chains. Open addressing over the digests themselves, which
/// are hashes already (`ShotKeys.digest`): a `Dictionary` hashed each one
/// again with SipHash, and with its lookups that was half of a folder's grouping at
/// a cold start (50 of 116 samples at 100 000 photos).
struct DigestHeads {
    private var keys: [UInt64]
    /// -1: an empty slot (a name's index is never negative).
    private var values: [Int32]
    private let shift: UInt64
    private let mask: Int

    /// Room for `capacity` digests, the table at most half full.
    init(capacity: Int) {
        var size = 8
        var bits: UInt64 = 3
        while size < capacity * 2 {
            size <<= 1
            bits += 1
        }
        keys = [UInt64](repeating: 0, count: size)
        values = [Int32](repeating: -1, count: size)
        shift = 64 - bits
        mask = size - 1
    }

    /// The head of `digest`'s chain; -1 when no name has it.
    subscript(_ digest: UInt64) -> Int32 {
        var i = slot(digest)
        while values[i] >= 0 {
            if keys[i] == digest { return values[i] }
            i = (i + 1) & mask
        }
        return -1
    }

    /// Makes `index` the head of `digest`'s chain and returns the head it replaces
    /// (-1: none), in one probe where a lookup and a set took two. At most
    /// `capacity` digests are set.
    mutating func exchange(_ digest: UInt64, _ index: Int32) -> Int32 {
        var i = slot(digest)
        while values[i] >= 0 && keys[i] != digest { i = (i + 1) & mask }
        let previous = values[i]
        keys[i] = digest
        values[i] = index
        return previous
    }

    /// The slot a digest starts from: its top bits after a multiply, so that names
    /// alike but for their last bytes spread over the table.
    private func slot(_ digest: UInt64) -> Int {
        Int(truncatingIfNeeded: (digest &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }
}
