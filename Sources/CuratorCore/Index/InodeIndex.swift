// SPDX-License-Identifier: GPL-2.0-or-later

/// Photo id by a one-word digest of (device, inode), as an open-addressing table
/// with linear probing, 8 bytes a slot: a 32-bit tag of the digest and a 32-bit
/// id. The digest itself is not stored (that was 16 bytes a slot, 24-30 MB at a
/// million photos): a slot whose tag matches is confirmed by the digest of its
/// photo, which the caller reads from the photo table (`digestOf`). So every id
/// in the index must be in the table, with the identity it was filed under:
/// callers file a photo after putting it in the table and take it out before.
///
/// A `[UInt64: Int64]` keeps its load under 3/4 with a power-of-two bucket count;
/// here the table grows by 3/2 and may fill to 4/5. Removal shifts the following
/// run back, so there are no tombstones. Ids past 32 bits, which only a corrupt
/// index holds (ids are handed out from 1), are kept in a dictionary beside it.
struct InodeIndex {
    /// 0 marks an empty slot; a tag of 0 is stored as 1.
    private var tags: [UInt32] = []
    private var ids: [UInt32] = []
    private var wide: [UInt64: Int64] = [:]
    private var narrowCount = 0

    var count: Int { narrowCount + wide.count }
    var capacity: Int { tags.count }

    /// The id filed under `digest`.
    func find(_ digest: UInt64, digestOf: (Int64) -> UInt64?) -> Int64? {
        if !wide.isEmpty, let id = wide[digest] { return id }
        return slot(of: digest, digestOf).map { Int64(ids[$0]) }
    }

    /// Files `id` under `digest` (replacing the id filed there), or with nil takes
    /// the digest out. Returns the id filed there before, as `find` would have:
    /// one probe where the undo log asked first (at a million photos each probe
    /// is a cache miss).
    @discardableResult
    mutating func set(_ digest: UInt64, _ id: Int64?, digestOf: (Int64) -> UInt64?) -> Int64? {
        let before: Int64?
        let probe = probe(digest, digestOf)
        if let slot = probe.found {
            before = Int64(ids[slot])
            if let id, let narrow = UInt32(exactly: id) {
                ids[slot] = narrow
                return before
            }
            remove(at: slot)
        } else if let filed = wide[digest] {
            before = filed
            wide[digest] = nil
        } else {
            before = nil
        }
        guard let id else { return before }
        if let narrow = UInt32(exactly: id) {
            // The search ended at the run's first empty slot, where an insert goes
            // (linear probing): filled there unless the table is to grow (a new
            // photo of a cold scan probed its run twice, a cache miss or more each).
            if let empty = probe.empty, before == nil, !mustGrow {
                tags[empty] = Self.tag(digest)
                ids[empty] = narrow
                narrowCount += 1
            } else {
                insert(Self.tag(digest), narrow)
            }
        } else {
            wide[digest] = id
        }
        return before
    }

    /// Room for `n` entries without a rebuild.
    mutating func reserve(_ n: Int) {
        let wanted = n * 21 / 16 + 16  // a 3/4 load: the next photos do not rebuild it at once
        if wanted > tags.count { rebuild(capacity: wanted) }
    }

    /// The high half of a multiply by an odd constant: the small, dense inode
    /// numbers spread over all 32 bits (Fibonacci hashing).
    private static func tag(_ digest: UInt64) -> UInt32 {
        let tag = UInt32(truncatingIfNeeded: (digest &* 0x9E37_79B9_7F4A_7C15) >> 32)
        return tag == 0 ? 1 : tag
    }

    /// The tag scaled onto the table: its first choice of slot.
    private func home(_ tag: UInt32) -> Int { Int((UInt64(tag) &* UInt64(tags.count)) >> 32) }

    private func next(_ slot: Int) -> Int { slot + 1 == tags.count ? 0 : slot + 1 }

    private func slot(of digest: UInt64, _ digestOf: (Int64) -> UInt64?) -> Int? { probe(digest, digestOf).found }

    /// The slot filed under `digest`, or else the empty slot that ended the search.
    private func probe(_ digest: UInt64, _ digestOf: (Int64) -> UInt64?) -> (found: Int?, empty: Int?) {
        guard !tags.isEmpty else { return (nil, nil) }
        let tag = Self.tag(digest)
        var slot = home(tag)
        while tags[slot] != 0 {
            if tags[slot] == tag, digestOf(Int64(ids[slot])) == digest { return (slot, nil) }
            slot = next(slot)
        }
        return (nil, slot)
    }

    /// Whether one more entry would fill the table past 4/5: it is rebuilt larger first.
    private var mustGrow: Bool { (narrowCount + 1) * 5 > tags.count * 4 }

    /// A new entry (its digest is known not to be filed).
    private mutating func insert(_ tag: UInt32, _ id: UInt32) {
        if mustGrow { rebuild(capacity: max(16, (narrowCount + 1) * 3 / 2 + 1)) }
        var slot = home(tag)
        while tags[slot] != 0 { slot = next(slot) }
        tags[slot] = tag
        ids[slot] = id
        narrowCount += 1
    }

    private mutating func remove(at found: Int) {
        narrowCount -= 1
        // Close the gap: move back each later entry of the run whose home is not
        // between the hole and its own slot (cyclically).
        var hole = found
        var slot = next(hole)
        while tags[slot] != 0 {
            let wanted = home(tags[slot])
            let stays = hole <= slot ? (hole < wanted && wanted <= slot) : (hole < wanted || wanted <= slot)
            if !stays {
                tags[hole] = tags[slot]
                ids[hole] = ids[slot]
                hole = slot
            }
            slot = next(slot)
        }
        tags[hole] = 0
        ids[hole] = 0
        // Give the room back after a large removal (a root dropped from the config).
        if tags.count > 64 && narrowCount * 4 < tags.count { rebuild(capacity: narrowCount * 3 / 2 + 16) }
    }

    private mutating func rebuild(capacity: Int) {
        let oldTags = tags, oldIDs = ids
        tags = [UInt32](repeating: 0, count: capacity)
        ids = [UInt32](repeating: 0, count: capacity)
        narrowCount = 0
        for (tag, id) in zip(oldTags, oldIDs) where tag != 0 { insert(tag, id) }
    }
}
