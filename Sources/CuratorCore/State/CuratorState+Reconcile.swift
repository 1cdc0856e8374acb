// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// Reconciling what the disk says (the watcher's entry points): the index, the
/// tombstones of trashed photos, the capture queue, and publication of the changes.
extension CuratorState {
    /// Brings one directory's photos in line with `files` (everything the disk has
    /// there). `complete` means `files` is the whole directory, so indexed photos
    /// missing from it are gone; with `deferRemovals` (a full scan) they are left
    /// for `finishScan`, so that a photo renamed into a directory the scan has not
    /// reached yet can still be recognised there by its inode. With `coalesceAdded`
    /// (a full scan's folder step) the photos it adds are told to subscribers as one
    /// `scanned` event for the directory, not one `added` event each.
    func reconcile(root: Int32, directory: ByteString, files: [ScannedFile], complete: Bool, deferRemovals: Bool = false,
                   coalesceAdded: Bool = false, seen: inout IDSet) throws -> [LibraryChange] {
        var arrivals = HeldArrivals()
        return try reconcile(root: root, directory: directory, files: files, complete: complete, deferRemovals: deferRemovals,
                             coalesceAdded: coalesceAdded, seen: &seen, arrivals: &arrivals, holdArrivals: false)
    }

    /// As above; on a share (`RootRuntime.onShare`) a full scan (`deferRemovals`)
    /// holds in `arrivals` the unknown files that look like a photo of the root, to
    /// be paired with what vanished at the scan's end (`finishScan`).
    func reconcile(root: Int32, directory: ByteString, files: [ScannedFile], complete: Bool, deferRemovals: Bool,
                   coalesceAdded: Bool, seen: inout IDSet, arrivals: inout HeldArrivals) throws -> [LibraryChange] {
        try reconcile(root: root, directory: directory, files: files, complete: complete, deferRemovals: deferRemovals,
                      coalesceAdded: coalesceAdded, seen: &seen, arrivals: &arrivals, holdArrivals: deferRemovals)
    }

    private func reconcile(root: Int32, directory: ByteString, files: [ScannedFile], complete: Bool, deferRemovals: Bool,
                           coalesceAdded: Bool, seen: inout IDSet, arrivals: inout HeldArrivals,
                           holdArrivals: Bool) throws -> [LibraryChange] {
        let changes = try library.batch {
            try reconcileInTransaction(root: root, directory: directory, files: files[...], complete: complete,
                                       deferRemovals: deferRemovals, seen: &seen, arrivals: &arrivals, holdArrivals: holdArrivals)
        }
        if coalesceAdded {
            publishScanned(changes, root: root, folder: directory)
        } else {
            publish(changes)
        }
        return changes
    }

    /// A scan step's folders (or parts of folders) in one SQLite transaction and one
    /// hold of the lock: a transaction per folder, and a lock taken per folder, were
    /// most of a cold scan's time under the lock (issue 14). The folders' changes are
    /// published together, as `reconcile` publishes one folder's. A part of a folder
    /// (`ScannedFolder.complete` false) removes nothing, so only a full scan
    /// (`deferRemovals`) splits folders; on a share, a full scan holds in `arrivals`
    /// what may be photos renamed on the server.
    func reconcile(root: Int32, folders: [ScannedFolder], deferRemovals: Bool, coalesceAdded: Bool, adoptRenamed: Bool = true,
                   seen: inout IDSet, arrivals: inout HeldArrivals) throws {
        let changes = try library.batch {
            try folders.map { folder in
                try reconcileInTransaction(root: root, directory: folder.path, files: folder.files, complete: folder.complete,
                                           deferRemovals: deferRemovals, seen: &seen, arrivals: &arrivals,
                                           holdArrivals: deferRemovals, groups: folder.groups, adoptRenamed: adoptRenamed)
            }
        }
        // Published together: the transaction's regrouping is taken once, by the one
        // publication that has every change it can concern.
        if coalesceAdded {
            publishScanned(zip(folders, changes).map { ($0.path, $1) }, root: root)
        } else {
            publish(changes.flatMap { $0 })
        }
    }

