// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Read-your-writes (watchman's CookieSync): a sync cookie is answered only once
/// every change before it is applied. The hints before a cookie are applied by the
/// time it is reached; what the event stream alone does not finish at once is
/// numbered work: scans (a new folder is read after its CREATE; lost events are
/// repaired by a rescan) and renames whose other half is awaited. A cookie numbered
/// after such work waits here until it is done.
struct CookieGate {
    private var waiting: [(name: ByteString, sequence: UInt64)] = []

    var isEmpty: Bool { waiting.isEmpty }

    /// A cookie seen now, numbered `sequence`; `oldestWork` is the number of the
    /// oldest work still pending (nil: none). True when it can be answered at once.
    mutating func arrived(_ name: ByteString, sequence: UInt64, oldestWork: UInt64?) -> Bool {
        if let oldestWork, oldestWork < sequence {
            waiting.append((name, sequence))
            return false
        }
        return true
    }

    /// The waiting cookies that no earlier work holds back any more, taken out.
    mutating func release(oldestWork: UInt64?) -> [ByteString] {
        guard !waiting.isEmpty else { return [] }
        let floor = oldestWork ?? .max
        let ready = waiting.filter { $0.sequence < floor }.map(\.name)
        waiting.removeAll { $0.sequence < floor }
        return ready
    }
}
