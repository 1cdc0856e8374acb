// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Glibc
import Synchronization

/// Step 1 of a chunk, per photo: find it from its root without following symlinks,
/// check it is the photo planned and that the requester may delete it, choose its
/// trash (by mount) and a free name. Changes nothing on disk and uses no journal,
/// so the next chunk is planned on a batch helper while the batch thread moves the
/// one before it (`ChunkPreparer`). One per batch.
final class ChunkPlanner: Sendable, TrashPlacer {
    /// A photo ready to move. A class: a chunk's moves are handed between threads
    /// and lists several times, and a copy of these five fields was five retains.
    final class PlannedMove: Sendable {
        let parent: DirectoryHandle
        let path: PhotoPath
        let trash: TrashDirectory
        let name: ByteString
        let info: TrashInfo
        /// The file's owner when it was planned: it sees the batch in its history and may undo it.
        let owner: UInt32
        var infoPath: ByteString { info.path }

        init(parent: DirectoryHandle, path: PhotoPath, trash: TrashDirectory, name: ByteString, owner: UInt32, info: TrashInfo) {
            self.parent = parent
            self.owner = owner
            self.path = path
            self.trash = trash
            self.name = name
            self.info = info
        }
    }

    enum Prepared: Sendable {
        /// Nothing to move: the outcome is known already.
        case done(PhotoTrasher.Ending)
        case move(PlannedMove)
    }

    /// A photo found and checked, to be given a place in a trash of its root's kind
    /// (`KindOfTrash.place`, through `TrashPlacer`).
    struct Placing {
        let item: JournalItem
        let path: PhotoPath
        /// Its folder, opened from the root without following symlinks.
        let parent: DirectoryHandle
        let parents: ParentDirectories
        /// The file's owner.
        let owner: UInt32
    }

    /// A chunk's photos in plan order, with whether each is protected.
    typealias Work = [(item: JournalItem, isProtected: Bool)]

    /// What planning keeps from one chunk to the next: the roots and trashes opened,
    /// and the last `DeletionDate=` text with the second it is for.
    struct Caches {
        let roots = RootDirectories()
        let resolver: TrashResolver
        let recycler: RecycleResolver
        var dateText: (second: Int64, text: String)?
    }

    private let requester: Requester
    private let effectiveUID: UInt32
    private let batch: Int64
    /// Photos in the batch: what a trash's name listing is weighed against.
    private let batchSize: Int
    /// Used by one chunk at a time (a chunk's planning is waited for before the next
    /// one starts): the lock is never contended, and lets the planner go from the
    /// batch thread to a helper and back.
    private let caches: Mutex<Caches>
    /// Roots (by path) where only a photo's owner may trash it (`delete: "owner"`).
    private let ownerOnlyRoots: Set<ByteString>

    /// The group given to recycle folders, per root name (`recycle_group`).
    private let recycleGroups: [String: UInt32]

    init(trash: TrashConfiguration, requester: Requester, effectiveUID: UInt32, batch: Int64, batchSize: Int,
         recycleGroups: [String: UInt32] = [:], ownerOnlyRoots: Set<ByteString> = [], failpoints: Failpoints = .disarmed) {
        self.ownerOnlyRoots = ownerOnlyRoots
        self.requester = requester
        self.recycleGroups = recycleGroups
        self.effectiveUID = effectiveUID
        self.batch = batch
        self.batchSize = batchSize
        let directoryMade: @Sendable () -> Void = { try? failpoints.reach(.directoryMade) }
        caches = Mutex(Caches(resolver: TrashResolver(configuration: trash, effectiveUID: effectiveUID, directoryMade: directoryMade),
                              recycler: RecycleResolver(effectiveUID: effectiveUID, directoryMade: directoryMade)))
    }

