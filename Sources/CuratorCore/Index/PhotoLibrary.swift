// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// A change to the library, reported so that sessions and subscribers can follow.
public enum LibraryChange: Sendable {
    case added(Photo)
    case changed(Photo)
    case moved(Photo, fromFolder: Int32, fromName: ByteString)
    case removed(Photo)
}

/// The in-memory index of every photo, written through to `IndexStore`.
/// Owned by `CuratorState`; never touched outside its lock.
///
/// Every per-event operation costs in proportion to the folder (or subtree) it
/// touches, never to the whole index: photos are kept per folder, folders per
/// root and per parent.
final class PhotoLibrary {
    let store: IndexStore
    private(set) var photos = PhotoTable()
    /// Each folder's photos by name: lookups by path, and a folder's members.
    private var entries: [Int32: FolderEntries] = [:]
    /// Photo id by a one-word digest of (device, inode), 8 bytes a slot. A digest
    /// shared by two files only makes one of them unfindable by inode (a rename
    /// while down then gets a new id); lookups check the photo's real device and
    /// inode, so a digest never names the wrong photo. It confirms its matches in
    /// `photos`: a photo is filed after it is put there and taken out before.
    private var byInode = InodeIndex()
    /// The folders by id, path, root and parent.
    private(set) var tree = FolderTree()
    private var ids = PhotoIDAllocator(next: 1)
    private var nextRank: [Int32: Int64] = [:]
    /// The totals per root and per folder (`LibraryCounters`).
    private(set) var counters = LibraryCounters()
    /// Bumped on every change, so that cached views know when to rebuild.
    private(set) var generation: UInt64 = 0
    /// Bumped on every change but a capture time's: what the background readers of
    /// files plan from (capture times are read by the hundred while they plan).
    private(set) var fileGeneration: UInt64 = 0
    private var inTransaction = false
    /// What the open transaction changed in memory, oldest first (`LibraryUndo`).
    private var undoLog: [LibraryUndo] = []

    // Groups (PhotoLibrary+Groups.swift).
    /// Every row of a group by its id, kept for each group that is more than one
    /// row or whose id is not its only row's own: a ring through the rows.
    var groupLinks = GroupLinks()
    /// Each root's way of grouping; a root not set does not group.
    var groupSettings: [Int32: GroupSettings] = [:]
    /// What the open transaction groups again before it commits.
    var regroups = RegroupQueue()
    /// Per folder, its names by the bases they can change (`ShotKeys`): built when
    /// a folder is first regrouped in part, kept since, dropped on a rollback.
    var groupKeys: [Int32: [UInt64: Set<ByteString>]] = [:]
    func isFresh(_ id: Int64) -> Bool { regroups.isFresh(id) }
    /// Whether the open transaction added `id` back under its former id (from the trash).
    func isReturned(_ id: Int64) -> Bool { regroups.isReturned(id) }
    /// Rows a regrouping went over since the library opened: what the scans left
    /// to group after adding rows (a new folder's are placed by its plan).
    var regroupedRows = 0
    /// Rows whose group or role changed since the state last took them (`takeShifts`).
    var shifts: [GroupShift] = []
    /// Rows and sidecar records to write before the transaction commits.
    private var pending = PendingWrites()

    init(store: IndexStore) throws {
        self.store = store
        var loaded = try store.loadFolders()
        // Parents first, so that every folder finds (or gets) its parent row.
        loaded.sort { $0.path.count < $1.path.count }
        for folder in loaded { try adoptLoadedFolder(folder) }
        // Sized once for what is stored: growing a 7 MB table and the inode table
        // step by step took a tenth of a warm restart at 100 000 photos.
        var load = PhotoLoad(reserving: try store.photoCount())
        try store.loadPhotos(into: &load) { [folders] in folders[$0]?.rootID }
        load.finish()
        adopt(load)
        ids = PhotoIDAllocator(next: max(try store.maxPhotoID() + 1, try store.reservedPhotoID()))
        // Sidecars among the photo rows (an index of version 2) move into records.
        if !store.strayedSidecars.isEmpty {
            try batch {
                for id in store.strayedSidecars {
                    try store.deletePhoto(id: id)
                    pending.row(id)
                }
            }
        }
    }

