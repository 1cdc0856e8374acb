// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc

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

/// Which directory and file names a root skips: the defaults (hidden directories,
/// `@eaDir`, `.Trash*`, `#recycle`) and the configured globs.
struct NameFilter {
    var patterns: [[CChar]]
    var defaults: Bool
    var types: Set<PhotoType>?

    init(_ config: RootConfig) {
        patterns = config.exclude.map { Array($0.utf8CString) }
        defaults = config.includeDefaultExclusions
        if let names = config.types {
            types = Set(names.compactMap { PhotoType(wireName: $0.lowercased()) ?? PhotoType.detect(name: ByteString("x." + $0)) })
        }
    }

    func skipsDirectory(_ name: ByteString) -> Bool {
        if defaults {
            if name.bytes.first == UInt8(ascii: ".") { return true }
            if name == "@eaDir" || name == "#recycle" { return true }
        }
        return matchesPattern(name)
    }

    /// The photo type of a file name, or nil when the file is not a photo we keep.
    func photoType(_ name: ByteString) -> PhotoType? {
        if name.bytes.first == UInt8(ascii: ".") { return nil }
        guard let type = PhotoType.detect(name: name) else { return nil }
        if let types, !types.contains(type) { return nil }
        if matchesPattern(name) { return nil }
        return type
    }

    private func matchesPattern(_ name: ByteString) -> Bool {
        guard !patterns.isEmpty else { return false }
        return name.withCString { s in patterns.contains { p in p.withUnsafeBufferPointer { fnmatch($0.baseAddress, s, 0) == 0 } } }
    }
}
