// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// The photos' directories opened for one chunk, each walked once from its root
/// (O_NOFOLLOW per component) and shared by the chunk's photos in it: saves the
/// walk per photo and bounds the descriptors a chunk holds (`ChunkPolicy` caps the
/// directories per chunk). Dropped at the end of the chunk.
final class ParentDirectories {
    private let roots: RootDirectories
    /// A folder by its root and its path below it (`PhotoPath.relative`'s parent).
    private struct Key: Hashable {
        let root: ByteString
        let folder: ByteString
    }
    private final class Folder {
        let parent: DirectoryHandle
        let chain: [FolderPermissions]
        var placement: Placement?
        init(parent: DirectoryHandle, chain: [FolderPermissions]) {
            self.parent = parent
            self.chain = chain
        }
    }
    private var opened: [Key: Folder] = [:]
    /// The folder asked for last: a chunk's photos come folder by folder, and each is
    /// asked for twice (`open`, `placement`), so most questions are this one.
    private var last: (key: Key, folder: Folder)?

    /// Where a directory's photos go: the trash for its mount (one statx), and the
    /// directory's path as the kernel resolves it (one readlink), for `Path=`.
    struct Placement {
        var trash: TrashResolver.Choice
        var resolvedPath: ByteString?
    }

    init(roots: RootDirectories) {
        self.roots = roots
    }

    private func folder(_ path: PhotoPath) throws(SystemError) -> Folder {
        let key = Key(root: path.root, folder: path.relative.parent)
        if let last, last.key == key { return last.folder }
        let folder: Folder
        if let known = opened[key] {
            folder = known
        } else {
            let found = try path.openParent(from: try roots.handle(path.root))
            folder = Folder(parent: found.parent, chain: found.chain)
            opened[key] = folder
        }
        last = (key, folder)
        return folder
    }

    /// The photo's directory and the permissions (mode, owner, ACL) of every directory from the root down.
    func open(_ path: PhotoPath) throws(SystemError) -> (parent: DirectoryHandle, chain: [FolderPermissions]) {
        let folder = try folder(path)
        return (folder.parent, folder.chain)
    }

    /// The placement of the directory `open(path)` returned, worked out once per chunk.
    func placement(_ path: PhotoPath, _ parent: DirectoryHandle, _ compute: (DirectoryHandle) -> Placement) -> Placement {
        guard let folder = try? folder(path), folder.parent === parent else { return compute(parent) }
        if let known = folder.placement { return known }
        let found = compute(parent)
        folder.placement = found
        return found
    }
}
