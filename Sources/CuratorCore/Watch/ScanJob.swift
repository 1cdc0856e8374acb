// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// A walk of a root (full: whatever is not seen is gone) or of one new subtree.
///
/// A class: the crawler mutates the job in place, step after step. A struct kept
/// in the queue while a copy of it is worked on would share `seenPhotos`, and the
/// first insert of every step would copy the whole set (the start-up scan of a
/// million photos was quadratic for that, issue 14).
final class ScanJob {
    enum Kind: Equatable { case full, subtree(ByteString) }
    let kind: Kind
    /// Orders the job against sync cookies (see `CookieGate`) and other roots' scans.
    let sequence: UInt64
    /// Directories still to read, relative to the root (a stack: depth first).
    var pending: [ByteString]
    /// A bitmap over ids (`IDSet`): a `Set<Int64>` of a million photos was 16–32 MB of the scan's peak.
    var seenPhotos = IDSet()
    /// New files of a share that may be photos renamed on the server (`HeldArrivals`).
    var arrivals = HeldArrivals()
    var seenFolders = Set<ByteString>()
    /// Directories that could not be read: what is indexed below them is kept.
    var unreadable: [ByteString] = []
    /// Sync cookies in the root's listing, answered when a full scan is done.
    var cookies: [ByteString] = []
    /// The root directory when the scan began: if another one stands at the path
    /// when it ends (unmounted meanwhile), what the scan did not see is not gone.
    var rootDirectory: WatchTable.DirectoryKey?
    /// Where the root groups files: the folders that had rows in the index when
    /// the job started. The walker plans the groups of the others (new to the
    /// index: every folder of a cold start) as it lists them (`FolderGroupPlan`);
    /// planning a folder the index knows would be work for nothing. Set once,
    /// before the first walk, and only read after.
    var indexedFolders: Set<ByteString>?
    /// A full scan of a root with no photo when it started (a first start, a root
    /// added): no file it finds can be a photo renamed while the daemon was away, so
    /// none is looked up by inode for that (a hash probe per file of a cold start, 2.5 %
    /// of the index thread's samples). Set once, before the first walk.
    var adoptsRenamed = true
    var startedAt: UInt64 = 0
    var started = false
    var directories = 0
    var files = 0

    init(kind: Kind, sequence: UInt64, coalescesAdded: Bool = false) {
        self.kind = kind
        self.sequence = sequence
        self.coalescesAdded = coalescesAdded
        switch kind {
        case .full: pending = [.empty]
        case .subtree(let path): pending = [path]
        }
    }

    var isFull: Bool { kind == .full }
    /// A root's first full scan (at start-up, once added, back online): the photos
    /// it adds are told to subscribers as one `scanned` event per folder, not one
    /// `added` event each. Later scans (rescans, polls) report changes one by one.
    let coalescesAdded: Bool

    /// An event applied while the scan runs found a photo at `path`: it exists, and
    /// so do the folders above it (a full scan's end must not remove them).
    func saw(_ path: ByteString, photo id: Int64?) {
        if let id { seenPhotos.insert(id) }
        sawFolder(path.parent)
    }

    /// A folder renamed while the scan runs: what the scan saw of it, and what it
    /// has still to read of it, are under the new path now.
    func folderMoved(from: ByteString, to: ByteString) {
        pending = pending.map { $0.isWithin(from) ? to.appending($0.relative(to: from)) : $0 }
        let moved = seenFolders.filter { $0.isWithin(from) }
        for folder in moved { seenFolders.insert(to.appending(folder.relative(to: from))) }
        sawFolder(to)
    }

    private func sawFolder(_ path: ByteString) {
        var folder = path
        // The scan reads a folder's parents before it: once one is known, so are they.
        while seenFolders.insert(folder).inserted && !folder.isEmpty { folder = folder.parent }
    }
}

/// Which directory and file names a root skips, and which files are its photos.
struct NameFilter {
    let exclusions: Exclusions
    let types: PhotoTypeFilter
    /// Sidecars are kept too, where the root groups files (XMP sidecars everywhere).
    let sidecars: Bool

    init(_ config: RootConfig) {
        sidecars = config.groups
        exclusions = Exclusions(patterns: config.exclude, includeDefaults: config.includeDefaultExclusions)
        // The loader has validated the names; a root without `types` takes every type.
        types = config.types.flatMap { try? PhotoTypeFilter(names: $0) } ?? .all
    }

    func skipsDirectory(_ name: ByteString) -> Bool { exclusions.excludesDirectory(name: name) }

    /// The type of a file name, or nil when the file is not a photo (or, where the
    /// root groups files, a sidecar) we keep.
    func photoType(_ name: ByteString) -> PhotoType? {
        name.bytes.withUnsafeBufferPointer { photoType($0) }
    }

    /// As above, of a name read in place (a scan's listing).
    func photoType(_ name: UnsafeBufferPointer<UInt8>) -> PhotoType? {
        if exclusions.excludesFile(name: name) { return nil }
        // One reading of the extension (where the root groups, every file that was
        // not a photo, sidecars and other files alike, was read twice).
        guard let type = PhotoType.detectFile(name: name) else { return nil }
        // A root that does not group keeps its XMP sidecars all the same: their
        // marks are its photos' (docs/XMP.md, "A root without groups").
        if type.isSidecar { return sidecars || type == .xmp ? type : nil }
        return types.contains(type) ? type : nil
    }
}
