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
            if let mounts, let why = root.trash.rules.refusal(root, mounts: mounts) {
                found.append(Problem(root: root.name, text: why, refusesRoot: true))
            }
            for text in problems(root, servesOthers: servesOthers, privilege: privilege, effectiveUID: effectiveUID, mounts: mounts) {
                found.append(Problem(root: root.name, text: text))
            }
        }
        return found
    }

    static func problems(_ root: RootConfig, servesOthers: Bool, privilege: FilePrivilege, effectiveUID: UInt32,
                         mounts: [MountEntry]?) -> [String] {
        var found: [String] = []
        let kind = root.trash.rules
        if servesOthers, effectiveUID != 0, !privilege.mayActForOthers {
            let fix = "Fix: give it \(privilege.missing.joined(separator: " ")) (the system unit's AmbientCapabilities=; "
                + "by hand: setpriv --inh-caps=+chown,+dac_override,+fowner --ambient-caps=+chown,+dac_override,+fowner ...)"
            let orRecycle = kind.otherKindAdvice.map { ", \($0)." } ?? "."
            found.append("curatord (uid \(effectiveUID)) lacks \(privilege.missing.joined(separator: ", ")): \(kind.madeForAUser) "
                         + "would be its own, not that user's, so their own tools could not list, restore or empty them, and it "
                         + "could not write into a trash a user made. \(fix)" + orRecycle)
        }
        guard let mounts else { return found }
        return found + kind.mountProblems(root, mounts: mounts, servesOthers: servesOthers, privilege: privilege,
                                          effectiveUID: effectiveUID)
    }
}
