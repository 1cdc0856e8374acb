// SPDX-License-Identifier: GPL-2.0-or-later

/// `thumbnail`: where the thumbnails of some photos are, or their bytes.
public struct ThumbnailRequest: ProtocolRequest {
    public static let name = "thumbnail"
    public typealias Result = ThumbnailsResult
    /// One photo (`photo`, as `reorder` names one) or several (`ids`), at most
    /// `maxPhotos` in all.
    public var photo: Int64?
    public var ids: [Int64]?
    /// The standard's size; `normal` (128 px) when absent.
    public var size: ThumbnailSize?
    /// Also the PNG's bytes, base64: for a client that cannot open the path (the
    /// system service's cache is the daemon's own).
    public var data: Bool?

    public static let maxPhotos = 1000

    public init(photo: Int64? = nil, ids: [Int64]? = nil, size: ThumbnailSize? = nil, data: Bool? = nil) {
        self.photo = photo
        self.ids = ids
        self.size = size
        self.data = data
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let literals = NumberLiterals.of(decoder.userInfo)
        photo = try container.integer(Int64.self, forKey: .photo, literals: literals)
        ids = try container.integers(Int64.self, forKey: .ids, literals: literals)
        size = try container.decodeIfPresent(ThumbnailSize.self, forKey: .size)
        data = try container.decodeIfPresent(Bool.self, forKey: .data)
    }

    /// The photos asked for, in the order given (`photo` first).
    public var photoIDs: [Int64] { (photo.map { [$0] } ?? []) + (ids ?? []) }
}

/// What became of one photo's thumbnail.
public enum ThumbnailState: String, Codable, Sendable {
    /// Made (by curatord or another program) from the photo as it is now.
    case ready
    /// Queued: a `thumbnail` event follows when it is ready (or has failed).
    case pending
    /// None can be made of the photo as it is now (`reason` says why).
    case failed
    /// A video clip: curatord makes no thumbnail; draw a placeholder.
    case placeholder
}

public struct ThumbnailEntry: Codable, Sendable {
    public var photoId: Int64
    public var state: ThumbnailState
    /// The PNG, when ready and the caller may open it itself (a user service);
    /// `path_raw` when its bytes are not UTF-8.
    public var path: String?
    public var pathRaw: String?
    public var width: Int?
    public var height: Int?
    /// The PNG, base64, when ready and `data` was asked for.
    public var data: String?
    public var reason: String?

    public init(photoId: Int64, state: ThumbnailState, path: String? = nil, pathRaw: String? = nil, width: Int? = nil,
                height: Int? = nil, data: String? = nil, reason: String? = nil) {
        self.photoId = photoId
        self.state = state
        self.path = path
        self.pathRaw = pathRaw
        self.width = width
        self.height = height
        self.data = data
        self.reason = reason
    }
}

public struct ThumbnailsResult: Codable, Sendable {
    public var size: ThumbnailSize
    public var thumbnails: [ThumbnailEntry]
    public init(size: ThumbnailSize, thumbnails: [ThumbnailEntry]) {
        self.size = size
        self.thumbnails = thumbnails
    }
}

/// `status`'s view of the background thumbnailer.
public struct ThumbnailStatus: Codable, Sendable {
    /// Photos still to be looked at (queued in the background or asked for).
    public var backlog: Int
    /// Photos whose background sizes are ready.
    public var ready: Int
    public var failed: Int
    /// The cache the daemon writes to.
    public var cache: String
    /// Why no thumbnails are being made (no worker program, the cache unusable).
    public var note: String?
    public init(backlog: Int, ready: Int, failed: Int, cache: String, note: String? = nil) {
        self.backlog = backlog
        self.ready = ready
        self.failed = failed
        self.cache = cache
        self.note = note
    }
}