    /// Takes the photos read from the store as they are: what filing each with
    /// `insertInMemory` would leave.
    private func adopt(_ load: PhotoLoad) {
        photos = load.photos
        byInode = load.byInode
        entries = load.entries
        groupLinks = load.groupLinks
        nextRank = load.nextRank
        counters = LibraryCounters(loaded: load.totals, listedByFolder: load.listedByFolder)
        generation &+= UInt64(load.count)
    }

    func takeID() throws -> Int64 {
        note(.ids(next: ids.next, reserved: ids.reserved))
        return try ids.take { try store.setReservedPhotoID($0) }
    }

    /// A folder read from the store; an index written before folders were linked to
    /// their parents may lack the intermediate rows, which are created here.
    private func adoptLoadedFolder(_ folder: Folder) throws {
        let key = FolderKey(rootID: folder.rootID, path: folder.path)
        if tree.id(root: key.rootID, path: key.path) != nil {
            // A duplicate row (never written by this version): keep the first.
            try store.deleteFolder(id: folder.id)
            return
        }
        if !folder.path.isEmpty { try ensureFolder(root: folder.rootID, path: folder.path.parent) }
        link(folder)
    }

    // MARK: transactions

    /// Groups the writes of `body` into one SQLite transaction (the cache need not
    /// be durable per write, but one transaction per directory keeps scans fast).
    /// Every mutation runs in one (its own, when called outside). If the body or
    /// the commit fails, SQLite rolls back and so do the in-memory tables, from the
    /// undo log: the two never disagree, and ids handed out in the failed
    /// transaction (never published, never stored) are handed out again, after
    /// the reservation that was rolled back with them.
    func batch<R>(_ body: () throws -> R) throws -> R {
        if inTransaction { return try body() }
        tree.forgetDropped()
        try store.begin()
        inTransaction = true
        regroups.begin(nextID: ids.next)
        let shiftsBefore = shifts.count
        defer {
            inTransaction = false
            // A large transaction (a root dropped) does not keep its log's memory.
            undoLog.removeAll(keepingCapacity: undoLog.capacity <= 4096)
            regroups.end()
            pending.clear()
        }
        do {
            let r = try body()
            // Each folder touched is grouped again, in the same transaction: whole,
            // or the groups its changed names can be in.
            for (folder, keys) in regroups.keysByFolder where !regroups.isWhole(folder) { try regroup(folder: folder, touching: keys) }
            while let folder = regroups.popWhole() { try regroup(folder: folder, touching: nil) }
            try persist(pending.sortedRows())
            try store.commit()
            return r
        } catch {
            shifts.removeSubrange(min(shiftsBefore, shifts.count)...)
            do {
                try store.database.execute("ROLLBACK")
            } catch {
                // A failed COMMIT may have rolled back already; either way nothing of it stays.
                log.debug("index: rollback: \(error)")
            }
            rollBackMemory()
            groupKeys.removeAll()  // rebuilt from the folder when next needed
            throw error
        }
    }

    private func note(_ change: LibraryUndo) {
        if inTransaction { undoLog.append(change) }
    }

    /// Puts the in-memory tables back as they were when the transaction began,
    /// undoing its changes newest first.
    private func rollBackMemory() {
        while let change = undoLog.popLast() {
            switch change {
            case .inserted(let photo, let entry, let inode, let rank):
                // The folder entries compare names through the table: the photo
                // leaves them while it is still there.
                setEntry(photo.folderID, photo.name, entry)
                byInode.set(Self.inodeDigest(photo.identity.device, photo.identity.inode), inode, digestOf: digest(of:))
                photos[photo.id] = nil
                nextRank[photo.folderID] = rank
                count(photo, -1)
            case .removed(let photo, let entry, let inode):
                photos[photo.id] = photo
                if entry { setEntry(photo.folderID, photo.name, photo.id) }
                if inode { byInode.set(Self.inodeDigest(photo.identity.device, photo.identity.inode), photo.id, digestOf: digest(of:)) }
                count(photo, 1)
            case .replaced(let old):
                counters.replace(photos[old.id], with: old)
                photos[old.id] = old
            case .regrouped(let id, let group, let role):
                if let row = photos.row(id) {
                    counters.changeRole(root: photos.rootID(of: row), folder: row.folderID, from: row.role, to: role)
                    photos.setGroup(id, group: group, role: role)
                }
            case .folder(let change):
                tree.undo(change)
            case .rank(let folder, let rank):
                nextRank[folder] = rank
            case .groupRows(let group, let rows):
                groupLinks[group] = rows
            case .joined(let id):
                groupLinks.removeAppended(id)
            case .ids(let next, let reserved):
                ids.restore(next: next, reserved: reserved)
            }
        }
        generation &+= 1
        fileGeneration &+= 1
    }