    /// `groups`: the plan of the folder's groups, followed where the folder is new
    /// to the index (`PhotoLibrary.placesByPlan`). `adoptRenamed` false: a new file is
    /// not looked up by inode among the photos (`adoptRenamed(root:folder:name:identity:)`).
    private func reconcileInTransaction(root: Int32, directory: ByteString, files: ArraySlice<ScannedFile>, complete: Bool,
                                        deferRemovals: Bool, seen: inout IDSet, arrivals: inout HeldArrivals,
                                        holdArrivals: Bool, groups: FolderGroupPlan? = nil,
                                        adoptRenamed adopts: Bool = true) throws -> [LibraryChange] {
        var changes: [LibraryChange] = []
        // On a share, inode numbers are the client's and need not last: a photo is
        // known by its path, size and mtime where its inode fails (`Tombstones`,
        // `HeldArrivals`, `PhotoLibrary.refreshFileObject`).
        let onShare = roots[root]?.onShare ?? false
        let rootName = roots.names[root] ?? ""
        let folder = try library.ensureFolder(root: root, path: directory)
        // The names present are needed only to find what is gone here and now; a
        // full scan leaves that to its end (a set of every name was a hash and an
        // insert per photo of a cold scan).
        let removesHere = complete && !deferRemovals
        var present = Set<ByteString>(minimumCapacity: removesHere ? files.count : 0)
        // A folder new to the index takes its groups from the plan as its rows
        // are added, each group's shown photo first (`FolderGroupPlan.order`); the
        // first row that cannot be added as planned has the folder grouped again
        // whole, as without a plan.
        var plan = groups.flatMap { $0.count == files.count && library.placesByPlan($0, folder: folder, root: root) ? $0 : nil }
        var placedIDs = [Int64](repeating: 0, count: plan?.count ?? 0)
        // While the plan holds, its rows are added unfiled under their names and
        // filed together at the end, in its name order (`PhotoLibrary.file`): the
        // folder had no row, and a listing's names are distinct, so no name of it
        // needs looking up meanwhile.
        var unfiled: [Int64] = []
        func unplanned() {
            if plan != nil { library.regroupWhole(folder) }
            plan = nil
            // Its rows are looked up by name from here on.
            library.file(folder: folder, ids: unfiled)
            unfiled.removeAll()
        }
        // The file at a name the index holds, changed in place (or, on a share, the same
        // photo under another device or inode number after a remount).
        func updateInPlace(_ id: Int64, _ file: ScannedFile, _ identity: FileIdentity) throws {
            if onShare, let old = library.photo(id), old.type == file.type,
               old.identity.size == identity.size, old.identity.mtimeNs == identity.mtimeNs {
                library.refreshFileObject(id, identity: identity)
                return
            }
            if let change = try library.upsert(root: root, folder: folder, name: file.name, identity: identity, type: file.type) {
                changes.append(change)
                if case .changed(let p) = change, p.capture == .pending { capturePending.append(p.id, root: root) }
            }
        }
        for offset in plan?.order.lazy.map(Int.init) ?? Array(0..<files.count) {
            let file = files[files.startIndex + offset]
            var placed: (group: Int64?, role: GroupRole)?
            if let planned = plan {
                let leader = Int(planned.leader[offset])
                if leader < 0 {
                    placed = (nil, planned.role[offset])
                } else if placedIDs[leader] != 0 {
                    placed = (placedIDs[leader], planned.role[offset])
                } else {
                    unplanned()
                }
            }
            if removesHere { present.insert(file.name) }
            let identity = FileIdentity(file.status)
            // Holds to this file's `upsert`: every path below that drops the plan goes on to the next file.
            let unfiledHere = plan?.byName != nil
            // A plan's photos come in name order, most past every name added before them.
            if !unfiledHere, let id = library.photoID(folder: folder, name: file.name, inOrder: plan != nil) {
                unplanned()
                // Unchanged (every photo of a warm restart): `upsert` would search the
                // folder again only to find nothing to do.
                if library.isUnchanged(id, identity: identity, type: file.type) {
                    seen.insert(id)
                    continue
                }
                // A trashed photo put back (an undo, trash-restore) where the row is still
                // another file's, one that left the name before it came back and whose
                // removal is not indexed yet: that row goes, and the photo takes its own id
                // back below, whichever of the undo and the watcher comes first.
                if !onShare, tombstones.id(device: identity.device, inode: identity.inode) != nil,
                   let old = library.photo(id), old.identity.device != identity.device || old.identity.inode != identity.inode {
                    if let change = try library.remove(id) { changes.append(change) }
                } else {
                    seen.insert(id)
                    try updateInPlace(id, file, identity)
                    continue
                }
            }
            // A share's inode numbers are not compared with those the index
            // recorded: after a remount another file may carry one of them.
            if !onShare, adopts, let moved = try adoptRenamed(root: root, folder: folder, name: file.name, identity: identity) {
                unplanned()
                if case .moved(let p, _, _) = moved { seen.insert(p.id) }
                changes.append(moved)
                continue
            }
            let former = onShare
                ? tombstones.exhume(rootName: rootName, relativePath: directory.appending(file.name), size: identity.size,
                                    mtimeNs: identity.mtimeNs)
                : tombstones.exhume(device: identity.device, inode: identity.inode)
            if onShare && holdArrivals && former == nil && looksLikeAKnownPhoto(file, root: root, arrivals: &arrivals) {
                unplanned()
                arrivals.hold(file, in: directory)
                continue
            }
            // Nothing is at this name: looked up above (or, while the plan holds, none of the
            // folder's is taken), and nothing since has put a photo there.
            if let change = try library.upsert(root: root, folder: folder, name: file.name, identity: identity, type: file.type,
                                               preferredID: former, absent: true, placed: plan == nil ? nil : placed,
                                               filed: !unfiledHere) {
                if case .added(let p) = change {
                    if plan != nil { placedIDs[offset] = p.id }
                    if unfiledHere { unfiled.append(p.id) }
                    seen.insert(p.id)
                    // A sidecar has no capture time to read (its group's is its photos').
                    if p.capture == .pending { capturePending.append(p.id, root: root) }
                }
                changes.append(change)
            }
        }
        // The plan held to the end: every row it added is unfiled, and filed now in
        // its name order (what is left unfiled otherwise, filed on its own).
        if let byName = plan?.byName, !unfiled.isEmpty {
            library.file(folder: folder, ids: byName.compactMap { placedIDs[Int($0)] == 0 ? nil : placedIDs[Int($0)] })
        } else {
            library.file(folder: folder, ids: unfiled)
        }
        if removesHere {
            for (name, id) in library.members(ofFolder: folder) where !present.contains(name) {
                if let change = try library.remove(id) { changes.append(change) }
            }
        }
        return changes
    }

