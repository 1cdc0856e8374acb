// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc

/// `trash: "freedesktop"` (the default): the user's own trash as the freedesktop.org
/// Trash spec places it, by the mount the photo is on (`TrashResolver`): the home
/// trash, or `$topdir/.Trash/$uid` or `$topdir/.Trash-$uid`, each photo in `files/`
/// with its `.trashinfo` in `info/`, where trash-list, gio and file managers look.
struct FreedesktopTrash: KindOfTrash {
    var recordsInfoFiles: Bool { true }
    var takesRecycleGroup: Bool { false }
    var madeForAUser: String { "the trash directories and .trashinfo files it makes for a user" }
    var otherKindAdvice: String? { RecycleTrash.advice }

    func location(of name: ByteString, in directory: ByteString) -> ByteString {
        directory.appending("files").appending(name)
    }

    func place<Planner: TrashPlacer>(_ photo: Planner.Placing, by planner: Planner, caches: inout Planner.Caches) -> Planner.Prepared {
        planner.placeInFreedesktopTrash(photo, caches: &caches)
    }

    func reopen(_ path: ByteString, walk: TrashWalk,
                root: (path: ByteString, handle: DirectoryHandle)?) throws(SystemError) -> TrashDirectory {
        try walk.reopenFreedesktopTrash(path)
    }

    /// A root that is a mount of its own only here, a folder of a file system bound
    /// onto itself (the service's `ReadWritePaths=`): on the host it is no top
    /// directory, so a trash at its mount point is one its user's tools never list;
    /// and the host's top directory is behind a mount boundary, where a rename fails
    /// (EXDEV).
    func refusal(_ root: RootConfig, mounts: [MountEntry]) -> String? {
        guard let entry = Self.mount(of: root, in: mounts) else { return nil }  // an offline root is reported elsewhere
        if let whole = MountTable.enclosingWhole(of: entry, in: mounts) {
            let top = whole.mountPoint
            return "\(entry.mountPoint) is a mount of its own here (a bind mount of the file system's \(entry.root), "
                + "as ReadWritePaths= makes in the service's sandbox), while that file system's top directory, where "
                + "trash-list, gio and file managers look for a user's trash, is \(top): a photo cannot be moved "
                + "there (EXDEV across the two mounts), and curatord refuses the root. Fix: make \(top) writable in the "
                + "sandbox instead of the root "
                + (top == "/" ? "(ProtectSystem=full in the drop-in, without ReadWritePaths= for the root) "
                              : "(ReadWritePaths=\(top) in the drop-in, instead of ReadWritePaths=\(root.path)) ")
                + RecycleTrash.advice + "."
        }
        if MountTable.isHiddenBindInPlace(entry, in: mounts) {
            return "\(entry.mountPoint) is a mount of its own here (a bind mount of its file system's \(entry.root), "
                + "as ReadWritePaths= makes in the service's sandbox), on the file system of the folder around it: it is "
                + "no top directory where trash-list, gio or file managers look, and that file system's own is hidden "
                + "here, so curatord refuses the root. Fix: make that file system's top directory writable in the sandbox "
                + "instead of the root (ProtectSystem=full, or ReadWritePaths= naming its mount point), "
                + RecycleTrash.advice + "."
        }
        return nil
    }

    /// The top directory must be writable in the same mount: a read-only mount, or
    /// (without the capabilities) a top directory with no sticky `.Trash` where
    /// curatord may not make `.Trash-$uid`, stops every photo.
    func mountProblems(_ root: RootConfig, mounts: [MountEntry], servesOthers: Bool, privilege: FilePrivilege,
                       effectiveUID: UInt32) -> [String] {
        // A root that is refused is said so on its own (`refusal`).
        guard let entry = Self.mount(of: root, in: mounts), refusal(root, mounts: mounts) == nil else { return [] }
        if entry.readOnly {
            return ["its file system is mounted read-only here (\(entry.mountPoint)): nothing can be trashed. Fix: make "
                    + "\(entry.mountPoint) writable (for the system service: ReadWritePaths=\(entry.mountPoint) in the drop-in)."]
        }
        if servesOthers, effectiveUID != 0, !privilege.mayOverridePermissions, !Self.topIsUsable(entry.mountPoint) {
            return ["the top directory \(entry.mountPoint) of its file system has no sticky .Trash and curatord may not "
                    + "create .Trash-$uid there. Fix: as above, or have an administrator run "
                    + "`install -d -m 1777 \(entry.mountPoint == "/" ? "" : entry.mountPoint.lossyString)/.Trash`, "
                    + RecycleTrash.advice + "."]
        }
        return []
    }

    /// The mount the root is on here; nil when the root cannot be opened (offline).
    private static func mount(of root: RootConfig, in mounts: [MountEntry]) -> MountEntry? {
        guard let mountID = try? DirectoryHandle.open(root.path, followingSymlinks: true).mountID() else { return nil }
        return MountTable.entry(id: mountID, in: mounts)
    }

    /// Whether trash can be made at `top` without privilege: it is writable, or holds
    /// a sticky `.Trash` (the spec's administrator-made shared trash).
    private static func topIsUsable(_ top: ByteString) -> Bool {
        if access(top.lossyString, W_OK | X_OK) == 0 { return true }
        guard let status = try? FileStatus.ifExists(top.appending(".Trash")) else { return false }
        return status.isDirectory && !status.isSymlink && status.mode & S_ISVTX != 0
    }
}
