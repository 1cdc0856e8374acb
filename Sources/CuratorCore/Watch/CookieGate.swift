// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Read-your-writes (watchman's CookieSync): a sync cookie is answered only once
/// every change before it is applied. The hints before a cookie are applied by the
/// time it is reached; what the event stream alone does not finish at once is
/// numbered work: scans (a new folder is read after its CREATE; lost events are
/// repaired by a rescan) and renames whose other half is awaited. A cookie numbered
/// after such work of its own root waits here until it is done: another root's
/// work (a share whose server hangs) never holds it back.
struct CookieGate {
    private var waiting: [(name: ByteString, root: Int32, sequence: UInt64)] = []

    var isEmpty: Bool { waiting.isEmpty }

    /// A cookie of `root` seen now, numbered `sequence`; `oldestWork` is the number
    /// of the root's oldest work still pending (nil: none). True when it can be
    /// answered at once.
    mutating func arrived(_ name: ByteString, root: Int32, sequence: UInt64, oldestWork: UInt64?) -> Bool {
        if let oldestWork, oldestWork < sequence {
            waiting.append((name, root, sequence))
            return false
        }
        return true
    }

    /// The waiting cookies that no earlier work of their root holds back any more,
    /// taken out; `oldestWork` gives a root's oldest pending work.
    mutating func release(oldestWork: (Int32) -> UInt64?) -> [ByteString] {
        guard !waiting.isEmpty else { return [] }
        var ready: [ByteString] = []
        waiting.removeAll { cookie in
            guard cookie.sequence < oldestWork(cookie.root) ?? .max else { return false }
            ready.append(cookie.name)
            return true
        }
        return ready
    }
}
