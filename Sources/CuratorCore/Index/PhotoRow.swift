// SPDX-License-Identifier: GPL-2.0-or-later

/// One photo as `PhotoTable` stores it: 56 bytes (a million of these sit in one
/// array), where a `Photo` is 88 plus a heap array for its name. The name is a
/// reference into the table's `NameArena`; the root and the device are one index
/// into the table's few (root, device) places; the group id is kept as its
/// distance from the photo's own id (a group's rows are one folder's, found by
/// the same scan: near in id). Read them through the table (`rootID(of:)`,
/// `device(of:)`, `groupID(of:)`), which keeps by id what does not fit. The rest
/// are `Photo`'s fields, widest first so that Swift's declaration-order layout
/// leaves no padding.
///
/// Some fields share a word: the capture time and the group distance one
/// (`captureRaw`, `groupOffset`), the size and the background readers' flags one,
/// the type and the role one byte. Each byte of a row is a megabyte resident at a
/// million photos.
struct PhotoRow {
    var id: Int64
    var inode: UInt64
    /// The size in the low 56 bits (no file is 64 PiB), the read flags above.
    private var sizeAndFlags: UInt64
    var mtimeNs: Int64
    /// The capture time in the high 40 bits (`captureRaw`), the group distance in the
    /// low 24 (`groupOffset`), both signed.
    private var captureAndGroup: UInt64
    var folderID: Int32
    /// As `Photo.rank`: 32 bits, saturated.
    var rankRaw: Int32
    var name: NameRef
    /// Index into `PhotoTable`'s places (root and device); `PhotoTable.overflowPlace`
    /// when the table already knows 255 of them (then they are kept by id).
    var place: UInt8
    /// `type.caseNumber` in the low 5 bits, `role` above them.
    private var typeAndRole: UInt8

    init(id: Int64, inode: UInt64, size: Int64, mtimeNs: Int64, captureRaw: Int64, folderID: Int32, rankRaw: Int32,
         groupOffset: Int32, name: NameRef, place: UInt8, type: PhotoType, role: GroupRole) {
        self.id = id
        self.inode = inode
        sizeAndFlags = Self.storedSize(size)
        self.mtimeNs = mtimeNs
        captureAndGroup = 0
        self.folderID = folderID
        self.rankRaw = rankRaw
        self.name = name
        self.place = place
        typeAndRole = 0
        self.captureRaw = captureRaw
        self.groupOffset = groupOffset
        self.type = type
        self.role = role
    }

    var capture: CaptureState { CaptureState(raw: captureRaw) }
    var rank: Int64 { Int64(rankRaw) }

    // MARK: the capture time, 40 bits

    /// The lowest of 40 bits stands for `CaptureState.pendingRaw`, the next for
    /// `noneRaw`; a known time is a naive date of EXIF's four-digit years (about
    /// ±2^38 seconds), and one beyond what 40 bits hold (only a corrupt index has
    /// it) is kept as the nearest that fits.
    private static let captureLow: Int64 = -(1 << 39)
    private static let captureHigh: Int64 = (1 << 39) - 1

    /// As `CaptureState.raw`.
    var captureRaw: Int64 {
        get {
            let stored = Int64(bitPattern: captureAndGroup) >> 24
            switch stored {
            case Self.captureLow: return CaptureState.pendingRaw
            case Self.captureLow + 1: return CaptureState.noneRaw
            default: return stored
            }
        }
        set {
            let stored: Int64 = switch newValue {
            case CaptureState.pendingRaw: Self.captureLow
            case CaptureState.noneRaw: Self.captureLow + 1
            default: min(max(newValue, Self.captureLow + 2), Self.captureHigh)
            }
            captureAndGroup = UInt64(bitPattern: stored << 24) | (captureAndGroup & Self.groupMask)
        }
    }

    // MARK: the group distance, 24 bits

    private static let groupMask: UInt64 = (1 << 24) - 1
    /// What `groupOffset` can hold: a distance outside is kept by the table (`PhotoTable.farGroup`).
    static let groupOffsets: ClosedRange<Int32> = -(1 << 23)...((1 << 23) - 1)

    /// `Photo.groupID - id`, or `PhotoTable.farGroup`. Only values of `groupOffsets` are kept.
    var groupOffset: Int32 {
        get { Int32(truncatingIfNeeded: Int64(bitPattern: captureAndGroup << 40) >> 40) }
        set {
            precondition(Self.groupOffsets.contains(newValue), "a group distance of \(newValue) does not fit a row")
            captureAndGroup = (captureAndGroup & ~Self.groupMask) | (UInt64(truncatingIfNeeded: newValue) & Self.groupMask)
        }
    }

    // MARK: type and role, one byte

    var type: PhotoType {
        get { PhotoType(caseNumber: typeAndRole & 0x1f) }
        set { typeAndRole = (typeAndRole & ~0x1f) | newValue.caseNumber }
    }

    var role: GroupRole {
        // Every role's raw value fits the three bits (`GroupRole`'s cases are 0...4).
        get { GroupRole(rawValue: typeAndRole >> 5) ?? .undecided }
        set { typeAndRole = (typeAndRole & 0x1f) | newValue.rawValue << 5 }
    }

    // MARK: the size, 56 bits, and the read flags

    private static let sizeMask: UInt64 = (1 << 56) - 1

    var size: Int64 {
        get { Int64(sizeAndFlags & Self.sizeMask) }
        set { sizeAndFlags = (sizeAndFlags & ~Self.sizeMask) | Self.storedSize(newValue) }
    }

    /// Only a corrupt index holds a size outside: kept as the nearest that fits.
    private static func storedSize(_ size: Int64) -> UInt64 { UInt64(min(max(size, 0), Int64(sizeMask))) }

    /// What the background readers have done for the file as it is now (its size
    /// and mtime), kept in the row: a dictionary by id would cost an entry of
    /// resident memory for each of the files that state nothing.
    private var readFlags: UInt8 {
        get { UInt8(truncatingIfNeeded: sizeAndFlags >> 56) }
        set { sizeAndFlags = (sizeAndFlags & Self.sizeMask) | UInt64(newValue) << 56 }
    }

    /// The file's XMP marks were read at this size and mtime (`PhotoMarksTable`).
    var marksRead: Bool {
        get { readFlags & 1 != 0 }
        set { readFlags = newValue ? readFlags | 1 : readFlags & ~1 }
    }

    /// The flags of `old` when it is of the same file content as far as inode, size
    /// and mtime tell; none otherwise, so that a changed file is read again (a file
    /// replaced by rename within one tick of the file system's clock keeps its size
    /// and mtime: a sidecar rated twice in a row).
    mutating func keepReadFlags(of old: PhotoRow) {
        if old.inode == inode && old.size == size && old.mtimeNs == mtimeNs { readFlags = old.readFlags }
    }
}
