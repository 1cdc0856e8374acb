// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// A file seen on disk by a scan or an event, ready to be reconciled with the index.
struct ScannedFile: Sendable {
    var name: ByteString
    var status: FileStatus
    var type: PhotoType
}

/// A folder (or, in a full scan, a part of a large one) as a scan step read it.
struct ScannedFolder: Sendable {
    /// Relative to the root.
    var path: ByteString
    var files: ArraySlice<ScannedFile>
    /// `files` is everything the folder holds (not a part, and every name could be
    /// stat'ed): indexed photos missing from it are gone.
    var complete: Bool
    /// Where the root groups files: the groups of `files` (a whole folder's), for
    /// the index to set as it adds them when it has no row of the folder yet.
    var groups: FolderGroupPlan? = nil
}
