// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// What pins a file's identity: a plan trashes a photo only if these still match.
public struct FileIdentity: Hashable, Sendable, Codable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var mtimeNs: Int64

    public init(device: UInt64, inode: UInt64, size: Int64, mtimeNs: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.mtimeNs = mtimeNs
    }

    public init(_ status: FileStatus) {
        self.init(device: status.device, inode: status.inode, size: status.size, mtimeNs: status.mtimeNanoseconds)
    }
}

/// The capture time of a photo as the index keeps it.
public enum CaptureState: Hashable, Sendable {
    /// Not read yet (the background reader will get to it).
    case pending
    /// Read; the file has none.
    case none
    /// EXIF DateTimeOriginal, as seconds of a naive (zone-less) date, for sorting.
    case known(Int64)

    static let pendingRaw = Int64.min
    static let noneRaw = Int64.min + 1

    var raw: Int64 {
        switch self {
        case .pending: Self.pendingRaw
        case .none: Self.noneRaw
        case .known(let s): s
        }
    }

    init(raw: Int64) {
        switch raw {
        case Self.pendingRaw: self = .pending
        case Self.noneRaw: self = .none
        default: self = .known(raw)
        }
    }

    public var seconds: Int64? {
        if case .known(let s) = self { return s }
        return nil
    }
}

/// One indexed file. Its id is stable across renames and moves inside its root.
/// The index keeps rows (`PhotoRow`), not these; a `Photo` is a whole value taken
/// out of them. The field order still leaves no padding but the stride's (Swift
/// lays fields out in declaration order): the one-byte type and role last.
public struct Photo: Sendable, Hashable {
    public var id: Int64
    public var rootID: Int32
    public var folderID: Int32
    public var name: ByteString
    public var identity: FileIdentity
    /// Kept as its raw number: an enum with a payload would pad `Photo` by 8 bytes,
    /// 800 kB per 100 000 photos.
    private var captureRaw: Int64
    /// Ranks count the photos a folder ever received, so 32 bits is plenty; a
    /// corrupt index's larger value saturates (the order stays total per folder).
    /// The id of the group this file is in (issue 15): listings and selections
    /// know a group by it. A photo alone bears its own id.
    public var groupID: Int64
    private var rankRaw: Int32
    /// The capture time's sub-seconds and offset, when EXIF records them.
    public var captureDetail: CaptureDetail
    public var type: PhotoType
    public var role: GroupRole

    public var capture: CaptureState {
        get { CaptureState(raw: captureRaw) }
        set { captureRaw = newValue.raw }
    }

    /// Position in its folder's custom order (article 001's reordering).
    public var rank: Int64 {
        get { Int64(rankRaw) }
        set { rankRaw = Int32(clamping: newValue) }
    }

    public init(id: Int64, rootID: Int32, folderID: Int32, name: ByteString, identity: FileIdentity, type: PhotoType,
                capture: CaptureState, rank: Int64, groupID: Int64? = nil, role: GroupRole? = nil,
                captureDetail: CaptureDetail = .none) {
        self.id = id
        self.captureDetail = captureDetail
        self.groupID = groupID ?? id
        // A sidecar is listed with nothing until its folder is grouped.
        self.role = role ?? (type.isSidecar ? .undecided : .shown)
        self.rootID = rootID
        self.folderID = folderID
        self.name = name
        self.identity = identity
        self.captureRaw = capture.raw
        self.rankRaw = Int32(clamping: rank)
        self.type = type
    }

    public var size: Int64 { identity.size }
}

/// One directory of a root. The root's own directory has the empty path.
public struct Folder: Sendable, Hashable {
    public var id: Int32
    public var rootID: Int32
    public var path: ByteString
}

struct FolderKey: Hashable {
    var rootID: Int32
    var path: ByteString
}

struct EntryKey: Hashable {
    var folderID: Int32
    var name: ByteString
}

struct InodeKey: Hashable {
    var device: UInt64
    var inode: UInt64
}
