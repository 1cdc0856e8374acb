// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// What makes one kind of trash (a root's `trash:` setting) what it is: where a
/// batch puts a photo, what it records beside it, how undo, recovery and emptying
/// find it again, and what the start-up checks ask of the root. One type per kind
/// (`FreedesktopTrash`, `RecycleTrash`): callers ask the kind, never compare it, and
/// a new kind is a new type and a line in `TrashKind.rules`.
protocol KindOfTrash: Sendable {
    /// Whether a `.trashinfo` goes beside each photo (in the trash's `info/`): written
    /// before the move, read back by undo and recovery, removed with the photo.
    /// Without one, the folder a photo lies in is its record.
    var recordsInfoFiles: Bool { get }

    /// Whether the root's `recycle_group` applies.
    var takesRecycleGroup: Bool { get }

    /// What a batch makes for a user in a trash of this kind, for the start-up checks.
    var madeForAUser: String { get }

    /// Another kind the start-up checks may advise where this one cannot work, if any.
    var otherKindAdvice: String? { get }

    /// Where the photo trashed under `name` lies in the trash directory `directory`
    /// that the journal recorded.
    func location(of name: ByteString, in directory: ByteString) -> ByteString

    /// Where a batch puts the photo: a trash of this kind found (or made) for it, and
    /// a free name there; or why it stays.
    func place<Planner: TrashPlacer>(_ photo: Planner.Placing, by planner: Planner, caches: inout Planner.Caches) -> Planner.Prepared

    /// The trash a batch recorded at `path`, opened again from folders we trust
    /// (`root`: the photo's root, its path and open handle).
    func reopen(_ path: ByteString, walk: TrashWalk,
                root: (path: ByteString, handle: DirectoryHandle)?) throws(SystemError) -> TrashDirectory

    /// Why a root of this kind cannot be served here at all, if it cannot: the start,
    /// a reload and `--check-config` refuse it.
    func refusal(_ root: RootConfig, mounts: [MountEntry]) -> String?

    /// What stands in the way of this kind's trash for the root where it is mounted,
    /// each with its fix (beyond the privilege to act for others, which every kind needs).
    func mountProblems(_ root: RootConfig, mounts: [MountEntry], servesOthers: Bool, privilege: FilePrivilege,
                       effectiveUID: UInt32) -> [String]
}

extension TrashKind {
    /// This kind's behaviour: the one place a configured kind becomes its type.
    var rules: any KindOfTrash {
        switch self {
        case .freedesktop: FreedesktopTrash()
        case .recycle: RecycleTrash()
        }
    }
}