    /// Whether a file new to a share's full scan has the size, mtime and type of a
    /// photo of the root (the fingerprints are taken once per scan).
    private func looksLikeAKnownPhoto(_ file: ScannedFile, root: Int32, arrivals: inout HeldArrivals) -> Bool {
        if arrivals.known == nil {
            var known = Set<FileFingerprint>()
            for folder in library.folderIDs(inRoot: root) {
                for id in library.photoIDs(inFolder: folder) {
                    if let photo = library.photo(id) { known.insert(FileFingerprint(photo)) }
                }
            }
            arrivals.known = known
        }
        return arrivals.known?.contains(FileFingerprint(file)) ?? false
    }

    /// A file new at this path whose inode the index knows under a path that no
    /// longer holds it: the same photo, renamed while we were not looking. Size and
    /// mtime must match too (a rename changes neither): an inode number reused by
    /// a new file after a deletion must not inherit the deleted photo's id.
    private func adoptRenamed(root: Int32, folder: Int32, name: ByteString, identity: FileIdentity) throws -> LibraryChange? {
        guard let id = library.photoID(device: identity.device, inode: identity.inode),
              let old = library.photo(id), old.rootID == root,
              old.identity.size == identity.size, old.identity.mtimeNs == identity.mtimeNs,
              let oldPath = absolutePath(root: root, relative: library.relativePath(of: old))
        else { return nil }
        if let there = try? FileStatus.ifExists(oldPath), there.inode == identity.inode, there.device == identity.device {
            return nil  // still there too: a hard link, so a photo of its own
        }
        return try library.move(id, toFolder: folder, name: name, identity: identity)
    }

