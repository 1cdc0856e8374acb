// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Glibc

/// Whether a root's trash can work for the users who will ask, found before anyone
/// deletes: at start-up, on reload and by `--check-config`, one problem per root with
/// its fix. Only looks (open, fstat, the mount table); creates nothing.
///
/// A `freedesktop` trash for someone else needs the privilege to make it theirs, and
/// the file system's top directory writable *in the same mount* as the root: a
/// sandbox that bind-mounts the root onto itself (`ReadWritePaths=`) hides that top
/// directory behind a mount boundary, and a rename across it fails (EXDEV) although
/// it is one file system. A `recycle` trash stays inside the root and needs only the
/// privilege to give its folders to their users.
public enum TrashReadiness {
    public struct Problem: Hashable, Sendable, CustomStringConvertible {
        public var root: String
        public var text: String
        /// The root cannot be served as configured: no photo of it could reach a trash
        /// its user sees. The start, `--check-config` and a reload refuse it.
        public var refusesRoot = false
        public var description: String { "root \"\(root)\": \(text)" }
    }

    /// The problems of every root. `servesOthers`: whether users other than the
    /// daemon's own may ask (a system service, or a socket others may open).
    public static func problems(_ config: Configuration, servesOthers: Bool,
                                privilege: FilePrivilege = .current, effectiveUID: UInt32 = geteuid()) -> [Problem] {
        let mounts = try? MountTable.load()
        var found: [Problem] = []
        for root in config.roots {
            if let mounts, let why = refusal(root, mounts: mounts) {
                found.append(Problem(root: root.name, text: why, refusesRoot: true))
            }
            for text in problems(root, servesOthers: servesOthers, privilege: privilege, effectiveUID: effectiveUID, mounts: mounts) {
                found.append(Problem(root: root.name, text: text))
            }
        }
        return found
    }

    /// Why a `freedesktop` root cannot be served, if it cannot: it is a mount of its
    /// own only here, a folder of a file system bound onto itself (the service's
    /// `ReadWritePaths=`). On the host it is no top directory, so a trash at its mount
    /// point is one its user's tools never list; and the host's top directory is
    /// behind a mount boundary, where a rename fails (EXDEV).
    static func refusal(_ root: RootConfig, mounts: [MountEntry]) -> String? {
        guard root.trash == .freedesktop,
              let here = try? DirectoryHandle.open(root.path, followingSymlinks: true),
              let mountID = try? here.mountID(),
              let entry = MountTable.entry(id: mountID, in: mounts)
        else { return nil }  // an offline root is reported as such elsewhere
        let recycleFix = "or set trash: \"recycle\" for this root (<root>/.recycle/<user>, inside the root: see docs/SYSTEMD.md)"
        if let whole = MountTable.enclosingWhole(of: entry, in: mounts) {
            let top = whole.mountPoint
            return "\(entry.mountPoint) is a mount of its own here (a bind mount of the file system's \(entry.root), "
                + "as ReadWritePaths= makes in the service's sandbox), while that file system's top directory, where "
                + "trash-list, gio and file managers look for a user's trash, is \(top): a photo cannot be moved "
                + "there (EXDEV across the two mounts), and curatord refuses the root. Fix: make \(top) writable in the "
                + "sandbox instead of the root "
                + (top == "/" ? "(ProtectSystem=full in the drop-in, without ReadWritePaths= for the root) "
                              : "(ReadWritePaths=\(top) in the drop-in, instead of ReadWritePaths=\(root.path)) ")
                + recycleFix + "."
        }
        if MountTable.isHiddenBindInPlace(entry, in: mounts) {
            return "\(entry.mountPoint) is a mount of its own here (a bind mount of its file system's \(entry.root), "
                + "as ReadWritePaths= makes in the service's sandbox), on the file system of the folder around it: it is "
                + "no top directory where trash-list, gio or file managers look, and that file system's own is hidden "
                + "here, so curatord refuses the root. Fix: make that file system's top directory writable in the sandbox "
                + "instead of the root (ProtectSystem=full, or ReadWritePaths= naming its mount point), " + recycleFix + "."
        }
        return nil
    }

    static func problems(_ root: RootConfig, servesOthers: Bool, privilege: FilePrivilege, effectiveUID: UInt32,
                         mounts: [MountEntry]?) -> [String] {
        var found: [String] = []
        let recycleFix = "or set trash: \"recycle\" for this root (<root>/.recycle/<user>, inside the root: see docs/SYSTEMD.md)"
        if servesOthers, effectiveUID != 0, !privilege.mayActForOthers {
            let what = root.trash == .recycle ? "the recycle folders it makes for a user" : "the trash directories and .trashinfo files it makes for a user"
            let fix = "Fix: give it \(privilege.missing.joined(separator: " ")) (the system unit's AmbientCapabilities=; "
                + "by hand: setpriv --inh-caps=+chown,+dac_override,+fowner --ambient-caps=+chown,+dac_override,+fowner ...)"
            found.append("curatord (uid \(effectiveUID)) lacks \(privilege.missing.joined(separator: ", ")): \(what) would be "
                         + "its own, not that user's, so their own tools could not list, restore or empty them, and it could "
                         + "not write into a trash a user made. \(fix)" + (root.trash == .recycle ? "." : ", \(recycleFix)."))
        }
        guard root.trash == .freedesktop, let mounts else { return found }
        let mountID: UInt64
        do {
            mountID = try DirectoryHandle.open(root.path, followingSymlinks: true).mountID()
        } catch {
            return found  // an offline root is reported as such elsewhere
        }
        // A root that is refused is said so on its own (`refusal`).
        guard let entry = MountTable.entry(id: mountID, in: mounts), refusal(root, mounts: mounts) == nil else { return found }
        if entry.readOnly {
            found.append("its file system is mounted read-only here (\(entry.mountPoint)): nothing can be trashed. Fix: make "
                         + "\(entry.mountPoint) writable (for the system service: ReadWritePaths=\(entry.mountPoint) in the drop-in).")
        } else if servesOthers, effectiveUID != 0, !privilege.mayOverridePermissions, !topIsUsable(entry.mountPoint) {
            found.append("the top directory \(entry.mountPoint) of its file system has no sticky .Trash and curatord may not "
                         + "create .Trash-$uid there. Fix: as above, or have an administrator run "
                         + "`install -d -m 1777 \(entry.mountPoint == "/" ? "" : entry.mountPoint.lossyString)/.Trash`, " + recycleFix + ".")
        }
        return found
    }

    /// Whether trash can be made at `top` without privilege: it is writable, or holds
    /// a sticky `.Trash` (the spec's administrator-made shared trash).
    private static func topIsUsable(_ top: ByteString) -> Bool {
        if access(top.lossyString, W_OK | X_OK) == 0 { return true }
        guard let status = try? FileStatus.ifExists(top.appending(".Trash")) else { return false }
        return status.isDirectory && !status.isSymlink && status.mode & S_ISVTX != 0
    }
}