    /// Marks a row changed in memory for the store, where it is written before the
    /// transaction commits (every change runs in one: `batch`).
    private func write(_ photo: Photo) throws { try write(photo.id) }

    /// As `write(_:)`, for a row changed in place.
    private func write(_ id: Int64) throws {
        guard inTransaction else { return try persist([id]) }
        pending.row(id)
    }

    /// Takes a row that left the table (`photo` as it was) out of the store.
    private func unstore(_ photo: Photo) throws {
        guard photo.type.isSidecar else { return try store.deletePhoto(id: photo.id) }
        pending.record(SidecarRecord.record(of: photo.id))
        if !inTransaction { try persist([]) }
    }

    /// Writes rows `ids` (ascending: new rows go to the end of the table's B-tree)
    /// as they are in memory: a photo's row, or its sidecar's record, which is
    /// written whole with the records of sidecars that left.
    private func persist(_ ids: [Int64]) throws {
        // Read through one copy of the table (its buffers retained once): each
        // `photos.row` here retained and released every one of them.
        let table = photos
        var last: Int64?
        var lastRecord: Int64?
        for id in ids where id != last {
            last = id
            guard let row = table.row(id) else { continue }  // removed since, and deleted then
            if !row.type.isSidecar {
                try store.upsertPhoto(table.photo(row))
            } else if SidecarRecord.record(of: id) != lastRecord {
                lastRecord = SidecarRecord.record(of: id)
                pending.record(SidecarRecord.record(of: id))
            }
        }
        for record in pending.takeRecords() { try store.setSidecars(record: record, table.sidecarRecord(record)) }
    }

    /// Photo rows and sidecar records written to the store since it was opened.
    var storeWrites: Int { store.photoWrites }

    /// Has the index file take in what its WAL holds, beside the writer (`IndexStore.checkpointSoon`).
    func checkpointSoon() { store.checkpointSoon() }

    // MARK: lookups

    func photo(_ id: Int64) -> Photo? { photos[id] }

    /// A photo's group role, read in place (`photos.row` from outside the library
    /// copies the whole table's references first, once per photo of a scan).
    func role(of id: Int64) -> GroupRole? { photos.row(id)?.role }

    func folderID(root: Int32, path: ByteString) -> Int32? { tree.id(root: root, path: path) }

    var folders: [Int32: Folder] { tree.folders }

    /// Bumped when a folder is dropped or moved, or a transaction rolled back:
    /// within one epoch folders are only added, each appended to `linkedFolders`,
    /// so an answer worked out over every folder (`listsEverything`) needs only
    /// the folders linked since it, not a walk of all of them per change.
    var folderEpoch: UInt64 { tree.epoch }
    var linkedFolders: [Int32] { tree.linkedSinceEpoch }

    var countByRoot: [Int32: Int] { counters.countByRoot }
    var bytesByRoot: [Int32: Int64] { counters.bytesByRoot }
    /// Rows listed as photos per root (a group once).
    var listedByRoot: [Int32: Int] { counters.listedByRoot }
    /// Rows listed per folder (`ViewPositions`).
    var listedByFolder: [Int32: Int] { counters.listedByFolder }
    /// Photos per root whose capture time is still to be read.
    var pendingCaptureByRoot: [Int32: Int] { counters.pendingCaptureByRoot }

    /// `inOrder`: names are asked in ascending order, most past every name of the folder (a plan's).
    func photoID(folder: Int32, name: ByteString, inOrder: Bool = false) -> Int64? {
        entries[folder]?.id(named: name, in: photos, inOrder: inOrder)
    }

    func photoID(root: Int32, relativePath: ByteString) -> Int64? {
        guard let folder = folderID(root: root, path: relativePath.parent) else { return nil }
        return photoID(folder: folder, name: relativePath.lastComponent)
    }

