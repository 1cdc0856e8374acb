// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Open root directories, one descriptor per root for the life of a batch, undo or
/// recovery. Every photo path is walked from one of these, never from a string.
final class RootDirectories {
    private var open: [ByteString: DirectoryHandle] = [:]

    /// The root, following a symlink if the root is configured as one. ENOENT when it
    /// is gone or offline.
    func handle(_ root: ByteString) throws(SystemError) -> DirectoryHandle {
        if let handle = open[root] { return handle }
        let handle = try DirectoryHandle.open(root, followingSymlinks: true)
        open[root] = handle
        return handle
    }

    /// lstat of the photo's original path, walked without following symlinks; nil when
    /// nothing (or no path of directories) leads there. Throws when the root itself
    /// cannot be opened: then nothing can be said.
    func statusAtOriginalPath(_ path: PhotoPath) throws(SystemError) -> FileStatus? {
        let root = try handle(path.root)
        do {
            let (parent, _) = try path.openParent(from: root)
            return try parent.status(of: path.name)
        } catch where [Errno.noEntry, .notDirectory, .tooManyLinks].contains(error.errno) {
            return nil
        }
    }
}
