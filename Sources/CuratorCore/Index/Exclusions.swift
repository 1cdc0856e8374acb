// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Which directory and file names a root skips. Each pattern is a `Glob` on one
/// name (not a path), matched case-sensitively on the bytes.
///
/// The defaults skip hidden names (which covers `.git`, `.Trash*` and
/// `.Trash-1000`, thumbnails caches and `.DS_Store`), Synology's `@eaDir`
/// thumbnail folders and the `#recycle` bin of NAS shares.
public struct Exclusions: Hashable, Sendable {
    public static let defaultDirectoryNames: [ByteString] = ["@eaDir", "#recycle"]

    public let patterns: [String]
    public let includeDefaults: Bool
    private let globs: [Glob]

    public init(patterns: [String], includeDefaults: Bool = true) {
        self.patterns = patterns
        self.includeDefaults = includeDefaults
        self.globs = patterns.map { Glob(pattern: $0) }
    }

    public static let defaults = Exclusions(patterns: [])

    public func excludesDirectory(name: ByteString) -> Bool {
        if Self.isTrash(name) { return true }
        if includeDefaults && (Self.isHidden(name.bytes) || Self.defaultDirectoryNames.contains(name)) { return true }
        return matchesPattern(name)
    }

    public func excludesFile(name: ByteString) -> Bool {
        name.bytes.withUnsafeBufferPointer { excludesFile(name: $0) }
    }

    /// As above, of a name read in place (a scan's listing).
    public func excludesFile(name: UnsafeBufferPointer<UInt8>) -> Bool {
        // AppleDouble companions (`._IMG_1.JPG`, resource forks written by macOS
        // on foreign filesystems) carry a photo's extension but are never photos.
        if name.starts(with: [UInt8(ascii: "."), UInt8(ascii: "_")]) { return true }
        if includeDefaults && Self.isHidden(name) { return true }
        return !globs.isEmpty && matchesPattern(ByteString(Array(name)))
    }

    private func matchesPattern(_ name: ByteString) -> Bool {
        globs.contains { $0.matches(name) }
    }

    /// The trash folders a root may hold (a recycle folder, the spec's `.Trash` and
    /// `.Trash-$uid`): skipped even with `default_exclusions: false`, so that what was
    /// trashed never comes back as photos to cull.
    public static func isTrash(_ name: ByteString) -> Bool {
        name == ".recycle" || name == ".Trash" || name.bytes.starts(with: Array(".Trash-".utf8))
    }

    private static func isHidden(_ name: some Collection<UInt8>) -> Bool {
        name.first == UInt8(ascii: ".")
    }

    /// Checks configured patterns, so that one that can never match a single name
    /// is reported instead of silently excluding nothing.
    public static func validate(patterns: [String]) throws(InvalidExclusionPattern) {
        for pattern in patterns {
            if pattern.isEmpty {
                throw InvalidExclusionPattern(pattern: pattern, reason: "it is empty")
            }
            if pattern.contains("/") {
                throw InvalidExclusionPattern(pattern: pattern, reason: "it contains '/', but it is matched against one file or folder name")
            }
            if pattern.unicodeScalars.contains(where: { $0.value == 0 }) {
                throw InvalidExclusionPattern(pattern: pattern, reason: "it contains a NUL character")
            }
        }
    }
}

public struct InvalidExclusionPattern: Error, Hashable, Sendable, CustomStringConvertible {
    public let pattern: String
    public let reason: String

    public init(pattern: String, reason: String) {
        self.pattern = pattern
        self.reason = reason
    }

    public var description: String { "invalid exclusion pattern '\(pattern)': \(reason)" }
}