    /// One file appeared or was rewritten (an event); the watcher has stat'ed it.
    func fileAppeared(root: Int32, directory: ByteString, file: ScannedFile) throws {
        try filesAppeared(root: root, directory: directory, files: [file])
    }

    func filesAppeared(root: Int32, directory: ByteString, files: [ScannedFile]) throws {
        var seen = IDSet()
        _ = try reconcile(root: root, directory: directory, files: files, complete: false, seen: &seen)
    }

    /// A file at this path is gone (deleted or moved out), as the disk confirms.
    func fileVanished(root: Int32, relativePath: ByteString) throws {
        guard let id = library.photoID(root: root, relativePath: relativePath) else { return }
        // The watcher found the file gone outside the lock, a while ago (a MOVED_FROM
        // waits for its partner first): an undo may have put it back and indexed it
        // since, under this lock. Removed then, the photo it restored left the index
        // until the next scan. A file there now is left to its own events. (Not on a
        // share: nothing of a share is read under the lock, see `FolderAccess`.)
        if let runtime = roots[root], !runtime.onShare,
           let status = try? FileStatus.ifExists(runtime.config.path.appending(relativePath)), status.isRegularFile {
            return
        }
        if let change = try library.remove(id) { publish([change]) }
    }

    /// A file renamed inside a root (a paired move).
    func fileMoved(root: Int32, from: ByteString, toRoot: Int32, to: ByteString, file: ScannedFile) throws {
        guard toRoot == root, let id = library.photoID(root: root, relativePath: from) else {
            try fileVanished(root: root, relativePath: from)
            try fileAppeared(root: toRoot, directory: to.parent, file: file)
            return
        }
        let change = try library.batch { () -> LibraryChange? in
            let folder = try library.ensureFolder(root: root, path: to.parent)
            return try library.move(id, toFolder: folder, name: to.lastComponent, identity: FileIdentity(file.status))
        }
        if let change { publish([change]) }
    }

    func folderMoved(root: Int32, from: ByteString, to: ByteString) throws {
        // Who could list each folder before the move, while the verdicts stand.
        let uids = events.subscriberUIDs
        var before: [Int32: Set<UInt32>] = [:]
        for folder in library.folders(root: root, within: from) {
            before[folder.id] = uids.filter { mayList(folderID: folder.id, root: root, uid: $0) }
        }
        // rename(2) replaced only an empty folder: what is still indexed at `to` (a
        // folder moved out whose half has not settled yet) left, and is told so.
        let stale = try library.batch { () -> [LibraryChange] in
            let stale = library.folderID(root: root, path: to) == nil ? [] : try library.removeTree(root: root, path: to)
            try library.moveFolderTree(root: root, from: from, to: to)
            return stale
        }
        publish(stale)
        access.forget(root: root)
        unselectProtected(root: root, within: to)
        if events.hasSubscribers {
            // Each photo below moved; tell subscribers so their paths stay right: a
            // photo moved out of a user's sight is removed for them, into it added.
            for folder in library.folders(root: root, within: to) {
                let fromFolderPath = from.appending(folder.path.relative(to: to))
                let was = before[folder.id] ?? uids
                let now = uids.filter { mayList(folderID: folder.id, root: root, uid: $0) }
                let both = was.intersection(now)
                for id in library.photoIDs(inFolder: folder.id) {
                    // A group moves as one: said once, by its shown photo, under the group's id.
                    guard let photo = library.photo(id), photo.role == .shown else { continue }
                    let oldPath = wirePath(fromFolderPath.appending(photo.name))
                    events.send(Event(event: .moved, root: roots.names[root], photo: summary(photo), from: oldPath),
                                root: root, only: both.count == uids.count ? nil : both)
                    if was != both {
                        events.send(Event(event: .removed, root: roots.names[root], photoId: photo.groupID, from: oldPath),
                                    root: root, only: was.subtracting(both))
                    }
                    if now != both {
                        events.send(Event(event: .added, root: roots.names[root], photo: summary(photo)),
                                    root: root, only: now.subtracting(both))
                    }
                }
            }
        }
    }

