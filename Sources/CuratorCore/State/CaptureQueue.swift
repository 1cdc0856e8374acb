// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Photos whose capture time the background reader has still to read, newest
/// queued first. An id may be queued twice or go stale (the photo changed, left,
/// or its root went offline): `take` asks, for each, whether it is still to be read.
struct CaptureQueue {
    private var ids: [Int64] = []

    var count: Int { ids.count }
    var isEmpty: Bool { ids.isEmpty }
    /// What is queued, in no promised order (tests).
    var queued: [Int64] { ids }

    mutating func append(_ id: Int64) { ids.append(id) }

    mutating func removeAll() { ids = [] }

    /// Up to `limit` photos still to be read, with what `path` says of each (nil:
    /// no longer to be read, dropped).
    mutating func take(limit: Int, path: (Int64) -> ByteString?) -> [(Int64, ByteString)] {
        var work: [(Int64, ByteString)] = []
        while work.count < limit, let id = ids.popLast() {
            if let found = path(id) { work.append((id, found)) }
        }
        // A cold scan queues every photo (800 kB at 100 000); popLast keeps that capacity.
        if ids.isEmpty { ids = [] }
        return work
    }
}
