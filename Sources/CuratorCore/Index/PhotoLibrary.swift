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
final class PhotoLibrary {
    private let store: IndexStore
    private(set) var photos: [Int64: Photo] = [:]
    private var byEntry: [EntryKey: Int64] = [:]
    private var byInode: [InodeKey: Int64] = [:]
    private(set) var folders: [Int32: Folder] = [:]
    private var folderByPath: [FolderKey: Int32] = [:]
    private var nextID: Int64 = 1
    private var nextRank: [Int32: Int64] = [:]
    private(set) var countByRoot: [Int32: Int] = [:]
    private(set) var bytesByRoot: [Int32: Int64] = [:]
    /// Bumped on every change, so that cached views know when to rebuild.
    private(set) var generation: UInt64 = 0
    private var inTransaction = false

    init(store: IndexStore) throws {
        self.store = store
        for folder in try store.loadFolders() {
            folders[folder.id] = folder
            folderByPath[FolderKey(rootID: folder.rootID, path: folder.path)] = folder.id
        }
        try store.loadPhotos { photo in
            insertInMemory(photo)
        }
        nextID = max(try store.maxPhotoID() + 1, try store.reservedPhotoID())
        reservedID = nextID
    }

    /// Ids are never reused, not even those of photos that left (a trashed photo
    /// keeps its id for an undo): the store records how far ids have been handed out.
    private var reservedID: Int64 = 0

    private func takeID() throws -> Int64 {
        if nextID >= reservedID {
            reservedID = nextID + 4096
            try store.setReservedPhotoID(reservedID)
        }
        defer { nextID += 1 }
        return nextID
    }

    // MARK: transactions

    /// Groups the writes of `body` into one SQLite transaction (the cache need not
    /// be durable per write, but one transaction per directory keeps scans fast).
    func batch<R>(_ body: () throws -> R) throws -> R {
        if inTransaction { return try body() }
        try store.begin()
        inTransaction = true
        defer { inTransaction = false }
        do {
            let r = try body()
            try store.commit()
            return r
        } catch {
            try? store.database.execute("ROLLBACK")
            throw error
        }
    }

    // MARK: lookups

    func photo(_ id: Int64) -> Photo? { photos[id] }

    func folderID(root: Int32, path: ByteString) -> Int32? { folderByPath[FolderKey(rootID: root, path: path)] }

    func photoID(folder: Int32, name: ByteString) -> Int64? { byEntry[EntryKey(folderID: folder, name: name)] }

    func photoID(root: Int32, relativePath: ByteString) -> Int64? {
        guard let folder = folderID(root: root, path: relativePath.parent) else { return nil }
        return photoID(folder: folder, name: relativePath.lastComponent)
    }

    func photoID(device: UInt64, inode: UInt64) -> Int64? { byInode[InodeKey(device: device, inode: inode)] }

    func relativePath(of photo: Photo) -> ByteString {
        guard let folder = folders[photo.folderID] else { return photo.name }
        return folder.path.appending(photo.name)
    }

    func photos(inRoot root: Int32) -> [Photo] { photos.values.filter { $0.rootID == root } }

    /// Folders of `root` at or below `path`.
    func folders(root: Int32, within path: ByteString) -> [Folder] {
        folders.values.filter { $0.rootID == root && $0.path.isWithin(path) }
    }

    // MARK: mutations

    @discardableResult
    func ensureFolder(root: Int32, path: ByteString) throws -> Int32 {
        if let id = folderID(root: root, path: path) { return id }
        let id = try store.insertFolder(rootID: root, path: path)
        let folder = Folder(id: id, rootID: root, path: path)
        folders[id] = folder
        folderByPath[FolderKey(rootID: root, path: path)] = id
        return id
    }

    /// Inserts a new photo, or updates the one at that path. Returns the change.
    func upsert(root: Int32, folder: Int32, name: ByteString, identity: FileIdentity, type: PhotoType,
                capture: CaptureState = .pending, preferredID: Int64? = nil) throws -> LibraryChange? {
        if let id = photoID(folder: folder, name: name), var existing = photos[id] {
            if existing.identity == identity && existing.type == type { return nil }
            let sameFile = existing.identity.device == identity.device && existing.identity.inode == identity.inode
            removeFromMemory(existing)
            existing.identity = identity
            existing.type = type
            // A rewritten file may carry another capture time: read it again.
            existing.capture = sameFile && existing.identity.mtimeNs == identity.mtimeNs ? existing.capture : capture
            insertInMemory(existing)
            try store.upsertPhoto(existing)
            return .changed(existing)
        }
        let id: Int64
        if let preferredID, photos[preferredID] == nil, preferredID < nextID {
            id = preferredID  // a photo coming back from the trash keeps its former id
        } else {
            id = try takeID()
        }
        let photo = Photo(id: id, rootID: root, folderID: folder, name: name, identity: identity, type: type,
                          capture: capture, rank: takeRank(folder))
        insertInMemory(photo)
        try store.upsertPhoto(photo)
        return .added(photo)
    }

