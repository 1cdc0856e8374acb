// SPDX-License-Identifier: GPL-2.0-or-later

public enum SortKey: String, Codable, Sendable, CaseIterable {
    case capture, name, mtime, size, custom
    /// By marks (docs/XMP.md): stars (none as 0), flag (reject, none, pick),
    /// colour label (red, yellow, green, blue, purple, then none).
    case rating, flag, label
}

public enum SortOrder: String, Codable, Sendable {
    case asc, desc
}

/// Narrows a view: a glob on the path, photo types, a capture-date range (inclusive,
/// `YYYY-MM-DD` or full `YYYY-MM-DDTHH:MM:SS`).
public struct ViewFilter: Codable, Hashable, Sendable {
    public var glob: String?
    public var types: [String]?
    public var from: String?
    public var to: String?
    /// List the sidecars whose image is gone instead of the photos (issue 15).
    public var orphans: Bool?
    /// Only the photos in a set of exact duplicates, each listed with
    /// its set and whether it is the set's keeper.
    public var duplicates: Bool?
    /// Only the photos in a stack (a burst: one camera, seconds apart, alike),
    /// each listed with its stack, the stack's count and whether it is the keeper.
    public var stacks: Bool?
    /// Each stack as one position, its keeper's, listed with the stack's count.
    public var collapseStacks: Bool?
    /// Only photos with at least (`rating_min`) or at most (`rating_max`) this many
    /// stars, 0 to 5 (a photo nothing rates has 0).
    public var ratingMin: Int?
    public var ratingMax: Int?
    /// Only photos with one of these flags (`pick`, `reject`, `none`).
    public var flags: [String]?
    /// Only photos with one of these colour labels (or `none`).
    public var labels: [String]?
    public init(glob: String? = nil, types: [String]? = nil, from: String? = nil, to: String? = nil, orphans: Bool? = nil,
                duplicates: Bool? = nil, stacks: Bool? = nil, collapseStacks: Bool? = nil, ratingMin: Int? = nil,
                ratingMax: Int? = nil, flags: [String]? = nil, labels: [String]? = nil) {
        self.duplicates = duplicates
        self.stacks = stacks
        self.collapseStacks = collapseStacks
        self.ratingMin = ratingMin
        self.ratingMax = ratingMax
        self.flags = flags
        self.labels = labels
        self.glob = glob
        self.types = types
        self.from = from
        self.to = to
        self.orphans = orphans
    }
    public var isEmpty: Bool {
        glob == nil && (types ?? []).isEmpty && from == nil && to == nil && orphans != true && duplicates != true && stacks != true
            && collapseStacks != true && !hasMarks
    }

    /// Whether it narrows by marks (stars, flags, labels).
    public var hasMarks: Bool {
        ratingMin != nil || ratingMax != nil || !(flags ?? []).isEmpty || !(labels ?? []).isEmpty
    }
}

/// What a session looks at: a root (or all roots), optionally one folder of it
/// (with or without its sub-folders), a filter and a sort.
public struct ViewSpec: Codable, Hashable, Sendable {
    public var root: String?
    public var folder: String?
    public var folderRaw: String?
    public var recursive: Bool?
    public var filter: ViewFilter?
    public var sort: SortKey?
    public var order: SortOrder?

    public init(root: String? = nil, folder: String? = nil, folderRaw: String? = nil, recursive: Bool? = nil,
                filter: ViewFilter? = nil, sort: SortKey? = nil, order: SortOrder? = nil) {
        self.root = root
        self.folder = folder
        self.folderRaw = folderRaw
        self.recursive = recursive
        self.filter = filter
        self.sort = sort
        self.order = order
    }

    public var hasFilter: Bool { !(filter?.isEmpty ?? true) }
}
