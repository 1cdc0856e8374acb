// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// A photo standing at its original path again after an undo (or found there).
public struct RestoredPhoto: Hashable, Sendable {
    public var photoID: Int64
    public var rootName: String
    public var relativePath: ByteString
    /// Its identity now, for the index.
    public var identity: FileIdentity
    /// Same device and inode as when it was planned: re-index it with its former id.
    public var sameInode: Bool
    /// Put back by another tool (e.g. trash-restore) before our undo got to it.
    public var byOtherTool: Bool
    /// Parent directories (relative to the root) that undo had to recreate.
    public var recreatedDirectories: [ByteString]
}
