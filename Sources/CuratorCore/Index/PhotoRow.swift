// SPDX-License-Identifier: GPL-2.0-or-later

/// One photo as `PhotoTable` stores it: 64 bytes (a million of these sit in one
/// array), where a `Photo` is 88 plus a heap array for its name. The name is a
/// reference into the table's `NameArena`; the root and the device are one index
/// into the table's few (root, device) places; the group id is kept as its
/// distance from the photo's own id (a group's rows are one folder's, found by
/// the same scan: near in id). Read them through the table (`rootID(of:)`,
/// `device(of:)`, `groupID(of:)`), which keeps by id what does not fit. The rest
/// are `Photo`'s fields, widest first so that Swift's declaration-order layout
/// leaves no padding before the last byte.
struct PhotoRow {
    var id: Int64
    var inode: UInt64
    var size: Int64
    var mtimeNs: Int64
    var captureRaw: Int64
    var folderID: Int32
    /// As `Photo.rank`: 32 bits, saturated.
    var rankRaw: Int32
    /// `Photo.groupID - id`; `PhotoTable.farGroup` when that does not fit 32 bits
    /// (then the table keeps the group id by photo id).
    var groupOffset: Int32
    var name: NameRef
    /// Index into `PhotoTable`'s places (root and device); `PhotoTable.overflowPlace`
    /// when the table already knows 65 535 of them (then they are kept by id).
    var place: UInt16
    var type: PhotoType
    var role: GroupRole

    var capture: CaptureState { CaptureState(raw: captureRaw) }
    var rank: Int64 { Int64(rankRaw) }
}