    func photoID(device: UInt64, inode: UInt64) -> Int64? {
        guard let id = byInode.find(Self.inodeDigest(device, inode), digestOf: digest(of:)), let row = photos.row(id),
              row.inode == inode, photos.device(of: row) == device else { return nil }
        return id
    }

    /// The inode digest of a photo in the table (the inode index confirms its
    /// matches with it).
    private func digest(of id: Int64) -> UInt64? {
        photos.row(id).map { Self.inodeDigest(photos.device(of: $0), $0.inode) }
    }

    static func inodeDigest(_ device: UInt64, _ inode: UInt64) -> UInt64 {
        // Inode numbers are small and dense; a multiply spreads the device's bits over them.
        inode ^ (device &* 0x9E37_79B9_7F4A_7C15)
    }

    /// The path of a folder, also for one dropped in the current or last batch.
    func folderPath(_ id: Int32) -> ByteString? { tree.path(id) }

    func relativePath(of photo: Photo) -> ByteString {
        guard let folder = folderPath(photo.folderID) else { return photo.name }
        return folder.appending(photo.name)
    }

    /// The ids of the photos directly in a folder.
    func photoIDs(inFolder folder: Int32) -> [Int64] { entries[folder]?.values ?? [] }

    /// The photos directly in a folder, by name, one at a time.
    func forEachPhotoID(inFolder folder: Int32, _ body: (Int64) -> Void) { entries[folder]?.forEachID(body) }

    /// The photos directly in a folder, by name.
    func members(ofFolder folder: Int32) -> [(name: ByteString, id: Int64)] { entries[folder]?.pairs(in: photos) ?? [] }

    func memberCount(ofFolder folder: Int32) -> Int { entries[folder]?.count ?? 0 }

    func photos(inRoot root: Int32) -> [Photo] {
        folderIDs(inRoot: root).flatMap { photoIDs(inFolder: $0).compactMap { photos[$0] } }
    }

    func folderIDs(inRoot root: Int32) -> Set<Int32> { tree.ids(inRoot: root) }

    /// Folders of `root` at or below `path`, found by walking down from it.
    func folders(root: Int32, within path: ByteString) -> [Folder] { tree.subtree(root: root, within: path) }

    // MARK: mutations

    /// The folder at `path`, created (with any missing parents) if needed.
    @discardableResult
    func ensureFolder(root: Int32, path: ByteString) throws -> Int32 {
        if let id = folderID(root: root, path: path) { return id }
        return try batch {
            if !path.isEmpty { try ensureFolder(root: root, path: path.parent) }
            let id = try store.insertFolder(rootID: root, path: path)
            link(Folder(id: id, rootID: root, path: path))
            return id
        }
    }

    /// Inserts a new photo, or updates the one at that path. Returns the change.
    /// `absent`: the caller has just looked, and no photo is at that path (a scan's
    /// new file), so it is not looked for again.
    /// `placed`: a new row's group (nil: its own id) and role, as its folder's
    /// `FolderGroupPlan` says (`placesByPlan`); the folder is then not grouped again.
    /// `filed` false (with `absent`): the new row is not filed under its name in its
    /// folder until the caller files it (`file(folder:ids:)`) before the transaction
    /// ends; meanwhile the folder's names do not hold it, and no other row may be
    /// added at its name. A scan's new folder is filed whole so, its names in order.
    func upsert(root: Int32, folder: Int32, name: ByteString, identity: FileIdentity, type: PhotoType,
                capture: CaptureState = .pending, preferredID: Int64? = nil, absent: Bool = false,
                placed: (group: Int64?, role: GroupRole)? = nil, filed: Bool = true) throws -> LibraryChange? {
        try batch { try upsertInTransaction(root: root, folder: folder, name: name, identity: identity, type: type,
                                            capture: capture, preferredID: preferredID, absent: absent, placed: placed,
                                            filed: filed) }
    }