    func folderVanished(root: Int32, path: ByteString) throws {
        let changes = try library.batch { try library.removeTree(root: root, path: path) }
        // The events say where the photos were, to those who could see them there.
        publish(changes)
        access.forget(root: root)
    }

    /// The end of a full scan of a root: whatever was not seen is gone, except below
    /// `unreadable` directories (a permission problem is not a deletion).
    /// Costs the size of the root, not of the whole index.
    func finishScan(root: Int32, seen: IDSet, seenFolders: Set<ByteString>, unreadable: [ByteString] = []) throws {
        try finishScan(root: root, seen: seen, seenFolders: seenFolders, unreadable: unreadable, arrivals: HeldArrivals(),
                       coalesceAdded: false)
    }

    /// As above, with the files a share's scan held (`HeldArrivals`): each that is
    /// certainly a photo that vanished (one candidate each way) is that photo moved,
    /// its id kept and one `moved` event told; the others are added, as the scan
    /// would have (`coalesceAdded`: in `scanned` events).
    /// In one step: the crawler ends a scan that held no arrivals in bounded steps
    /// instead (`removeUnseen`, `dropFolders`); pairing needs every photo that vanished.
    func finishScan(root: Int32, seen: IDSet, seenFolders: Set<ByteString>, unreadable: [ByteString],
                    arrivals: HeldArrivals, coalesceAdded: Bool) throws {
        var changes: [LibraryChange] = []
        var unpaired: [HeldArrivals.Arrival] = []
        try library.batch {
            var unseenFolders: [Folder] = []
            var vanished: [Int64] = []
            for folderID in library.folderIDs(inRoot: root) {
                guard let folder = library.folders[folderID] else { continue }
                if unreadable.contains(where: { folder.path.isWithin($0) }) { continue }
                for (_, id) in library.members(ofFolder: folderID) where !seen.contains(id) { vanished.append(id) }
                if !seenFolders.contains(folder.path) && !folder.path.isEmpty { unseenFolders.append(folder) }
            }
            // What came meanwhile through events may stand at a held path by now.
            let waiting = arrivals.files.filter { arrival in
                guard let folder = library.folderID(root: root, path: arrival.directory) else { return true }
                return library.photoID(folder: folder, name: arrival.file.name) == nil
            }
            let pairs = HeldArrivals.pairs(vanished: vanished.compactMap { library.photo($0).map(FileFingerprint.init) },
                                           arrivals: waiting.map { FileFingerprint($0.file) })
            var moved = Set<Int64>()
            var paired = Set<Int>()
            for pair in pairs {
                let id = vanished[pair.vanished]
                let arrival = waiting[pair.arrival]
                let folder = try library.ensureFolder(root: root, path: arrival.directory)
                if let change = try library.move(id, toFolder: folder, name: arrival.file.name, identity: FileIdentity(arrival.file.status)) {
                    changes.append(change)
                    moved.insert(id)
                    paired.insert(pair.arrival)
                }
            }
            unpaired = waiting.indices.filter { !paired.contains($0) }.map { waiting[$0] }
            for id in vanished where !moved.contains(id) {
                if let change = try library.remove(id) { changes.append(change) }
            }
            // Deepest first: each folder leaves a parent that is still linked.
            for folder in unseenFolders.sorted(by: { $0.path.count > $1.path.count }) { try library.dropFolder(folder) }
        }
        publish(changes)
        // The others are new photos: added as the scan's folder steps would have.
        var byFolder: [ByteString: [ScannedFile]] = [:]
        for arrival in unpaired { byFolder[arrival.directory, default: []].append(arrival.file) }
        for (directory, files) in byFolder.sorted(by: { $0.key.bytes.lexicographicallyPrecedes($1.key.bytes) }) {
            var ignored = IDSet()
            _ = try reconcile(root: root, directory: directory, files: files, complete: false, coalesceAdded: coalesceAdded, seen: &ignored)
        }
    }

