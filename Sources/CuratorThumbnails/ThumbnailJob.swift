// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials

/// One job for `curatord-thumbnailer`: make (or find) the thumbnails of one file.
///
/// On the wire, one JSON object per message (a SOCK_SEQPACKET socket: the daemon's
/// way) or per line (a pipe: scripts and the benchmark). Over a socket, the job may
/// carry two descriptors (SCM_RIGHTS): the file, open for reading, then the
/// `thumbnails` directory; the worker then opens nothing by name. Otherwise `path`
/// and `cache` name them. docs/THUMBNAILS.md has the whole exchange.
///
///     {"id":7,"uri":"file:///home/ann/Pictures/IMG_0001.JPG","sizes":["normal","large"],
///      "type":"jpeg","mtime":1717171717,"size":4194304}
public struct ThumbnailJob: Codable, Equatable, Sendable {
    /// Echoed in the result.
    public var id: Int
    /// The file's URI (`FileURI`), which the thumbnails are named and stamped after.
    public var uri: String
    /// The sizes wanted; each is found valid, made, or the job fails as a whole.
    public var sizes: [ThumbnailSize]
    /// The photo type's wire name (`jpeg`, `cr2`, `mp4`, ...) when the sender knows
    /// it; otherwise the worker goes by the name's extension and the content.
    public var type: String?
    /// What the sender believes the file's mtime (seconds) and size are. The worker
    /// stamps what `fstat` says, and reports `changed` when it differs.
    public var mtime: Int64?
    public var size: UInt64?
    /// The file, when no descriptor comes with the job (`path_raw`: base64 of the
    /// bytes, for a name that is not UTF-8). Default: the path in `uri`.
    public var path: String?
    public var pathRaw: String?
    /// The `thumbnails` directory, when no descriptor comes with the job.
    public var cache: String?
    public var cacheRaw: String?
    /// Also measure the thumbnails for the stack search (`ThumbnailLook`).
    public var look: Bool?
    /// Also make the photo's full-size preview for browsers (`PreviewJPEG`), for a
    /// photo a browser cannot show (a RAW, HEIF, TIFF).
    public var preview: Bool?
    /// Also make the photo's screen-sized preview (`PreviewKind.screen`), for a
    /// photo larger than that.
    public var screen: Bool?

    public init(id: Int, uri: FileURI, sizes: [ThumbnailSize], type: String? = nil, mtime: Int64? = nil, size: UInt64? = nil) {
        self.id = id
        self.uri = uri.text
        self.sizes = sizes
        self.type = type
        self.mtime = mtime
        self.size = size
    }

    enum CodingKeys: String, CodingKey {
        case id, uri, sizes, type, mtime, size, path, cache, look, preview, screen
        case pathRaw = "path_raw"
        case cacheRaw = "cache_raw"
    }

    /// Names the file and the cache by path (for a pipe, where no descriptor can pass).
    public mutating func name(file: ByteString, cache: ByteString) {
        (path, pathRaw) = Self.wire(file)
        (self.cache, cacheRaw) = Self.wire(cache)
    }

    /// Whether the job asks for the preview of `kind`.
    public func wants(_ kind: PreviewKind) -> Bool { (kind == .full ? preview : screen) == true }

    /// Asks for the previews of `kinds` (and no other).
    public mutating func ask(previews kinds: Set<PreviewKind>) {
        preview = kinds.contains(.full) ? true : nil
        screen = kinds.contains(.screen) ? true : nil
    }

    public var filePath: ByteString? { Self.bytes(path, pathRaw) }
    public var cachePath: ByteString? { Self.bytes(cache, cacheRaw) }

    static func wire(_ path: ByteString) -> (String, String?) {
        if let text = path.utf8String { return (text, nil) }
        return (path.lossyString, path.base64)
    }

    static func bytes(_ text: String?, _ raw: String?) -> ByteString? {
        if let raw { return ByteString(base64: raw) }
        return text.map { ByteString($0) }
    }
}

/// Why a job failed. The raw values are stable: the daemon keeps them and shows them.
public enum ThumbnailFailure: String, Codable, Sendable, CaseIterable {
    /// The image is larger (in pixels) than the worker decodes.
    case tooLarge = "too_large"
    /// No decoder knows the format.
    case unsupported
    /// The decoder gave up: a damaged or truncated file.
    case corrupt
    /// A RAW file without an embedded preview.
    case noPreview = "no_preview"
    /// Our fail record says so already (until the file changes).
    case previouslyFailed = "previously_failed"
    /// More CPU time than a job may take.
    case timeout
    /// The worker died on this file (a decoder crash, or its memory bound).
    case crashed
    /// Not a regular file, or it could not be opened or read.
    case unreadable
    /// The thumbnail could not be written to the cache.
    case cacheWrite = "cache_write"
    /// The job itself was malformed.
    case badJob = "bad_job"
    /// The worker took longer than the client waits (wall clock: the machine may be
    /// busy, so nothing is recorded).
    case noAnswer = "no_answer"

