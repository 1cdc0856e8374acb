// SPDX-License-Identifier: GPL-2.0-or-later

/// Where a name sits in a `NameArena`.
struct NameRef: Hashable {
    var offset: UInt32
    var count: UInt16
}

/// Every photo's file name, back to back in one byte buffer. A name of its own
/// (an `Array` on the heap) cost its bytes plus a 32-byte header and the
/// allocator's rounding, about 48 bytes for a camera's 12-byte name: 49 MB at a
/// million photos, scattered wherever the scan allocated them. Here a name costs
/// its bytes, and a listing in folder order reads them nearly in sequence.
///
/// A name given up (a photo removed or renamed) leaves its bytes behind as dead
/// space; `PhotoTable` compacts the arena when that is more than the live bytes.
struct NameArena {
    private(set) var bytes: ContiguousArray<UInt8> = []
    /// Bytes that no name refers to any more.
    private(set) var dead = 0

    /// The largest arena: offsets are 32 bits (4 GiB of names, two hundred
    /// million camera names; `PhotoTable` compacts before it gets there).
    static let limit = Int(UInt32.max)
    /// The longest name a `NameRef` holds (its count is 16 bits; Linux's NAME_MAX is 255).
    static let longestName = Int(UInt16.max)

    var live: Int { bytes.count - dead }

    mutating func reserve(_ capacity: Int) { bytes.reserveCapacity(capacity) }

    /// Appends a name; nil when it is longer than a name can be (`UInt16`), which
    /// no file system allows (Linux's NAME_MAX is 255), or the arena is full.
    mutating func append(_ name: UnsafeBufferPointer<UInt8>) -> NameRef? {
        guard name.count <= Self.longestName, bytes.count + name.count <= Self.limit else { return nil }
        let ref = NameRef(offset: UInt32(bytes.count), count: UInt16(name.count))
        bytes.append(contentsOf: name)
        return ref
    }

    /// Marks a name's bytes dead (the photo that held it is gone or renamed).
    mutating func release(_ ref: NameRef) { dead += Int(ref.count) }

    func withName<R>(_ ref: NameRef, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try bytes.withUnsafeBufferPointer { all in
            try body(UnsafeBufferPointer(rebasing: all[Int(ref.offset)..<Int(ref.offset) + Int(ref.count)]))
        }
    }

    /// Whether compacting is worth a pass over every photo: more dead bytes than
    /// live ones, and enough of them to matter.
    var wantsCompaction: Bool { dead > 64 << 10 && dead > live }

    /// An empty arena with room for `capacity` bytes (the target of a compaction).
    init(reservingCapacity capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    /// Copies a name of this arena into `other` (compaction: every live name moved
    /// into a fresh arena, the dead bytes left behind).
    func move(_ ref: NameRef, to other: inout NameArena) -> NameRef? {
        withName(ref) { other.append($0) }
    }
}