    /// Step 1 for one chunk, in the chunk's order: nothing on disk changes, nothing is journaled.
    func prepare(_ chunk: Work) -> [Prepared] {
        caches.withLock { caches in
            let parents = ParentDirectories(roots: caches.roots)
            var prepared: [Prepared] = []
            prepared.reserveCapacity(chunk.count)
            for index in chunk.indices {
                prepared.append(prepare(chunk[index].item, isProtected: chunk[index].isProtected, parents: parents, caches: &caches))
            }
            // Nearly always every file is to move, and no group has one to leave.
            guard prepared.contains(where: { if case .done = $0 { true } else { false } }) else { return prepared }
            return Self.keepingGroupsWhole(chunk.map(\.item), prepared)
        }
    }

    /// A group (issue 15) goes to the trash whole or not at all: when one of its
    /// files is to be left (it changed since the plan, vanished, may not be
    /// deleted, ...), every other file of the group is left too, saying why. A
    /// chunk holds whole groups (`ChunkPolicy`), so this sees each group entire.
    static func keepingGroupsWhole(_ items: [JournalItem], _ prepared: [Prepared]) -> [Prepared] {
        let left = groupsLeft(items, prepared.map { step in if case .done(let end) = step { end } else { nil } })
        guard !left.isEmpty else { return prepared }
        return zip(items, prepared).map { item, step in
            guard let unit = item.unit, let end = left[unit], case .move = step else { return step }
            return .done(end)
        }
    }

    /// The groups to leave, with how their files that were to move end: the
    /// outcome of the group's first file left, saying which file and why.
    /// `endings[i]` is nil for a file to move.
    static func groupsLeft(_ items: [JournalItem], _ endings: [PhotoTrasher.Ending?]) -> [Int64: PhotoTrasher.Ending] {
        var left: [Int64: PhotoTrasher.Ending] = [:]
        for (item, end) in zip(items, endings) {
            guard let unit = item.unit, left[unit] == nil, let end else { continue }
            let what = end.detail.map { "\(end.outcome.rawValue): \($0)" } ?? end.outcome.rawValue
            left[unit] = PhotoTrasher.Ending(state: .skipped, outcome: end.outcome,
                                             detail: "left with its group: \(item.relativePath.lastComponent.lossyString) is \(what)")
        }
        // A group none of whose files is to move needs nothing.
        let moving = Set(zip(items, endings).compactMap { item, end in end == nil ? item.unit : nil })
        return left.filter { moving.contains($0.key) }
    }

    private func prepare(_ item: JournalItem, isProtected: Bool, parents: ParentDirectories, caches: inout Caches) -> Prepared {
        func skip(_ outcome: PhotoOutcome, _ detail: String?) -> Prepared {
            .done(PhotoTrasher.Ending(state: .skipped, outcome: outcome, detail: detail))
        }
        func failed(_ error: SystemError, _ doing: String) -> Prepared {
            log.error("batch \(batch) step \(item.step): \(doing): \(error)")
            return skip(.error, error.errno.name)
        }

        if isProtected { return skip(.protected, "in a protected folder") }
        guard let path = item.photoPath else { return skip(.error, "invalid relative path") }

        let parent: DirectoryHandle
        let chain: [FolderPermissions]
        let status: FileStatus
        do throws(SystemError) {
            (parent, chain) = try parents.open(path)
            guard let found = try parent.status(of: path.name) else { return skip(.vanished, nil) }
            status = found
        } catch {
            switch error.errno {
            case .noEntry: return skip(.vanished, nil)
            case .tooManyLinks, .notDirectory: return skip(.changed, "a directory on its path was replaced")
            default: return failed(error, "locating \(path.absolute)")
            }
        }
        if let mismatch = item.identity.mismatch(status) { return skip(.changed, mismatch) }

        if requester.uid != effectiveUID {
            guard let directory = chain.last, AccessRule.maySearch(chain, requester),
                  AccessRule.mayRemove(status, from: directory, requester)
            else {
                return skip(.permissionDenied, "uid \(requester.uid) may not delete files in \(path.absolute.parent)")
            }
        }
        // The root's policy, beyond the folder's permissions (root may, as in `rm`).
        if requester.uid != 0, status.uid != requester.uid, ownerOnlyRoots.contains(item.rootPath) {
            return skip(.permissionDenied, "only its owner (uid \(status.uid)) may trash it: the root's delete policy is \"owner\"")
        }

        return item.trashKind.rules.place(Placing(item: item, path: path, parent: parent, parents: parents, owner: status.uid),
                                          by: self, caches: &caches)
    }