    /// Moves a photo to another folder/name, keeping its id.
    func move(_ id: Int64, toFolder folder: Int32, name: ByteString, identity: FileIdentity? = nil) throws -> LibraryChange? {
        guard var photo = photos[id] else { return nil }
        let fromFolder = photo.folderID
        let fromName = photo.name
        // Whatever stood at the destination is replaced (rename(2) semantics).
        if let other = photoID(folder: folder, name: name), other != id, let victim = photos[other] {
            removeFromMemory(victim)
            try store.deletePhoto(id: other)
        }
        removeFromMemory(photo)
        if fromFolder != folder { photo.rank = takeRank(folder) }
        photo.folderID = folder
        photo.name = name
        if let identity { photo.identity = identity }
        insertInMemory(photo)
        try store.upsertPhoto(photo)
        return .moved(photo, fromFolder: fromFolder, fromName: fromName)
    }

    func remove(_ id: Int64) throws -> LibraryChange? {
        guard let photo = photos[id] else { return nil }
        removeFromMemory(photo)
        try store.deletePhoto(id: id)
        return .removed(photo)
    }

    func setCapture(_ id: Int64, _ capture: CaptureState) throws {
        guard var photo = photos[id], photo.capture != capture else { return }
        photo.capture = capture
        photos[id] = photo
        generation &+= 1
        try store.upsertPhoto(photo)
    }

    func setRank(_ id: Int64, _ rank: Int64) throws {
        guard var photo = photos[id] else { return }
        photo.rank = rank
        photos[id] = photo
        generation &+= 1
        try store.upsertPhoto(photo)
    }

    /// A directory renamed or moved inside its root: its folder and those below
    /// it change path; every photo keeps its id.
    func moveFolderTree(root: Int32, from: ByteString, to: ByteString) throws {
        // rename(2) only replaces an empty directory: anything still indexed at the
        // destination is stale. (`from` and `to` never nest: the kernel refuses that.)
        _ = try removeTree(root: root, path: to)
        if let stale = folderID(root: root, path: to), let folder = folders[stale] { try dropFolder(folder) }
        for var folder in folders(root: root, within: from) {
            folderByPath[FolderKey(rootID: root, path: folder.path)] = nil
            let suffix = folder.path.relative(to: from)
            folder.path = to.appending(suffix)
            folders[folder.id] = folder
            folderByPath[FolderKey(rootID: root, path: folder.path)] = folder.id
            try store.updateFolder(folder)
        }
        generation &+= 1
    }

    /// Everything at or below `path` left the root (deleted, or moved out).
    func removeTree(root: Int32, path: ByteString) throws -> [LibraryChange] {
        let doomed = Set(folders(root: root, within: path).map(\.id))
        var changes: [LibraryChange] = []
        for photo in photos.values where doomed.contains(photo.folderID) {
            if let change = try remove(photo.id) { changes.append(change) }
        }
        for id in doomed where !(path.isEmpty && folders[id]?.path.isEmpty == true) {
            if let folder = folders[id] { try dropFolder(folder) }
        }
        return changes
    }

    private func dropFolder(_ folder: Folder) throws {
        folders[folder.id] = nil
        folderByPath[FolderKey(rootID: folder.rootID, path: folder.path)] = nil
        nextRank[folder.id] = nil
        try store.deleteFolder(id: folder.id)
    }

    // MARK: memory

    private func takeRank(_ folder: Int32) -> Int64 {
        let rank = nextRank[folder] ?? 1
        nextRank[folder] = rank + 1
        return rank
    }

    private func insertInMemory(_ photo: Photo) {
        photos[photo.id] = photo
        byEntry[EntryKey(folderID: photo.folderID, name: photo.name)] = photo.id
        byInode[InodeKey(device: photo.identity.device, inode: photo.identity.inode)] = photo.id
        nextRank[photo.folderID] = max(nextRank[photo.folderID] ?? 1, photo.rank + 1)
        countByRoot[photo.rootID, default: 0] += 1
        bytesByRoot[photo.rootID, default: 0] += photo.size
        generation &+= 1
    }

    private func removeFromMemory(_ photo: Photo) {
        photos[photo.id] = nil
        let entry = EntryKey(folderID: photo.folderID, name: photo.name)
        if byEntry[entry] == photo.id { byEntry[entry] = nil }
        let inode = InodeKey(device: photo.identity.device, inode: photo.identity.inode)
        if byInode[inode] == photo.id { byInode[inode] = nil }
        countByRoot[photo.rootID, default: 0] -= 1
        bytesByRoot[photo.rootID, default: 0] -= photo.size
        generation &+= 1
    }

    // MARK: roots and sessions (persistence only)

    var storeForRoots: IndexStore { store }
}