    /// Whether the file is at fault, so that a fail record keeps anyone from trying
    /// again until it changes.
    public var isFileFault: Bool {
        switch self {
        case .tooLarge, .unsupported, .corrupt, .noPreview, .timeout, .crashed: true
        case .previouslyFailed, .unreadable, .cacheWrite, .badJob, .noAnswer: false
        }
    }
}

/// What became of the preview a job asked for.
public enum PreviewOutcome: String, Codable, Sendable {
    /// Made now.
    case written
    /// A valid one was there.
    case reused
    /// None is made of this photo. A full one: no embedded preview of at least
    /// `xx-large`, an image smaller than that, or making it failed (the `xx-large`
    /// thumbnail stands in). A screen one: the photo is no larger than a screen, or
    /// making it failed (the full-size preview stands in).
    case unavailable
}

/// What became of one size.
public enum ThumbnailOutcome: String, Codable, Sendable {
    /// Made now.
    case written
    /// A valid one was there (ours, or another program's).
    case reused
}

/// The answer to one job, one JSON object per message or line:
///
///     {"id":7,"status":"written","sizes":{"normal":"written","large":"reused"},
///      "mtime":1717171717,"size":4194304,"width":4000,"height":3000,"ms":41}
///     {"id":8,"status":"failed","code":"too_large","reason":"60000x60000 pixels ...","recorded":true}
public struct ThumbnailResult: Codable, Equatable, Sendable {
    public enum Status: String, Codable, Sendable {
        /// At least one size was made; the others were valid already.
        case written
        /// Every size was valid already.
        case reused
        /// A video clip with no thumbnail from another program: nothing was written
        /// (a placeholder in the shared cache would keep a file manager from ever
        /// making a real one); clients draw `Placeholder.video`.
        case placeholder
        case failed
    }

    public var id: Int
    public var status: Status
    public var sizes: [ThumbnailSize: ThumbnailOutcome]?
    /// The file as it was stamped (fstat).
    public var mtime: Int64?
    public var size: UInt64?
    /// The original image's size, upright, when known.
    public var width: Int?
    public var height: Int?
    /// The file differed from the job's `mtime`/`size`.
    public var changed: Bool?
    public var code: ThumbnailFailure?
    public var reason: String?
    /// A fail record was written.
    public var recorded: Bool?
    /// Time spent on the job, milliseconds.
    public var milliseconds: Int?
    /// The thumbnails' measures, when the job asked for them and they could be made.
    public var look: ThumbnailLook?
    /// What became of the previews, when the job asked for them and its thumbnails
    /// are there.
    public var preview: PreviewOutcome?
    public var screen: PreviewOutcome?

    public func outcome(_ kind: PreviewKind) -> PreviewOutcome? { kind == .full ? preview : screen }

    public mutating func record(_ outcome: PreviewOutcome, for kind: PreviewKind) {
        if kind == .full { preview = outcome } else { screen = outcome }
    }

    public init(id: Int, status: Status) {
        self.id = id
        self.status = status
    }

    public static func failure(id: Int, _ code: ThumbnailFailure, _ reason: String, recorded: Bool = false) -> ThumbnailResult {
        var result = ThumbnailResult(id: id, status: .failed)
        result.code = code
        result.reason = reason
        result.recorded = recorded
        return result
    }

    enum CodingKeys: String, CodingKey {
        case id, status, sizes, mtime, size, width, height, changed, code, reason, recorded, look, preview, screen
        case milliseconds = "ms"
    }
}

extension ThumbnailSize: CodingKeyRepresentable {}

/// The worker's first message, once it is ready for jobs. A worker that dies before
/// sending it is broken (not the file's fault): the client reports that instead of
/// blaming the next file.
public struct ThumbnailerHello: Codable, Equatable, Sendable {
    public var ready: Bool
    public var pid: Int32
    public var version: String
    /// libvips' version.
    public var vips: String

    public init(pid: Int32, version: String, vips: String) {
        ready = true
        self.pid = pid
        self.version = version
        self.vips = vips
    }
}
