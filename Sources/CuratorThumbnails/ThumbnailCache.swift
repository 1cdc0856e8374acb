// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// Where a user's thumbnails are, by the thumbnail standard: `$XDG_CACHE_HOME/thumbnails`
/// (or `~/.cache/thumbnails`), one directory per size, each thumbnail named by the
/// MD5 of its file's URI; failures under `fail/<program>-<version>/`; our previews
/// for browsers under `curatord-preview/` and `curatord-screen/` (`PreviewKind`). Paths only:
/// `ThumbnailDirectory` reads and writes.
public struct ThumbnailCache: Hashable, Sendable {
    /// The `thumbnails` directory.
    public let root: ByteString

    public init(root: ByteString) { self.root = root }

    /// The user's cache: `$XDG_CACHE_HOME/thumbnails` when that is set to an absolute
    /// path (the base directory specification ignores a relative one), else
    /// `$HOME/.cache/thumbnails`; nil when neither is known.
    public static func user(environment: [String: String]) -> ThumbnailCache? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return ThumbnailCache(root: ByteString(cache).appending("thumbnails"))
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return ThumbnailCache(root: ByteString(home).appending(".cache/thumbnails"))
    }

    /// `<md5 of the URI>.png`.
    public static func fileName(for uri: FileURI) -> ByteString { ByteString(uri.thumbnailHash + ".png") }

    /// `large/<md5>.png`: where under the root a thumbnail of this size lives.
    public static func relativePath(for uri: FileURI, size: ThumbnailSize) -> ByteString {
        ByteString(size.directoryName).appending(fileName(for: uri))
    }

    /// `fail/curatord-<version>/<md5>.png`.
    public static func relativeFailPath(for uri: FileURI) -> ByteString {
        ByteString("fail").appending(ByteString(ThumbnailKeys.failDirectory)).appending(fileName(for: uri))
    }

    /// `curatord-preview/<md5>.jpg`, `curatord-screen/<md5>.jpg`.
    public static func relativePreviewPath(for uri: FileURI, kind: PreviewKind = .full) -> ByteString {
        ByteString(kind.directoryName).appending(previewFileName(for: uri))
    }

    static func previewFileName(for uri: FileURI) -> ByteString { ByteString(uri.thumbnailHash + ".jpg") }

    public func previewPath(for uri: FileURI, kind: PreviewKind = .full) -> ByteString {
        root.appending(Self.relativePreviewPath(for: uri, kind: kind))
    }

    public func path(for uri: FileURI, size: ThumbnailSize) -> ByteString {
        root.appending(Self.relativePath(for: uri, size: size))
    }

    public func failPath(for uri: FileURI) -> ByteString { root.appending(Self.relativeFailPath(for: uri)) }
}
