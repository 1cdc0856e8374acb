// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// The view changes the grid's keys make (`/`, `s`, `r`); the page, and so the
/// selection, stays.
enum ViewEdits {
    /// The sorts `s` steps through, in order.
    static let sorts: [SortKey] = [.name, .capture, .mtime, .size, .custom, .rating, .flag, .label]

    /// `/`: the typed filter (a glob or a date range; nil clears it) replaces the one
    /// typed before. The types and marks asked for on the command line stay.
    static func filtered(_ view: ViewSpec, by typed: ViewFilter?) -> ViewSpec {
        var edited = view
        var kept = typed ?? ViewFilter()
        kept.types = view.filter?.types
        kept.ratingMin = view.filter?.ratingMin
        kept.ratingMax = view.filter?.ratingMax
        kept.flags = view.filter?.flags
        kept.labels = view.filter?.labels
        edited.filter = kept.isEmpty ? nil : kept
        return edited
    }

    /// `s`: the next sort, after the last the first; no sort is by name.
    static func nextSort(_ view: ViewSpec) -> ViewSpec {
        let current = view.sort ?? .name
        var edited = view
        edited.sort = sorts[((sorts.firstIndex(of: current) ?? 0) + 1) % sorts.count]
        return edited
    }

    /// `r`: the other order; none is ascending.
    static func reversed(_ view: ViewSpec) -> ViewSpec {
        var edited = view
        edited.order = (view.order ?? .asc) == .asc ? .desc : .asc
        return edited
    }
}
