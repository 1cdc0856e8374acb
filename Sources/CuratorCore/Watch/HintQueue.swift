// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Hints in the order their events came, each path's repeated hints merged into
/// the first one still waiting (so a burst of 50 000 files is 50 000 entries, not
/// 100 000 events). A hint is not merged across a rename or a root check of its
/// root (`Hint.isBarrier`): what came after those must be applied after them.
///
/// Plain value, no locking: `PendingHints` shares it between the threads.
struct HintQueue {
    private struct PathKey: Hashable {
        var root: Int32
        var path: ByteString
    }

    /// Waiting hints; `entries[i]` has the absolute position `base + i`.
    private var entries: [Hint] = []
    private var base = 0
    /// Per root: the absolute position of the hint each path would be merged into.
    private var mergeable: [Int32: [ByteString: Int]] = [:]
    /// Set when events were lost (a kernel queue overflow, or more waiting than
    /// `limit`): every hint queued before is moot, since a rescan reads the disk afresh.
    private(set) var lost: String?
    /// Past this many waiting hints, they are dropped and the loss reported: memory
    /// stays bounded whatever the rate of events, and a rescan catches up.
    let limit: Int

    init(limit: Int = 200_000) {
        self.limit = limit
    }

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty && lost == nil }

    mutating func append(_ hint: Hint) {
        if case .path(let path, let flags) = hint.kind {
            if let position = mergeable[hint.root]?[path], position >= base,
               case .path(let queuedPath, let queuedFlags) = entries[position - base].kind, queuedPath == path {
                entries[position - base].kind = .path(path, queuedFlags.merged(with: flags))
                return
            }
            mergeable[hint.root, default: [:]][path] = base + entries.count
        } else if hint.isBarrier {
            mergeable[hint.root] = nil
        }
        entries.append(hint)
        if entries.count > limit { eventsLost("more than \(limit) changes waiting to be looked at") }
    }

    /// Everything queued so far is moot: drops it and records why.
    mutating func eventsLost(_ reason: String) {
        base += entries.count
        entries.removeAll()
        mergeable.removeAll()
        lost = reason
    }

    /// The loss (if any) and the oldest `max` hints, taken out of the queue.
    mutating func take(max: Int) -> (lost: String?, hints: [Hint]) {
        let reason = lost
        lost = nil
        let n = Swift.min(max, entries.count)
        let taken = Array(entries.prefix(n))
        if n == entries.count {
            entries.removeAll(keepingCapacity: entries.count < 65536)
            mergeable.removeAll(keepingCapacity: true)
        } else {
            // Positions below the new base are stale; `append` checks for that.
            entries.removeFirst(n)
        }
        base += n
        return (reason, taken)
    }
}