    /// To the user's trash on the photo's mount (`TrashResolver`), with its `.trashinfo` to write.
    func placeInFreedesktopTrash(_ photo: Placing, caches: inout Caches) -> Prepared {
        let (item, path) = (photo.item, photo.path)
        let resolver = caches.resolver
        let placement = photo.parents.placement(path, photo.parent) { parent in
            ParentDirectories.Placement(trash: resolver.trash(for: parent, uid: requester.uid), resolvedPath: parent.resolvedPath())
        }
        let trash: TrashDirectory
        switch placement.trash {
        case .trash(let found): trash = found
        case .unavailable(let reason):
            return .done(PhotoTrasher.Ending(state: .skipped, outcome: .noTrash, detail: reason))
        }
        // Path= names the file where the kernel says it is (the root may be a symlink).
        let original = placement.resolvedPath.map { $0.appending(path.name) } ?? path.absolute
        guard let infoPath = trash.infoPath(forOriginal: original) else {
            return .done(PhotoTrasher.Ending(state: .skipped, outcome: .noTrash,
                                             detail: "\(original) is not below the top directory of \(trash.path)"))
        }
        let name: ByteString
        do throws(SystemError) {
            trash.listNamesIfWorthIt(batchCount: batchSize)
            name = try trash.freeName(for: path.name)
        } catch {
            log.error("batch \(batch) step \(item.step): choosing a name in \(trash.path): \(error)")
            return .done(PhotoTrasher.Ending(state: .skipped, outcome: .error, detail: error.errno.name))
        }
        return .move(PlannedMove(parent: photo.parent, path: path, trash: trash, name: name, owner: photo.owner,
                                 info: TrashInfo(path: infoPath, deletionDate: Self.deletionDate(&caches.dateText))))
    }

    /// To `<root>/.recycle/<user>/<its folder>/`, under its own name or the next free one.
    func placeInRecycleFolder(_ photo: Placing, caches: inout Caches) -> Prepared {
        let (item, path, parent, owner) = (photo.item, photo.path, photo.parent, photo.owner)
        let root: DirectoryHandle
        do throws(SystemError) {
            root = try caches.roots.handle(path.root)
        } catch {
            log.error("batch \(batch) step \(item.step): opening the root \(path.root): \(error)")
            return .done(PhotoTrasher.Ending(state: .skipped, outcome: .error, detail: error.errno.name))
        }
        let folder: TrashDirectory
        switch caches.recycler.folder(for: path, root: root, uid: requester.uid, gid: requester.gid,
                                      group: recycleGroups[item.rootName]) {
        case .trash(let found): folder = found
        case .unavailable(let reason):
            return .done(PhotoTrasher.Ending(state: .skipped, outcome: .noTrash, detail: reason))
        }
        let name: ByteString
        do throws(SystemError) {
            name = try folder.freeName(for: path.name)
        } catch {
            log.error("batch \(batch) step \(item.step): choosing a name in \(folder.path): \(error)")
            return .done(PhotoTrasher.Ending(state: .skipped, outcome: .error, detail: error.errno.name))
        }
        return .move(PlannedMove(parent: parent, path: path, trash: folder, name: name, owner: owner,
                                 info: TrashInfo(path: path.absolute, deletionDate: Self.deletionDate(&caches.dateText))))
    }

    /// `DeletionDate=` for now: formatted once per second, not once per photo.
    private static func deletionDate(_ cached: inout (second: Int64, text: String)?) -> String {
        let now = Int64(time(nil))
        if let cached, cached.second == now { return cached.text }
        let text = LocalTime(epochSeconds: now).trashInfoText
        cached = (now, text)
        return text
    }
}
