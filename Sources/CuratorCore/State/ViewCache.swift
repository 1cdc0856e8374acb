// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// The last views resolved, valid while the library has not changed. Listing a
/// page at a time, and selecting by position, then cost no re-sort.
struct ViewCache {
    private var generation: UInt64 = .max
    private var entries: [ViewSpec: ResolvedView] = [:]

    /// Views held (tests).
    var count: Int { entries.count }

    mutating func invalidate() { entries.removeAll(keepingCapacity: true) }

    mutating func lookup(_ spec: ViewSpec, generation: UInt64) -> ResolvedView? {
        if generation != self.generation {
            entries.removeAll(keepingCapacity: true)
            self.generation = generation
            return nil
        }
        return entries[spec]
    }

    mutating func store(_ spec: ViewSpec, view: ResolvedView) {
        // A view of 100 000 photos is 1.2 MB: keep a few, not every sort tried.
        if entries.count >= 4 { entries.removeAll(keepingCapacity: false) }
        entries[spec] = view
    }
}
