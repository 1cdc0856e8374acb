// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// What `BatchRunner.run` returns: the protocol result and, for the index, the
/// photos that left their folders.
public struct BatchOutcome: Sendable {
    public var result: BatchResult

    public var trashedPhotoIDs: [Int64] { result.items.filter { $0.outcome == .trashed }.map(\.id) }
}

/// A photo standing at its original path again after an undo (or found there).
public struct RestoredPhoto: Hashable, Sendable {
    public var photoID: Int64
    public var rootName: String
    public var relativePath: ByteString
    /// Its identity now, for the index.
    public var identity: PhotoIdentity
    /// Same device and inode as when it was planned: re-index it with its former id.
    public var sameInode: Bool
    /// Put back by another tool (e.g. trash-restore) before our undo got to it.
    public var byOtherTool: Bool
    /// Parent directories (relative to the root) that undo had to recreate.
    public var recreatedDirectories: [ByteString]
}

/// What `BatchRunner.undo` returns.
public struct UndoOutcome: Sendable {
    public var result: UndoResult
    public var restored: [RestoredPhoto]
}

/// What `BatchRunner.recover` found and did.
public struct RecoveryReport: Sendable {
    /// Every batch recovery touched, with the truth per photo after repairs.
    public var batches: [BatchResult]
    /// Photos an interrupted undo had already put back (re-index them).
    public var restored: [RestoredPhoto]
    /// One line per repair done on disk, for the log.
    public var repairs: [String]
}

extension JournalItem {
    var result: BatchItemResult {
        BatchItemResult(step: step, id: photoID, root: rootName, path: relativePath.lossyString,
                        pathRaw: relativePath.utf8String == nil ? relativePath.base64 : nil,
                        size: size, outcome: outcome, detail: detail)
    }

    func restoredPhoto(at status: FileStatus, byOtherTool: Bool, recreated: [ByteString]) -> RestoredPhoto {
        RestoredPhoto(photoID: photoID, rootName: rootName, relativePath: relativePath, identity: PhotoIdentity(status),
                      sameInode: identity.isSameFile(status), byOtherTool: byOtherTool, recreatedDirectories: recreated)
    }
}
