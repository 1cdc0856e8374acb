// SPDX-License-Identifier: GPL-2.0-or-later

/// `photo.open`: one photo's bytes as an open descriptor passed with the answer
/// (SCM_RIGHTS), for a client that may not open the file itself (the web gateway).
public struct PhotoOpenRequest: ProtocolRequest {
    public static let name = "photo.open"
    public typealias Result = PhotoOpenResult
    public var photo: Int64?
    /// `normal` … `xx-large`, `preview` or `original`.
    public var what: PhotoOpenWhat?

    public init(photo: Int64, what: PhotoOpenWhat) {
        self.photo = photo
        self.what = what
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        photo = try container.integer(Int64.self, forKey: .photo, literals: NumberLiterals.of(decoder.userInfo))
        what = try container.decodeIfPresent(PhotoOpenWhat.self, forKey: .what)
    }
}

/// Which bytes of a photo: a thumbnail, what a browser shows at a screen's size or
/// at full size, or the file.
public enum PhotoOpenWhat: Codable, Sendable, Hashable {
    case thumbnail(ThumbnailSize)
    /// A JPEG of at most 2560 pixels on its longer side, for a photo larger than
    /// that; else the preview.
    case screen
    /// The file itself when a browser can show it (JPEG, PNG, WebP, GIF, AVIF), else
    /// a JPEG made of it, else the largest thumbnail.
    case preview
    case original

    public init?(name: String) {
        switch name {
        case "screen": self = .screen
        case "preview": self = .preview
        case "original": self = .original
        default:
            guard let size = ThumbnailSize(rawValue: name) else { return nil }
            self = .thumbnail(size)
        }
    }

    public var name: String {
        switch self {
        case .thumbnail(let size): size.rawValue
        case .screen: "screen"
        case .preview: "preview"
        case .original: "original"
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let what = PhotoOpenWhat(name: name) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: """
                "what" is one of normal, large, x-large, xx-large, screen, preview, original
                """)
        }
        self = what
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}

public struct PhotoOpenResult: Codable, Sendable {
    public var photo: Int64
    public var what: PhotoOpenWhat
    /// `ready`: a descriptor came with this answer. `pending`: a thumbnail is being
    /// made (a `thumbnail` event follows). `failed`: nothing to open (`reason`).
    public var state: ThumbnailState
    /// The passed file's media type (`image/png` for a thumbnail).
    public var contentType: String?
    /// The photo's version, `<mtime_ns>-<size>` (a listing's fields of the same
    /// names): it changes when the photo does, so it names the bytes (an HTTP ETag,
    /// an address that never goes stale).
    public var version: String?
    public var reason: String?

    public init(photo: Int64, what: PhotoOpenWhat, state: ThumbnailState, contentType: String? = nil, version: String? = nil,
                reason: String? = nil) {
        self.photo = photo
        self.what = what
        self.state = state
        self.contentType = contentType
        self.version = version
        self.reason = reason
    }
}