    private func upsertInTransaction(root: Int32, folder: Int32, name: ByteString, identity: FileIdentity, type: PhotoType,
                                     capture: CaptureState, preferredID: Int64?, absent: Bool,
                                     placed: (group: Int64?, role: GroupRole)?, filed: Bool) throws -> LibraryChange? {
        assert(!absent || photoID(folder: folder, name: name) == nil, "a photo said absent is at its path")
        if !absent, let id = photoID(folder: folder, name: name), let row = photos.row(id) {
            if isUnchanged(row, identity: identity, type: type) { return nil }
            var existing = photos.photo(row)
            let sameFile = existing.identity.device == identity.device && existing.identity.inode == identity.inode
            let sameContent = sameFile && existing.identity.mtimeNs == identity.mtimeNs && existing.identity.size == identity.size
            removeFromMemory(existing)
            // A photo's row and a sidecar's record: the one it was in forgets it.
            if existing.type.isSidecar != type.isSidecar { try unstore(existing) }
            existing.identity = identity
            existing.type = type
            // A rewritten file may carry another capture time: read it again.
            existing.capture = sameContent ? existing.capture : capture
            if !sameContent { existing.captureDetail = .none }
            insertInMemory(existing)
            try write(existing)
            return .changed(existing)
        }
        let id: Int64
        if let preferredID, photos.row(preferredID) == nil, ids.handedOut(preferredID) {
            id = preferredID  // a photo coming back from the trash keeps its former id
            regroups.returned(id)
        } else {
            id = try takeID()
        }
        // A sidecar has no capture time of its own (its group's is its photos').
        let photo = Photo(id: id, rootID: root, folderID: folder, name: name, identity: identity, type: type,
                          capture: type.isSidecar ? .none : capture, rank: takeRank(folder),
                          groupID: placed.map { $0.group ?? id }, role: placed?.role)
        insertInMemory(photo, placed: placed != nil, filed: filed || !absent)
        try write(photo)
        return .added(photo)
    }

    /// Files rows added unfiled (`upsert`'s `filed`) under their names in
    /// `folder`: where the folder has no name filed and `ids` come in strict name
    /// order (a plan's `byName`), in one pass that checks the order; else each
    /// searched for and filed on its own.
    func file(folder: Int32, ids: [Int64]) {
        guard !ids.isEmpty else { return }
        if entries[folder]?.isEmpty ?? true, let whole = FolderEntries(sortedIDs: ids, in: photos) {
            entries[folder] = whole
            return
        }
        for id in ids {
            if let row = photos.row(id) { entries[folder, default: FolderEntries()].set(photos.name(of: row), id, in: photos) }
        }
    }

    /// Whether photo `id` is this file as it is now: the same device, inode, size,
    /// mtime and type, so that `upsert` would change nothing. Decided on the row,
    /// without copying the name out of the arena: a scan asks it of every file it
    /// finds indexed (every photo of a warm restart).
    func isUnchanged(_ id: Int64, identity: FileIdentity, type: PhotoType) -> Bool {
        photos.row(id).map { isUnchanged($0, identity: identity, type: type) } ?? false
    }

    private func isUnchanged(_ row: PhotoRow, identity: FileIdentity, type: PhotoType) -> Bool {
        row.inode == identity.inode && row.size == identity.size && row.mtimeNs == identity.mtimeNs
            && row.type == type && photos.device(of: row) == identity.device
    }

    /// The same photo, unchanged, seen as another file object: a share shows another
    /// device and inode number after a remount (and sshfs after forgetting a file),
    /// while its path, size and mtime stay. The memory takes the numbers the batch's
    /// checks will compare with; the row keeps the old ones, which are read back only
    /// to be refreshed the same way by the next scan, so an unchanged photo costs no
    /// write and no event. In place (its folder entry, rank and group stay as they
    /// are, so nothing is regrouped); rolled back with the transaction like any change.
    func refreshFileObject(_ id: Int64, identity: FileIdentity) {
        guard var photo = photos[id], photo.identity != identity else { return }
        note(.replaced(photo))
        // Out of the inode index under the old identity while the table still has it
        // (the index confirms a match by the table's photo), in under the new after.
        let old = Self.inodeDigest(photo.identity.device, photo.identity.inode)
        if byInode.find(old, digestOf: digest(of:)) == id { byInode.set(old, nil, digestOf: digest(of:)) }
        photo.identity = identity
        photos[id] = photo
        byInode.set(Self.inodeDigest(identity.device, identity.inode), id, digestOf: digest(of:))
    }

