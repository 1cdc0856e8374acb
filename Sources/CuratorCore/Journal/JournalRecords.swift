// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// Where one photo of a batch stands, as the journal last recorded it.
enum JournalItemState: String, Sendable, CaseIterable {
    /// In the plan, not yet touched.
    case planned
    /// Trash and name chosen; the `.trashinfo` may exist; the rename may have happened.
    case intent
    /// In the trash with its `.trashinfo`.
    case trashed
    /// Left at its path (changed, vanished, no trash, ...; `outcome` says which).
    case skipped
    /// Undo is moving it back; it may already be back.
    case restoring
    /// Back at its original path.
    case restored
    /// Trashed, then purged or moved by something else, or emptied by us (outcome `emptied`).
    case gone
    /// Being emptied from the trash (`trash.empty`): it may already be deleted.
    case emptying
}

/// A batch row.
struct JournalBatch: Hashable, Sendable {
    var id: Int64
    var uid: UInt32
    var session: String
    var createdNanoseconds: Int64
    var state: BatchState
    /// An undo of this batch was started and has not finished.
    var undoRunning: Bool
}

/// One photo of a batch, with its plan and its progress.
struct JournalItem: Hashable, Sendable {
    var batch: Int64
    var step: Int
    var photoID: Int64
    var rootName: String
    var rootPath: ByteString
    var relativePath: ByteString
    var identity: FileIdentity
    var state: JournalItemState
    var outcome: PhotoOutcome
    var detail: String?
    /// The trash chosen (absolute path), the name in it, and the `Path=` written.
    var trashDirectory: ByteString?
    var trashName: ByteString?
    var infoPath: ByteString?
    /// True once the photo was moved into the trash by this batch (kept after undo, for history).
    var moved: Bool
    /// The kind of trash the photo was (or is to be) moved to: its root's `trash` at confirm time.
    var trashKind: TrashKind = .freedesktop
    /// The uid that owned the file when it was planned (nil: not recorded, a batch of
    /// an older journal, or a photo skipped before its move was planned).
    var owner: UInt32? = nil
    /// The group it is trashed with (its listed id, issue 15), whose files are all
    /// trashed or all left in place; nil for a file alone.
    var unit: Int64? = nil

    var size: Int64 { identity.size }
    var photoPath: PhotoPath? { PhotoPath(root: rootPath, relative: relativePath) }

    /// The rows `Journal.createBatch` inserts for a plan, as `items(of:)` reads them
    /// back: what a new batch works from without reading 10 000 rows it just wrote.
    static func planned(batch: Int64, _ items: [BatchPlanItem]) -> [JournalItem] {
        items.indices.map { planned(batch: batch, step: $0 + 1, items[$0]) }
    }

    /// The row of `item`, the plan's step `step`.
    static func planned(batch: Int64, step: Int, _ item: BatchPlanItem) -> JournalItem {
        JournalItem(batch: batch, step: step, photoID: item.photoID, rootName: item.rootName, rootPath: item.rootPath,
                    relativePath: item.relativePath, identity: item.identity, state: .planned, outcome: .pending, detail: nil,
                    trashDirectory: nil, trashName: nil, infoPath: nil, moved: false, trashKind: item.trash,
                    unit: item.unit)
    }
}

/// Counts for `history`.
/// A batch's files, as its items; `photos` counts a group's files once (its `unit`).
struct JournalBatchCounts: Hashable, Sendable {
    /// Files: one a step.
    var count: Int
    var trashed: Int
    var restored: Int
    var bytes: Int64
    /// Photos: a group's files (one `unit`) once.
    var photos = PhotoCounts()

    struct PhotoCounts: Hashable, Sendable {
        var count = 0
        var trashed = 0
        var restored = 0
    }
}
