// SPDX-License-Identifier: GPL-2.0-or-later

/// Photo id by a one-word digest of (device, inode), as an open-addressing table
/// with linear probing. A `[UInt64: Int64]` keeps its load under 3/4 with a
/// power-of-two bucket count, so 100 000 photos took 262 144 buckets (4.2 MB);
/// here the table grows by 3/2 and may fill to 4/5 (2.1 MB at 100 000).
/// Removal shifts the following run back, so there are no tombstones.
struct InodeIndex {
    /// 0 marks an empty slot; a digest of 0 is stored as 1 (a digest is only a
    /// hint: lookups check the photo's real device and inode).
    private var keys: [UInt64] = []
    private var ids: [Int64] = []
    private(set) var count = 0
    var capacity: Int { keys.count }

    subscript(digest: UInt64) -> Int64? {
        get {
            guard !keys.isEmpty else { return nil }
            let key = Self.key(digest)
            var slot = home(key)
            while keys[slot] != 0 {
                if keys[slot] == key { return ids[slot] }
                slot = next(slot)
            }
            return nil
        }
        set {
            if let id = newValue { insert(Self.key(digest), id) } else { remove(Self.key(digest)) }
        }
    }

    /// Room for `n` entries without a rebuild.
    mutating func reserve(_ n: Int) {
        let wanted = n * 21 / 16 + 16  // a 3/4 load: the next photos do not rebuild it at once
        if wanted > keys.count { rebuild(capacity: wanted) }
    }

    private static func key(_ digest: UInt64) -> UInt64 { digest == 0 ? 1 : digest }

    /// Fibonacci hashing spreads the small, dense inode numbers; the high half of
    /// a full-width multiply maps the result onto any table size.
    private func home(_ key: UInt64) -> Int {
        Int((key &* 0x9E37_79B9_7F4A_7C15).multipliedFullWidth(by: UInt64(keys.count)).high)
    }

    private func next(_ slot: Int) -> Int { slot + 1 == keys.count ? 0 : slot + 1 }

    private mutating func insert(_ key: UInt64, _ id: Int64) {
        if (count + 1) * 5 > keys.count * 4 { rebuild(capacity: max(16, (count + 1) * 3 / 2 + 1)) }
        var slot = home(key)
        while keys[slot] != 0 {
            if keys[slot] == key {
                ids[slot] = id
                return
            }
            slot = next(slot)
        }
        keys[slot] = key
        ids[slot] = id
        count += 1
    }

    private mutating func remove(_ key: UInt64) {
        guard !keys.isEmpty else { return }
        var hole = home(key)
        while keys[hole] != key {
            if keys[hole] == 0 { return }
            hole = next(hole)
        }
        count -= 1
        // Close the gap: move back each later entry of the run whose home is not
        // between the hole and its own slot (cyclically).
        var slot = next(hole)
        while keys[slot] != 0 {
            let wanted = home(keys[slot])
            let stays = hole <= slot ? (hole < wanted && wanted <= slot) : (hole < wanted || wanted <= slot)
            if !stays {
                keys[hole] = keys[slot]
                ids[hole] = ids[slot]
                hole = slot
            }
            slot = next(slot)
        }
        keys[hole] = 0
        ids[hole] = 0
        // Give the room back after a large removal (a root dropped from the config).
        if keys.count > 64 && count * 4 < keys.count { rebuild(capacity: count * 3 / 2 + 16) }
    }

    private mutating func rebuild(capacity: Int) {
        let oldKeys = keys, oldIDs = ids
        keys = [UInt64](repeating: 0, count: capacity)
        ids = [Int64](repeating: 0, count: capacity)
        count = 0
        for (key, id) in zip(oldKeys, oldIDs) where key != 0 { insert(key, id) }
    }
}