    /// Moves a photo to another folder/name, keeping its id.
    func move(_ id: Int64, toFolder folder: Int32, name: ByteString, identity: FileIdentity? = nil) throws -> LibraryChange? {
        guard photos[id] != nil else { return nil }
        return try batch { try moveInTransaction(id, toFolder: folder, name: name, identity: identity) }
    }

    private func moveInTransaction(_ id: Int64, toFolder folder: Int32, name: ByteString, identity: FileIdentity?) throws -> LibraryChange? {
        guard var photo = photos[id] else { return nil }
        let fromFolder = photo.folderID
        let fromName = photo.name
        // Whatever stood at the destination is replaced (rename(2) semantics).
        if let other = photoID(folder: folder, name: name), other != id, let victim = photos[other] {
            removeFromMemory(victim)
            try unstore(victim)
        }
        removeFromMemory(photo)
        if fromFolder != folder { photo.rank = takeRank(folder) }
        photo.folderID = folder
        photo.name = name
        if let identity { photo.identity = identity }
        insertInMemory(photo)
        try write(photo)
        return .moved(photo, fromFolder: fromFolder, fromName: fromName)
    }

    func remove(_ id: Int64) throws -> LibraryChange? {
        guard let photo = photos[id] else { return nil }
        return try batch {
            removeFromMemory(photo)
            try unstore(photo)
            return .removed(photo)
        }
    }

    func setCapture(_ id: Int64, _ capture: CaptureState, detail: CaptureDetail = .none) throws {
        guard var photo = photos[id], photo.capture != capture || photo.captureDetail != detail else { return }
        try batch {
            note(.replaced(photo))
            counters.changeCapture(root: photo.rootID, from: photo.capture, to: capture)
            photo.capture = capture
            photo.captureDetail = detail
            photos[id] = photo
            generation &+= 1
            try write(photo)
        }
    }

    /// Notes that photo `id`'s XMP marks were read from its file at `size` and
    /// `mtimeNs` (if that is still its file). Not a change of the library: no
    /// generation, nothing to undo (a row put back is read again).
    func noteMarksRead(_ id: Int64, size: Int64, mtimeNs: Int64, inode: UInt64? = nil) {
        photos.setMarksRead(id, size: size, mtimeNs: mtimeNs, inode: inode)
    }

    /// A row's group and role, as `regroup` decided them; in place, undone with
    /// the transaction, its group's rows kept.
    func setGroup(_ id: Int64, group: Int64, role: GroupRole) throws {
        guard let row = photos.row(id) else { return }
        let old = photos.groupID(of: row)
        guard old != group || row.role != role else { return }
        let oldRows = old == group ? [] : rows(ofGroup: old)
        let newRows = old == group ? [] : rows(ofGroup: group)
        note(.regrouped(id, group: old, role: row.role))
        counters.changeRole(root: photos.rootID(of: row), folder: row.folderID, from: row.role, to: role)
        photos.setGroup(id, group: group, role: role)
        generation &+= 1
        fileGeneration &+= 1
        if old != group {
            setRows(old, oldRows.filter { $0 != id })
            setRows(group, newRows + [id])
        }
        try write(id)
    }

    /// Keeps `groupLinks[group]` only where `rows(ofGroup:)` could not tell it.
    private func setRows(_ group: Int64, _ rows: [Int64]) {
        let kept: [Int64]? = rows.isEmpty || rows == [group] ? nil : rows
        let was = groupLinks[group]
        guard was != kept else { return }
        note(.groupRows(group, was))
        groupLinks[group] = kept
    }

    /// The rows whose group or role changed since the last call, for events.
    func takeShifts() -> [GroupShift] {
        defer { shifts.removeAll() }
        return shifts
    }

    func setRank(_ id: Int64, _ rank: Int64) throws {
        guard var photo = photos[id] else { return }
        try batch {
            note(.replaced(photo))
            photo.rank = rank
            photos[id] = photo
            generation &+= 1
            fileGeneration &+= 1
            try write(photo)
        }
    }

    /// A directory renamed or moved inside its root: its folder and those below
    /// it change path; every photo keeps its id. Costs the size of the subtree.
    func moveFolderTree(root: Int32, from: ByteString, to: ByteString) throws {
        try batch { try moveFolderTreeInTransaction(root: root, from: from, to: to) }
    }

