// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// Whom a view was computed for: every photo (root, or a user who may list every
/// folder it covers: the same view, computed once), or one user's visible photos.
enum ViewAudience: Hashable {
    case everything
    case user(UInt32)
}

/// The last views resolved, valid while the library has not changed (and, for a
/// view of one user's photos, while permissions have not). Listing a page at a
/// time, and selecting by position, then cost no re-sort.
struct ViewCache {
    private struct Key: Hashable {
        var spec: ViewSpec
        var audience: ViewAudience
    }

    private var generation: UInt64 = .max
    private var entries: [Key: (view: ResolvedView, access: UInt64)] = [:]

    /// Views held (tests).
    var count: Int { entries.count }

    mutating func invalidate() { entries.removeAll(keepingCapacity: true) }

    mutating func lookup(_ spec: ViewSpec, for audience: ViewAudience = .everything, generation: UInt64,
                         accessGeneration: UInt64 = 0) -> ResolvedView? {
        if generation != self.generation {
            entries.removeAll(keepingCapacity: true)
            self.generation = generation
            return nil
        }
        guard let entry = entries[Key(spec: spec, audience: audience)] else { return nil }
        if audience != .everything && entry.access != accessGeneration { return nil }
        return entry.view
    }

    /// Capture times read in the background changed rows in place (`before` → `after`
    /// is only that): a view whose order and members do not hang on capture times is
    /// still right, so a cold start's captures no longer re-sort every view a few
    /// times a second (a select by position at a million photos re-sorted them all).
    mutating func captureTimesChanged(from before: UInt64, to after: UInt64) {
        if generation == before {
            entries = entries.filter { !$0.key.spec.dependsOnCaptureTimes }
        } else {
            entries.removeAll(keepingCapacity: true)
        }
        generation = after
    }

    mutating func store(_ spec: ViewSpec, for audience: ViewAudience = .everything, view: ResolvedView, accessGeneration: UInt64 = 0) {
        // A view of 100 000 photos is 400 kB: keep a few, not every sort tried.
        if entries.count >= 4 { entries.removeAll(keepingCapacity: false) }
        entries[Key(spec: spec, audience: audience)] = (view, accessGeneration)
    }
}

extension ViewSpec {
    /// Its order or its members change when a capture time does.
    var dependsOnCaptureTimes: Bool { sort == .capture || filter?.from != nil || filter?.to != nil }
}
