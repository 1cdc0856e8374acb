// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Photos whose capture time the background reader has still to read, by root,
/// newest queued first within a root: a share's photos wait in their own queue
/// while a read on that share is in flight, and the other roots' are taken past
/// them. An id may be queued twice or go stale (the photo changed, left, or its
/// root went offline): `take` asks, for each, whether it is still to be read.
struct CaptureQueue {
    /// Runs of ids (`IDStack`): a first scan queues every photo in id order.
    private var byRoot: [Int32: IDStack] = [:]

    var count: Int { byRoot.values.reduce(0) { $0 + $1.count } }
    var isEmpty: Bool { byRoot.isEmpty }
    /// The roots with photos queued.
    var roots: [Int32] { Array(byRoot.keys) }

    /// True while photos of `root` wait for their capture times.
    func hasPending(root: Int32) -> Bool { byRoot[root]?.isEmpty == false }
    /// What is queued, in no promised order (tests).
    var queued: [Int64] { byRoot.values.flatMap(\.ids) }

    mutating func append(_ id: Int64, root: Int32) { byRoot[root, default: IDStack()].append(id) }

    mutating func removeAll() { byRoot = [:] }

    mutating func drop(root: Int32) { byRoot[root] = nil }

    /// Up to `limit` photos of `root` still to be read, with what `path` says of
    /// each (nil: no longer to be read, dropped).
    mutating func take<Place>(from root: Int32, limit: Int, path: (Int64) -> Place?) -> [(Int64, Place)] {
        guard var ids = byRoot.removeValue(forKey: root) else { return [] }
        var work: [(Int64, Place)] = []
        while work.count < limit, let id = ids.popLast() {
            if let found = path(id) { work.append((id, found)) }
        }
        // An emptied queue gives its runs back.
        if !ids.isEmpty { byRoot[root] = ids }
        return work
    }
}