    private func moveFolderTreeInTransaction(root: Int32, from: ByteString, to: ByteString) throws {
        // rename(2) only replaces an empty directory: anything still indexed at the
        // destination is stale. (`from` and `to` never nest: the kernel refuses that.)
        _ = try removeTree(root: root, path: to, keepTop: false)
        // Parents come before their children here, so each re-links under a parent already moved.
        let moving = folders(root: root, within: from)
        guard !moving.isEmpty else { return }
        try ensureFolder(root: root, path: to.parent)
        for folder in moving { unlink(folder) }
        for var folder in moving {
            folder.path = to.appending(folder.path.relative(to: from))
            link(folder)
            try store.updateFolder(folder)
        }
        generation &+= 1
        fileGeneration &+= 1
    }

    /// Everything at or below `path` left the root (deleted, or moved out). The
    /// root's own folder (empty path) stays, emptied.
    func removeTree(root: Int32, path: ByteString) throws -> [LibraryChange] {
        try batch { try removeTree(root: root, path: path, keepTop: path.isEmpty) }
    }

    private func removeTree(root: Int32, path: ByteString, keepTop: Bool) throws -> [LibraryChange] {
        var changes: [LibraryChange] = []
        // Children before parents, so that each folder unlinks from a parent still there.
        for folder in folders(root: root, within: path).reversed() {
            for id in photoIDs(inFolder: folder.id) {
                if let change = try remove(id) { changes.append(change) }
            }
            if keepTop && folder.path == path { continue }
            try dropFolder(folder)
        }
        return changes
    }

    /// Drops one folder whose photos are gone (its sub-folders are dropped by the caller).
    func dropFolder(_ folder: Folder) throws {
        try batch {
            for id in photoIDs(inFolder: folder.id) { _ = try remove(id) }
            unlink(folder)
            note(.folder(tree.drop(folder)))
            note(.rank(folder.id, nextRank[folder.id]))
            nextRank[folder.id] = nil
            groupKeys[folder.id] = nil
            try store.deleteFolder(id: folder.id)
        }
    }

    // MARK: memory

    private func link(_ folder: Folder) {
        let change = tree.link(folder)
        note(.folder(change))
    }

    private func unlink(_ folder: Folder) {
        let change = tree.unlink(folder)
        note(.folder(change))
    }

    private func takeRank(_ folder: Int32) -> Int64 {
        let before = nextRank[folder]
        note(.rank(folder, before))
        let rank = before ?? 1
        nextRank[folder] = rank + 1
        return rank
    }

    /// Sets (or clears) a folder entry, dropping a folder's table once it is empty.
    private func setEntry(_ folder: Int32, _ name: ByteString, _ id: Int64?) {
        entries[folder, default: FolderEntries()].set(name, id, in: photos)
        if entries[folder]?.isEmpty == true { entries[folder] = nil }
    }

    /// Adds (`sign` 1) or takes away (-1) a photo from its root's totals.
    private func count(_ photo: Photo, _ sign: Int) {
        counters.count(photo, sign)
        generation &+= 1
        fileGeneration &+= 1
    }

    /// Whether a row coming or going can change its folder's groups: always where
    /// the root groups; elsewhere only a row that is not a plain photo alone (a
    /// sidecar, or a member left from when it grouped). A root that does not group
    /// then costs nothing per event (grouping a folder is proportional to it).
    private func mayChangeGroups(_ photo: Photo) -> Bool {
        groupSettings[photo.rootID]?.enabled == true || photo.role != .shown || photo.groupID != photo.id
    }

    /// Marks the groups a row coming or going can change for the transaction's
    /// regrouping: its bases, or its whole folder for a name that has none.
    private func touchGroups(of photo: Photo, _ keys: ShotKeys?) {
        guard let keys else { return regroups.regroupWhole(photo.folderID) }
        regroups.touch(photo.folderID, keys)
    }

