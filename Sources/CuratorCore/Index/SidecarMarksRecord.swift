// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorXMP

/// One sidecar's marks as last read, with the size and mtime of the bytes read:
/// once the file's are others, it is read again.
struct SidecarMarksRecord: Hashable, Sendable {
    var size: Int64
    var mtimeNs: Int64
    /// nil when the packet holds none of the properties read (docs/XMP.md).
    var marks: PhotoMarks?

    func isOf(size: Int64, mtimeNs: Int64) -> Bool { self.size == size && self.mtimeNs == mtimeNs }
}
