// SPDX-License-Identifier: GPL-2.0-or-later

/// What the subscribers were last told of the stacks and duplicate sets: a digest of
/// each kind's sets as each subscribing user sees them. Sets change with measures
/// and hashes arriving and with the library, so they are worked out again at most
/// once a `SetWatch.intervalNanoseconds`, and only after something that could change
/// them (`dirty`).
struct SetWatch {
    static let intervalNanoseconds: UInt64 = 1_000_000_000

    var dirty = true
    var checkedAt: UInt64 = 0
    /// The library's generation at the last look: a change of it makes the sets dirty.
    var generation: UInt64?
    /// By user: the digest of their stacks and of their duplicate sets.
    var digests: [UInt32: (stacks: Int, duplicates: Int)] = [:]
}
