// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// What `BatchRunner.run` returns: the protocol result and, for the index, the
/// photos that left their folders.
public struct BatchOutcome: Sendable {
    public var result: BatchResult

    public var trashedPhotoIDs: [Int64] { result.items.filter { $0.outcome == .trashed }.map(\.id) }
}

extension JournalItem {
    var result: BatchItemResult {
        // One look at the bytes: a UTF-8 path is itself; any other is shown lossily and given raw.
        let text = relativePath.utf8String
        return BatchItemResult(step: step, id: photoID, root: rootName, path: text ?? relativePath.lossyString,
                               pathRaw: text == nil ? relativePath.base64 : nil,
                               size: size, outcome: outcome, detail: detail, group: unit)
    }

    func restoredPhoto(at status: FileStatus, byOtherTool: Bool, recreated: [ByteString]) -> RestoredPhoto {
        RestoredPhoto(photoID: photoID, rootName: rootName, relativePath: relativePath, identity: FileIdentity(status),
                      sameInode: identity.isSameFile(status), byOtherTool: byOtherTool, recreatedDirectories: recreated)
    }
}