    /// `placed`: the row comes with the group its folder's plan gives it
    /// (`FolderGroupPlan`), and changes no group to be made again.
    /// `filed` false: the row is left out of its folder's names (`upsert`'s `filed`).
    private func insertInMemory(_ photo: Photo, placed: Bool = false, filed: Bool = true) {
        let inode = Self.inodeDigest(photo.identity.device, photo.identity.inode)
        let rankBefore = nextRank[photo.folderID]
        let touches = inTransaction && !placed && mayChangeGroups(photo)
        // The first row of a folder (every folder of a first scan): the whole folder
        // is grouped again, and its rows need no bases of their own read for that.
        if touches && entries[photo.folderID] == nil { regroups.regroupWhole(photo.folderID) }
        let byBase = touches && !regroups.isWhole(photo.folderID)
        let keys = byBase || groupKeys[photo.folderID] != nil ? ShotKeys(photo.name) : nil
        if byBase { touchGroups(of: photo, keys) }
        // A photo alone under its own id (most of them) is in no group's rows.
        let grouped = photo.groupID != photo.id || groupLinks.keeps(photo.groupID)
        // A row of a group kept under another id joins its ring as its last row
        // (a RAW or a sidecar of a scan, most rows of a group on load), without
        // the group's rows built, compared and set again.
        let joins = grouped && photo.groupID != photo.id && groupLinks.keeps(photo.groupID) && !groupLinks.isLinked(photo.id)
        // The second row of a group until now alone under its own id (the RAW or a
        // sidecar of each group a scan adds): the two linked without their arrays.
        let pairs = grouped && !joins && photo.groupID != photo.id && !groupLinks.keeps(photo.groupID)
            && !groupLinks.isLinked(photo.id) && !groupLinks.isLinked(photo.groupID)
            && photos.row(photo.groupID).map { photos.groupID(of: $0) == photo.groupID } == true
        let groupBefore = grouped && !joins && !pairs ? rows(ofGroup: photo.groupID) : []
        photos[photo.id] = photo
        // What the undo log restores is what these replace (one search each, not two).
        // A plan's rows come in name order (most after every name filed before them).
        let entryBefore = filed ? entries[photo.folderID, default: FolderEntries()].set(photo.name, photo.id, in: photos, inOrder: placed) : nil
        let inodeBefore = byInode.set(inode, photo.id, digestOf: digest(of:))
        if inTransaction { note(.inserted(photo, entry: entryBefore, inode: inodeBefore, rank: rankBefore)) }
        nextRank[photo.folderID] = max(rankBefore ?? 1, photo.rank + 1)
        if joins {
            note(.joined(photo.id))
            groupLinks.append(photo.id, to: photo.groupID)
        } else if pairs {
            note(.groupRows(photo.groupID, nil))
            groupLinks.pair(photo.groupID, with: photo.id)
        } else if grouped {
            setRows(photo.groupID, groupBefore.filter { $0 != photo.id } + [photo.id])
        }
        if groupKeys[photo.folderID] != nil, let keys {
            for key in keys.digests { groupKeys[photo.folderID]?[key, default: []].insert(photo.name) }
        }
        count(photo, 1)
    }

    private func removeFromMemory(_ photo: Photo) {
        let grouped = photo.groupID != photo.id || groupLinks.keeps(photo.groupID)
        let groupBefore = grouped ? rows(ofGroup: photo.groupID) : []
        let touches = inTransaction && mayChangeGroups(photo)
        let keys = touches || groupKeys[photo.folderID] != nil ? ShotKeys(photo.name) : nil
        if touches { touchGroups(of: photo, keys) }
        if groupKeys[photo.folderID] != nil, let keys {
            for key in keys.digests { groupKeys[photo.folderID]?[key]?.remove(photo.name) }
        }
        // Out of the folder entries while still in the table (they compare its name there).
        let entry = photoID(folder: photo.folderID, name: photo.name) == photo.id
        if entry { setEntry(photo.folderID, photo.name, nil) }
        let inode = Self.inodeDigest(photo.identity.device, photo.identity.inode)
        let ownInode = byInode.find(inode, digestOf: digest(of:)) == photo.id
        if ownInode { byInode.set(inode, nil, digestOf: digest(of:)) }
        photos[photo.id] = nil
        note(.removed(photo, entry: entry, inode: ownInode))
        if grouped { setRows(photo.groupID, groupBefore.filter { $0 != photo.id }) }
        count(photo, -1)
    }

    // MARK: roots and sessions (persistence only)

    var storeForRoots: IndexStore { store }
}
