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

/// One of a group's other files (issue 15), as a photo's record shows it. A group
/// is of one folder, so a member is named, not pathed: its path is the record's
/// folder and this name; the shown file is not one of them (its facts are the
/// record's own).
public struct GroupMemberSummary: Codable, Hashable, Sendable {
    /// `rendered`, `raw`, `video` or `sidecar`.
    public var kind: String
    /// The file's name in the photo's folder.
    public var name: String
    /// Base64 of the name's bytes, only when they are not valid UTF-8.
    public var nameRaw: String?
    public var size: Int64
    public var type: String

    public init(kind: String, name: String, nameRaw: String? = nil, size: Int64, type: String) {
        self.kind = kind
        self.name = name
        self.nameRaw = nameRaw
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
    /// EXIF DateTimeOriginal (else DateTimeDigitized, else DateTime) as
    /// `YYYY-MM-DDTHH:MM:SS` (camera local time), when known.
    public var captureTime: String?
    /// The milliseconds past `captureTime`'s second (SubSecTimeOriginal, or the
    /// sub-seconds of the tag the time came from), when recorded.
    public var captureMs: Int?
    /// The camera clock's offset from UTC (`+02:00`: OffsetTimeOriginal, or the
    /// offset of the tag the time came from), when recorded.
    public var captureOffset: String?
    public var `protected`: Bool?
    public var offline: Bool?
    /// This photo's number in the session's ordered selection, when selected.
    public var selected: Int?
    /// True when its thumbnails (`normal` and `large`) are ready (`thumbnail`).
    public var thumbnail: Bool?
    /// A group's shown file's kind (`rendered` or `raw`), with `members`; absent for a photo alone.
    public var kind: String?
    /// A group's other files (issue 15), photos first, then sidecars; absent for a photo alone.
    public var members: [GroupMemberSummary]?
    /// The bytes of all of a group's files; absent for a photo alone.
    public var totalSize: Int64?
    /// In a view of duplicates: the id of the photo's set, and whether it is the copy kept.
    public var duplicateSet: Int64?
    public var keeper: Bool?
    /// In a view of stacks (or with stacks collapsed): the photo's stack, its
    /// count of frames, and whether it is the frame kept.
    public var stack: Int64?
    public var stackCount: Int?
    public var stackKeeper: Bool?
    /// With the keeper: why it is kept (`rated`, `sharpest`, `first`).
    public var stackReason: String?
    /// Its stars (0 to 5) when something says (docs/XMP.md).
    public var rating: Int?
    /// `pick` or `reject`; absent when neither.
    public var flag: String?
    /// Its colour label (`red`, `yellow`, `green`, `blue`, `purple`), when it has one.
    public var label: String?

    public init(position: Int? = nil, id: Int64, root: String, path: String, pathRaw: String? = nil, size: Int64,
                mtimeNs: Int64, type: String, captureTime: String? = nil, protected: Bool? = nil,
                offline: Bool? = nil, selected: Int? = nil, thumbnail: Bool? = nil,
                kind: String? = nil, members: [GroupMemberSummary]? = nil, totalSize: Int64? = nil,
                captureMs: Int? = nil, captureOffset: String? = nil) {
        self.position = position
        self.captureMs = captureMs
        self.captureOffset = captureOffset
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
        self.kind = kind
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
