// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// A walk of a root (full: whatever is not seen is gone) or of one new subtree.
struct ScanJob {
    enum Kind: Equatable { case full, subtree(ByteString) }
    var root: Int32
    var kind: Kind
    /// Orders the job against sync cookies (see Watcher+Cookies).
    var sequence: UInt64
    var pending: [ByteString]
    var seenPhotos = Set<Int64>()
    var seenFolders = Set<ByteString>()
    /// Directories that could not be read: what is indexed below them is kept.
    var unreadable: [ByteString] = []
    /// Sync cookies in the root's listing, answered when a full scan is done.
    var cookies: [ByteString] = []
    /// The root directory when the scan began: if another one stands at the path
    /// when it ends (unmounted meanwhile), what the scan did not see is not gone.
    var rootDirectory: WatchTable.DirectoryKey?
    var startedAt: UInt64 = 0
    var started = false
    var directories = 0
    var files = 0

    init(root: Int32, kind: Kind, sequence: UInt64) {
        self.root = root
        self.kind = kind
        self.sequence = sequence
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
