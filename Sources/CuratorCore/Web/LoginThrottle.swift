// SPDX-License-Identifier: GPL-2.0-or-later

/// Failed web logins, per user name and per client address: after `freeFailures`
/// failures in a row, each further attempt must wait, twice as long each time up to
/// `ceilingSeconds`. A name that does not exist is throttled as one that does, so
/// that the answers tell nothing apart. A success clears its name and its address.
struct LoginThrottle {
    static let freeFailures = 3
    static let firstDelaySeconds = 1.0
    static let ceilingSeconds = 900.0
    /// Entries kept at most: past it, those no longer holding anyone back go first,
    /// then the oldest, so that a flood of made-up names cannot grow the daemon.
    static let maxEntries = 10_000

    private struct Entry {
        var failures: Int
        /// Monotonic nanoseconds before which this key may not try again.
        var until: UInt64
        var last: UInt64
    }

    private var entries: [String: Entry] = [:]

    static func keys(user: String, client: String?) -> [String] {
        ["user " + user] + (client.map { ["client " + $0] } ?? [])
    }

    /// Seconds `keys` must still wait (the longest of them), or nil when they may try.
    func wait(_ keys: [String], now: UInt64) -> Double? {
        let until = keys.compactMap { entries[$0]?.until }.max() ?? 0
        return until > now ? Double(until - now) / 1e9 : nil
    }

    mutating func failed(_ keys: [String], now: UInt64) {
        for key in keys {
            var entry = entries[key] ?? Entry(failures: 0, until: 0, last: now)
            entry.failures += 1
            entry.last = now
            let over = entry.failures - Self.freeFailures
            if over > 0 {
                let delay = min(Self.firstDelaySeconds * Double(1 << min(over - 1, 30)), Self.ceilingSeconds)
                entry.until = now + UInt64(delay * 1e9)
            }
            entries[key] = entry
        }
        if entries.count > Self.maxEntries { prune(now: now) }
    }

    mutating func succeeded(_ keys: [String]) {
        for key in keys { entries[key] = nil }
    }

    private mutating func prune(now: UInt64) {
        // A key idle for the ceiling has served its purpose.
        entries = entries.filter { $0.value.until > now || now - $0.value.last < UInt64(Self.ceilingSeconds * 1e9) }
        guard entries.count > Self.maxEntries else { return }
        let oldest = entries.sorted { $0.value.last < $1.value.last }.prefix(entries.count - Self.maxEntries * 9 / 10)
        for (key, _) in oldest { entries[key] = nil }
    }
}