    /// The root's folders as a full scan's end goes through them, a step at a time.
    func scanFolderIDs(root: Int32) -> [Int32] { library.folderIDs(inRoot: root).sorted() }

    func hasPhotos(root: Int32) -> Bool { (library.countByRoot[root] ?? 0) > 0 }

    func foldersWithRows(root: Int32, within path: ByteString?) -> Set<ByteString> {
        guard let path else {
            return Set(library.folderIDs(inRoot: root).lazy.filter { self.library.memberCount(ofFolder: $0) > 0 }
                .compactMap { self.library.folderPath($0) })
        }
        // A folder's own scan (one made or moved in): its subtree only, found by
        // walking down from it. The root's every folder, for each of the hundreds of
        // folders a `tar -x` makes, was most of the watcher's time at a million photos.
        return Set(library.folders(root: root, within: path).lazy.filter { self.library.memberCount(ofFolder: $0.id) > 0 }.map(\.path))
    }

    /// One step of a full scan's end: in the first of `folders`, the photos the scan
    /// did not see are removed, until about `budget` photos were looked at (a whole
    /// folder at least). Returns how many folders it took, and those of them the scan
    /// did not see (to be dropped, deepest first, once every step is done). Folders
    /// gone meanwhile are passed over; photos gone meanwhile are not found.
    func removeUnseen(root: Int32, folders: ArraySlice<Int32>, seen: IDSet, seenFolders: Set<ByteString>,
                      unreadable: [ByteString], budget: Int) throws -> (consumed: Int, unseenFolders: [Folder]) {
        var changes: [LibraryChange] = []
        var unseenFolders: [Folder] = []
        var consumed = 0
        var looked = 0
        try library.batch {
            for folderID in folders {
                consumed += 1
                guard let folder = library.folders[folderID], folder.rootID == root else { continue }
                if unreadable.contains(where: { folder.path.isWithin($0) }) { continue }
                let members = library.photoIDs(inFolder: folderID)
                looked += members.count + 1
                for id in members where !seen.contains(id) {
                    // A removal writes a row and an event: it weighs more than a look.
                    looked += 16
                    if let change = try library.remove(id) { changes.append(change) }
                }
                if !seenFolders.contains(folder.path) && !folder.path.isEmpty { unseenFolders.append(folder) }
                if looked >= budget { break }
            }
        }
        publish(changes)
        return (consumed, unseenFolders)
    }

    /// The last steps of a full scan's end: folders it did not see are dropped,
    /// deepest first (each leaves a parent that is still linked), up to `limit` per
    /// call. Returns how many it took.
    func dropFolders(_ folders: ArraySlice<Folder>, limit: Int) throws -> Int {
        var changes: [LibraryChange] = []
        let taken = folders.prefix(limit)
        try library.batch {
            for folder in taken {
                // Still the folder the step saw (not dropped by an event, nor another at its path).
                guard library.folders[folder.id]?.path == folder.path else { continue }
                for id in library.photoIDs(inFolder: folder.id) {
                    if let change = try library.remove(id) { changes.append(change) }
                }
                try library.dropFolder(folder)
            }
        }
        publish(changes)
        return taken.count
    }
}
