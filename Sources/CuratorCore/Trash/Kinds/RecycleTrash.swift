// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// `trash: "recycle"`: `<root>/.recycle/<user>/<the photo's folder>/<its name>`, the
/// layout of Samba's vfs_recycle, Synology and TrueNAS (`RecycleResolver`). Inside the
/// root: no other mount, no top directory, no `.trashinfo` (the folder a photo is in
/// says where it was).
struct RecycleTrash: KindOfTrash {
    var recordsInfoFiles: Bool { false }
    var takesRecycleGroup: Bool { true }
    var madeForAUser: String { "the recycle folders it makes for a user" }
    var otherKindAdvice: String? { nil }

    /// How the start-up checks advise this kind where another cannot work: it needs
    /// no other mount, no top directory.
    static let advice = "or set trash: \"recycle\" for this root (<root>/.recycle/<user>, inside the root: see docs/SYSTEMD.md)"

    func location(of name: ByteString, in directory: ByteString) -> ByteString {
        directory.appending(name)
    }

    func place<Planner: TrashPlacer>(_ photo: Planner.Placing, by planner: Planner, caches: inout Planner.Caches) -> Planner.Prepared {
        planner.placeInRecycleFolder(photo, caches: &caches)
    }

    func reopen(_ path: ByteString, walk: TrashWalk,
                root: (path: ByteString, handle: DirectoryHandle)?) throws(SystemError) -> TrashDirectory {
        try walk.reopenRecycleFolder(path, root: root)
    }

    func refusal(_ root: RootConfig, mounts: [MountEntry]) -> String? { nil }

    func mountProblems(_ root: RootConfig, mounts: [MountEntry], servesOthers: Bool, privilege: FilePrivilege,
                       effectiveUID: UInt32) -> [String] {
        []
    }
}
