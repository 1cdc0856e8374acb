// SPDX-License-Identifier: GPL-2.0-or-later

/// What the subscribers were last told of the stacks and duplicate sets: a digest of
/// each kind's sets as each subscribing user sees them. Sets change with measures
/// and hashes arriving and with the library, so they are worked out again at most
/// once a `SetWatch.intervalNanoseconds`, and only after something that could change
/// them (`dirty`). Working them out takes a quarter of a second over a large library
/// (outside the lock, at idle priority; while the thumbnailer measures photo after
/// photo they change all the time): the next look waits at least ten times as long
/// as the last took, so that it takes a tenth of a core at most.
struct SetWatch {
    static let intervalNanoseconds: UInt64 = 1_000_000_000
    static let share: UInt64 = 10

    var dirty = true
    /// When the next look may be.
    private(set) var nextAt: UInt64 = 0
    /// The library's generation at the last look: a change of it makes the sets dirty.
    var generation: UInt64?
    /// By user: the digest of their stacks and of their duplicate sets.
    var digests: [UInt32: (stacks: Int, duplicates: Int)] = [:]

    /// A look began at `start` and ended at `end`.
    mutating func worked(since start: UInt64, until end: UInt64) {
        nextAt = start + max(Self.intervalNanoseconds, (end &- start) * Self.share)
    }
}
