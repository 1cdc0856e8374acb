// SPDX-License-Identifier: GPL-2.0-or-later

/// A path on the wire. `path` is always text (invalid UTF-8 shown as U+FFFD);
/// `path_raw` carries the exact bytes, base64, only when the name is not valid UTF-8.
public struct WirePath: Codable, Hashable, Sendable {
    public var path: String
    public var pathRaw: String?
    public init(path: String, pathRaw: String? = nil) {
        self.path = path
        self.pathRaw = pathRaw
    }
}

/// One file of a group (issue 15), as a listing shows it.
public struct GroupMemberSummary: Codable, Hashable, Sendable {
    /// `rendered`, `raw`, `video` or `sidecar`.
    public var kind: String
    public var path: String
    public var pathRaw: String?
    public var size: Int64
    public var type: String

    public init(kind: String, path: String, pathRaw: String? = nil, size: Int64, type: String) {
        self.kind = kind
        self.path = path
        self.pathRaw = pathRaw
        self.size = size
        self.type = type
    }
}

/// One photo as clients see it.
public struct PhotoSummary: Codable, Hashable, Sendable {
    /// 1-based position in the view the listing came from; nil outside a view (events).
    public var position: Int?
    public var id: Int64
    public var root: String
    public var path: String
    public var pathRaw: String?
    public var size: Int64
    public var mtimeNs: Int64
    public var type: String
    /// EXIF DateTimeOriginal as `YYYY-MM-DDTHH:MM:SS` (camera local time), when known.
    public var captureTime: String?
    public var `protected`: Bool?
    public var offline: Bool?
    /// This photo's number in the session's ordered selection, when selected.
    public var selected: Int?
    /// True when its thumbnails (`normal` and `large`) are ready (`thumbnail`).
    public var thumbnail: Bool?
    /// A group's files, the shown one first (issue 15); absent for a photo alone.
    public var members: [GroupMemberSummary]?
    /// The bytes of all of a group's files; absent for a photo alone.
    public var totalSize: Int64?

    public init(position: Int? = nil, id: Int64, root: String, path: String, pathRaw: String? = nil, size: Int64,
                mtimeNs: Int64, type: String, captureTime: String? = nil, protected: Bool? = nil,
                offline: Bool? = nil, selected: Int? = nil, thumbnail: Bool? = nil,
                members: [GroupMemberSummary]? = nil, totalSize: Int64? = nil) {
        self.position = position
        self.id = id
        self.root = root
        self.path = path
        self.pathRaw = pathRaw
        self.size = size
        self.mtimeNs = mtimeNs
        self.type = type
        self.captureTime = captureTime
        self.protected = `protected`
        self.offline = offline
        self.selected = selected
        self.thumbnail = thumbnail
        self.members = members
        self.totalSize = totalSize
    }
}

/// A folder section of a listing: a run of photos of one directory on the page,
/// with their count and the folder's total in the whole view.
public struct FolderSection: Codable, Hashable, Sendable {
    public var root: String
    public var path: String
    public var pathRaw: String?
    /// Photos of the section, on this page.
    public var count: Int
    /// Photos of the folder in the whole view, on every page.
    public var total: Int
    /// Position of the section's first photo in the view.
    public var firstPosition: Int
    public init(root: String, path: String, pathRaw: String? = nil, count: Int, total: Int, firstPosition: Int) {
        self.root = root
        self.path = path
        self.pathRaw = pathRaw
        self.count = count
        self.total = total
        self.firstPosition = firstPosition
    }
}
