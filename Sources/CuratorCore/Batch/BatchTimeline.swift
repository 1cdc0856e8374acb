// SPDX-License-Identifier: GPL-2.0-or-later

/// Where a batch's time went, for its last log line: how long the serial start took
/// (the batch journaled, the first chunk planned and its intents committed, while
/// the second core has nothing to do) against the moves that follow, pipelined, and
/// the time spent settling chunks (waiting for their sync, recording their
/// outcomes). What `docs/BENCHMARKS.md` analyses, from any daemon's log.
struct BatchTimeline {
    let started: UInt64
    var journaled: UInt64?
    var firstMove: UInt64?
    /// Nanoseconds in `finish` of every chunk.
    var finishing: UInt64 = 0

    /// " in 1.093 s (journaled at 0.052 s, first move at 0.081 s; 9 chunks, 0.071 s settling them)".
    func summary(chunks: Int, now: UInt64) -> String {
        var parts: [String] = []
        if let journaled { parts.append("journaled at \(Self.seconds(journaled &- started))") }
        if let firstMove { parts.append("first move at \(Self.seconds(firstMove &- started))") }
        let detail = parts.joined(separator: ", ")
        let settling = "\(chunks) chunk\(chunks == 1 ? "" : "s"), \(Self.seconds(finishing)) settling them"
        return " in \(Self.seconds(now &- started)) (\(detail.isEmpty ? "" : detail + "; ")\(settling))"
    }

    /// Nanoseconds as seconds with three decimals: "0.052 s".
    static func seconds(_ nanoseconds: UInt64) -> String {
        let milliseconds = (nanoseconds + 500_000) / 1_000_000
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) s"
    }
}
