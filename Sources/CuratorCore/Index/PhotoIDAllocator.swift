// SPDX-License-Identifier: GPL-2.0-or-later

/// Hands out photo ids. Ids are never reused, not even those of photos that left
/// (a trashed photo keeps its id for an undo): the store records how far ids may
/// have been handed out, a block ahead, so that a crash cannot hand one out twice.
struct PhotoIDAllocator {
    /// How far ahead of the next id the store's reservation is moved at a time:
    /// one store write per block of new photos, not one per photo.
    static let block: Int64 = 4096

    /// The next id to hand out.
    private(set) var next: Int64
    /// Ids below this may have been handed out (the store holds it).
    private(set) var reserved: Int64

    /// `next`: the first id free after what the store holds (its largest id and
    /// its reservation).
    init(next: Int64) {
        self.next = next
        reserved = next
    }

    /// The next id; when it reaches the reservation, `reserve` records a new one
    /// in the store before the id is handed out.
    mutating func take(reserve: (Int64) throws -> Void) rethrows -> Int64 {
        if next >= reserved {
            reserved = next + Self.block
            try reserve(reserved)
        }
        defer { next += 1 }
        return next
    }

    /// Whether `id` was handed out already (a photo coming back from the trash
    /// may take its former id only then).
    func handedOut(_ id: Int64) -> Bool { id < next }

    /// Back to a state `take` left, when the transaction that took ids rolls back.
    mutating func restore(next: Int64, reserved: Int64) {
        self.next = next
        self.reserved = reserved
    }
}
