// SPDX-License-Identifier: GPL-2.0-or-later

/// When the view's shape (every position's id) is listed again. Events come in
/// bursts: each asks for a listing a little later, and a burst makes one. One
/// listing is on its way at a time; what changed meanwhile lists once more after it.
struct ShapeRefresh {
    /// When the next listing is due (monotonic nanoseconds).
    private(set) var due: UInt64?
    private(set) var inFlight = false
    private var again = false
    /// How long a listing waits for the rest of a burst.
    static let burst: UInt64 = 40_000_000

    /// A listing shortly (`soon`: at once); an earlier due time is kept.
    mutating func schedule(soon: Bool = false, now: UInt64) {
        let wanted = now + (soon ? 0 : Self.burst)
        if due == nil || wanted < (due ?? 0) { due = wanted }
    }

    func isDue(now: UInt64) -> Bool { due.map { now >= $0 } ?? false }

    /// A listing is to go out: true when it may; false when one is on its way, and
    /// another follows it.
    mutating func begin() -> Bool {
        due = nil
        guard !inFlight else {
            again = true
            return false
        }
        inFlight = true
        return true
    }

    /// The listing's answer came.
    mutating func finish(now: UInt64) {
        inFlight = false
        if again {
            again = false
            schedule(soon: true, now: now)
        }
    }

    /// How long poll may sleep before the due listing, in ms (at most a second); nil
    /// when none is due.
    func pollTimeout(now: UInt64) -> Int32? {
        guard let due else { return nil }
        return due > now ? Int32(min(1000, (due - now) / 1_000_000 + 1)) : 0
    }
}
