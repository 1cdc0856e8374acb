// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// A walk of a root (full: whatever is not seen is gone) or of one new subtree.
struct ScanJob {
    enum Kind: Equatable { case full, subtree(ByteString) }
    var root: Int32
    var kind: Kind
    var pending: [ByteString]
    var seenPhotos = Set<Int64>()
    var seenFolders = Set<ByteString>()
    var startedAt: UInt64 = 0
    var started = false
    var directories = 0
    var files = 0

    init(root: Int32, kind: Kind) {
        self.root = root
        self.kind = kind
        switch kind {
        case .full: pending = [.empty]
        case .subtree(let path): pending = [path]
        }
    }
}

/// Which directory and file names a root skips, and which files are its photos.
struct NameFilter {
    let exclusions: Exclusions
    let types: PhotoTypeFilter

    init(_ config: RootConfig) {
        exclusions = Exclusions(patterns: config.exclude, includeDefaults: config.includeDefaultExclusions)
        // The loader has validated the names; a root without `types` takes every type.
        types = config.types.flatMap { try? PhotoTypeFilter(names: $0) } ?? .all
    }

    func skipsDirectory(_ name: ByteString) -> Bool { exclusions.excludesDirectory(name: name) }

    /// The photo type of a file name, or nil when the file is not a photo we keep.
    func photoType(_ name: ByteString) -> PhotoType? {
        if exclusions.excludesFile(name: name) { return nil }
        return types.detect(name: name)
    }
}
