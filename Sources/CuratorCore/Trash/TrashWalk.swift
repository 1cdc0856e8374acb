// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Glibc

/// Opens a trash the journal names (undo, recovery, emptying) by walking down to it
/// from a folder the daemon trusts, one `openat(O_NOFOLLOW)` a level, each level
/// checked for its owner: `<root>/.recycle` the daemon's or root's, `.recycle/<user>`
/// and below that user's; `$topdir/.Trash-$uid` (and its `files`, `info`) that uid's;
/// `$topdir/.Trash` root's or the daemon's and sticky, `.Trash/$uid` that uid's. In a
/// folder others may write, a trash can be renamed away and a look-alike built in its
/// place: a photo missing from the look-alike is not purged, and nothing is decided
/// about it (`untrusted`), rather than losing it for its owner's undo and `trash list`.
struct TrashWalk {
    /// The call named in the error thrown for a level that is not whose it must be.
    static let untrusted = "not the trash it must be"

    let effectiveUID: UInt32

    /// `root`: the root the photo was trashed from, for a kind kept inside it (its path and open handle).
    func reopen(_ path: ByteString, kind: TrashKind, root: (path: ByteString, handle: DirectoryHandle)?) throws(SystemError) -> TrashDirectory {
        try kind.rules.reopen(path, walk: self, root: root)
    }

    /// A recycle folder, `<root>/.recycle/<user>/...`, reached from the root.
    func reopenRecycleFolder(_ path: ByteString, root: (path: ByteString, handle: DirectoryHandle)?) throws(SystemError) -> TrashDirectory {
        guard let root, path.isWithin(root.path) else { throw SystemError(Self.untrusted, path: path.lossyString, errno: .notPermitted) }
        return TrashDirectory(recycleFolder: path, try recycleFolder(path.relative(to: root.path).components, from: root.handle, path: root.path))
    }

    /// A freedesktop trash: `$topdir/.Trash-$uid`, `$topdir/.Trash/$uid` or the home trash.
    func reopenFreedesktopTrash(_ path: ByteString) throws(SystemError) -> TrashDirectory {
        let name = path.lastComponent
        let above = path.parent
        if let uid = Self.uid(after: ".Trash-", in: name) {
            // $topdir/.Trash-$uid: the top directory is a mount point, named by the mount table.
            let top = try DirectoryHandle.open(above.isEmpty ? "/" : above, followingSymlinks: true)
            return try volumeTrash(name, in: top, path: path, uid: uid)
        }
        if above.lastComponent == ".Trash", let uid = UInt32(name.lossyString) {
            let topdir = above.parent
            let top = try DirectoryHandle.open(topdir.isEmpty ? "/" : topdir, followingSymlinks: true)
            let shared = try top.openDirectory(".Trash")
            let status = try shared.status()
            guard status.uid == 0 || status.uid == effectiveUID, status.mode & S_ISVTX != 0 else {
                throw SystemError(Self.untrusted, path: above.lossyString, errno: .notPermitted)
            }
            return try volumeTrash(name, in: shared, path: path, uid: uid)
        }
        // The home trash: the daemon's own user's, found as the batch found it.
        return try TrashDirectory.reopen(path)
    }

    private func volumeTrash(_ name: ByteString, in parent: DirectoryHandle, path: ByteString, uid: UInt32) throws(SystemError) -> TrashDirectory {
        let trash = try owned(name, in: parent, by: uid)
        return TrashDirectory(path: path, topdir: nil, files: try owned("files", in: trash, by: uid), info: try owned("info", in: trash, by: uid))
    }

    private func recycleFolder(_ components: [ByteString], from root: DirectoryHandle, path: ByteString) throws(SystemError) -> DirectoryHandle {
        guard components.count >= 2, components[0] == RecycleResolver.folderName,
              let uid = UInt32(components[1].lossyString) ?? components[1].utf8String.flatMap(UserAccount.userID(named:))
        else { throw SystemError(Self.untrusted, path: path.lossyString, errno: .notPermitted) }
        let top = try root.openDirectory(RecycleResolver.folderName)
        let status = try top.status()
        guard status.uid == effectiveUID || status.uid == 0 else {
            throw SystemError(Self.untrusted, path: top.path.lossyString, errno: .notPermitted)
        }
        var current = top
        for name in components.dropFirst() { current = try owned(name, in: current, by: uid) }
        return current
    }

    /// The child folder `name`, not through a symlink, owned by `uid` (or by us, who made it for them).
    private func owned(_ name: ByteString, in parent: DirectoryHandle, by uid: UInt32) throws(SystemError) -> DirectoryHandle {
        let dir = try parent.openDirectory(name)
        let status = try dir.status()
        guard status.uid == uid || status.uid == effectiveUID else {
            throw SystemError(Self.untrusted, path: dir.path.lossyString, errno: .notPermitted)
        }
        return dir
    }

    private static func uid(after prefix: String, in name: ByteString) -> UInt32? {
        guard name.bytes.starts(with: Array(prefix.utf8)) else { return nil }
        return UInt32(String(decoding: name.bytes.dropFirst(prefix.utf8.count), as: UTF8.self))
    }
}
