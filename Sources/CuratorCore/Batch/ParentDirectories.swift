// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// The photos' directories opened for one chunk, each walked once from its root
/// (O_NOFOLLOW per component) and shared by the chunk's photos in it: saves the
/// walk per photo and bounds the descriptors a chunk holds (`ChunkPolicy` caps the
/// directories per chunk). Dropped at the end of the chunk.
final class ParentDirectories {
    private let roots: RootDirectories
    private var opened: [ByteString: (parent: DirectoryHandle, chain: [FolderPermissions])] = [:]
    private var placed: [ByteString: Placement] = [:]

    /// Where a directory's photos go: the trash for its mount (one statx), and the
    /// directory's path as the kernel resolves it (one readlink), for `Path=`.
    struct Placement {
        var trash: TrashResolver.Choice
        var resolvedPath: ByteString?
    }

    init(roots: RootDirectories) {
        self.roots = roots
    }

    /// The photo's directory and the permissions (mode, owner, ACL) of every directory from the root down.
    func open(_ path: PhotoPath) throws(SystemError) -> (parent: DirectoryHandle, chain: [FolderPermissions]) {
        let key = path.absolute.parent
        if let known = opened[key] { return known }
        let found = try path.openParent(from: try roots.handle(path.root))
        opened[key] = found
        return found
    }

    /// The placement of the directory `open(path)` returned, worked out once per chunk.
    func placement(_ path: PhotoPath, _ parent: DirectoryHandle, _ compute: (DirectoryHandle) -> Placement) -> Placement {
        let key = path.absolute.parent
        if let known = placed[key] { return known }
        let found = compute(parent)
        placed[key] = found
        return found
    }
}
