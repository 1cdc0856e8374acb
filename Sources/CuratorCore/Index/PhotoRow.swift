// SPDX-License-Identifier: GPL-2.0-or-later

/// One photo as `PhotoTable` stores it: 72 bytes (a million of these sit in one
/// array), where a `Photo` is 80 plus a heap array for its name. The name is a
/// reference into the table's `NameArena` and the device an index into the
/// table's few devices; the rest are `Photo`'s fields, widest first so that
/// Swift's declaration-order layout leaves no padding before the last byte.
struct PhotoRow {
    var id: Int64
    var inode: UInt64
    var size: Int64
    var mtimeNs: Int64
    var captureRaw: Int64
    /// As `Photo.groupID` (issue 15).
    var groupID: Int64
    var rootID: Int32
    var folderID: Int32
    /// As `Photo.rank`: 32 bits, saturated.
    var rankRaw: Int32
    var name: NameRef
    /// Index into `PhotoTable`'s devices; `PhotoTable.overflowDevice` when the
    /// table already knows 65 535 devices (then the device is kept by id).
    var device: UInt16
    var type: PhotoType
    var role: GroupRole

    var capture: CaptureState { CaptureState(raw: captureRaw) }
    var rank: Int64 { Int64(rankRaw) }
}
