// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials
import Glibc

/// A file seen on disk by a scan or an event, ready to be reconciled with the index.
struct ScannedFile: Sendable {
    var name: ByteString
    var status: FileStatus
    var type: PhotoType
}

/// The one owner of the daemon's mutable state: the index, the roots' runtime
/// state, sessions and subscribers. It lives inside `Curator`'s mutex; the watcher,
/// the capture reader and the socket server reach it only through that lock, and
/// nothing in here blocks for long (disk walks happen outside, results come in).
final class CuratorState {
    var config: Configuration
    let library: PhotoLibrary
    var roots: [Int32: RootRuntime] = [:]
    /// Root ids in configuration order.
    var rootOrder: [Int32] = []
    /// Each root's name by id, kept with `roots` in `registerRoots`.
    var rootNames: [Int32: String] = [:]
    var subscribers: [ObjectIdentifier: Subscriber] = [:]
    var clients = 0
    var totalOverflows = 0
    var totalRescans = 0
    let encoder = Wire.makeEncoder()
    /// Photos whose capture time the background reader has still to read.
    var capturePending: [Int64] = []
    var viewCache = ViewCache()
    /// Every user's sessions, by owner uid and name; persisted in the index file.
    var sessions: [SessionKey: SessionState] = [:]
    /// When each session was last used, as a sequence number (higher: later): the
    /// least recently used idle one makes room for a new one. Persisted with the
    /// session when it is saved.
    var sessionUse: [SessionKey: Int64] = [:]
    var lastSessionUse: Int64 = 0
    /// Sessions read since they were last saved: their use is saved at a clean
    /// stop (`saveSessionUse`), not by a write per read.
    var unsavedUse: Set<SessionKey> = []
    /// Photos that left the disk (or were trashed) and are still to be taken out
    /// of the selections that hold them.
    var leftSelections: Set<Int64> = []
    /// Delete plans shown and not yet confirmed, by token.
    var plans: [String: DeletePlan] = [:]
    /// Photos we moved to the trash, by inode: one that comes back (undo, or
    /// trash-restore) gets its former id.
    var tombstones: [InodeKey: Int64] = [:]
    var batchRunning = false

    init(config: Configuration, library: PhotoLibrary) throws {
        self.config = config
        self.library = library
        try registerRoots(config.roots)
        for photo in library.photos.values where photo.capture == .pending { capturePending.append(photo.id) }
        try loadSessions()
    }

    // MARK: roots

    /// Gives each configured root its stable id, reusing the stored one by name.
    func registerRoots(_ configs: [RootConfig]) throws {
        let store = library.storeForRoots
        let known = try store.loadRoots()
        var order: [Int32] = []
        for config in configs {
            let id: Int32
            if let row = known.first(where: { $0.name == config.name }) {
                id = row.id
                if row.path != config.path {
                    // The name now points elsewhere: its old photos are not this folder's,
                    // and leave the selections that held them.
                    publish(try library.batch { try library.removeTree(root: id, path: .empty) })
                    try store.updateRoot(id: id, path: config.path, device: 0)
                }
                if var existing = roots[id] {
                    existing.config = config
                    roots[id] = existing
                } else {
                    roots[id] = RootRuntime(id: id, config: config, device: row.path == config.path ? row.device : 0)
                }
            } else {
                id = try store.insertRoot(name: config.name, path: config.path)
                roots[id] = RootRuntime(id: id, config: config)
            }
            order.append(id)
        }
        for id in roots.keys where !order.contains(id) { roots[id] = nil }
        rootOrder = order
        rootNames = roots.mapValues { $0.config.name }
    }

    func rootID(named name: String) -> Int32? { rootOrder.first { roots[$0]?.config.name == name } }

    func absolutePath(root: Int32, relative: ByteString) -> ByteString? {
        roots[root].map { $0.config.path.appending(relative) }
    }

    // MARK: reconciling what the disk says

    /// Brings one directory's photos in line with `files` (everything the disk has
    /// there). `complete` means `files` is the whole directory, so indexed photos
    /// missing from it are gone; with `deferRemovals` (a full scan) they are left
    /// for `finishScan`, so that a photo renamed into a directory the scan has not
    /// reached yet can still be recognised there by its inode.
    func reconcile(root: Int32, directory: ByteString, files: [ScannedFile], complete: Bool, deferRemovals: Bool = false,
                   seen: inout Set<Int64>) throws -> [LibraryChange] {
        var changes: [LibraryChange] = []
        try library.batch {
            let folder = try library.ensureFolder(root: root, path: directory)
            var present = Set<ByteString>()
            for file in files {
                present.insert(file.name)
                let identity = FileIdentity(file.status)
                if let id = library.photoID(folder: folder, name: file.name) {
                    seen.insert(id)
                    if let change = try library.upsert(root: root, folder: folder, name: file.name, identity: identity, type: file.type) {
                        changes.append(change)
                        if case .changed(let p) = change, p.capture == .pending { capturePending.append(p.id) }
                    }
                    continue
                }
                if let moved = try adoptRenamed(root: root, folder: folder, name: file.name, identity: identity) {
                    if case .moved(let p, _, _) = moved { seen.insert(p.id) }
                    changes.append(moved)
                    continue
                }
                let former = tombstones.removeValue(forKey: InodeKey(device: identity.device, inode: identity.inode))
                if let change = try library.upsert(root: root, folder: folder, name: file.name, identity: identity, type: file.type,
                                                   preferredID: former) {
                    if case .added(let p) = change {
                        seen.insert(p.id)
                        capturePending.append(p.id)
                    }
                    changes.append(change)
                }
            }
            if complete && !deferRemovals {
                for (name, id) in library.members(ofFolder: folder) where !present.contains(name) {
                    if let change = try library.remove(id) { changes.append(change) }
                }
            }
        }
        publish(changes)
        return changes
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
        var seen = Set<Int64>()
        _ = try reconcile(root: root, directory: directory, files: [file], complete: false, seen: &seen)
    }

    /// A file at this path is gone (deleted or moved out), as the disk confirms.
    func fileVanished(root: Int32, relativePath: ByteString) throws {
        guard let id = library.photoID(root: root, relativePath: relativePath) else { return }
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
        try library.batch { try library.moveFolderTree(root: root, from: from, to: to) }
        unselectProtected(root: root, within: to)
        if !subscribers.isEmpty {
            // Each photo below moved; tell subscribers so their paths stay right.
            for folder in library.folders(root: root, within: to) {
                let fromFolderPath = from.appending(folder.path.relative(to: to))
                for id in library.photoIDs(inFolder: folder.id) {
                    guard let photo = library.photo(id) else { continue }
                    let oldPath = fromFolderPath.appending(photo.name)
                    send(Event(event: .moved, root: roots[root]?.config.name, photo: summary(photo), from: wirePath(oldPath)),
                         root: root)
                }
            }
        }
    }

    func folderVanished(root: Int32, path: ByteString) throws {
        let changes = try library.batch { try library.removeTree(root: root, path: path) }
        publish(changes)
    }

    /// The end of a full scan of a root: whatever was not seen is gone, except below
    /// `unreadable` directories (a permission problem is not a deletion).
    /// Costs the size of the root, not of the whole index.
    func finishScan(root: Int32, seen: Set<Int64>, seenFolders: Set<ByteString>, unreadable: [ByteString] = []) throws {
        var changes: [LibraryChange] = []
        try library.batch {
            var unseenFolders: [Folder] = []
            for folderID in library.folderIDs(inRoot: root) {
                guard let folder = library.folders[folderID] else { continue }
                if unreadable.contains(where: { folder.path.isWithin($0) }) { continue }
                for (_, id) in library.members(ofFolder: folderID) where !seen.contains(id) {
                    if let change = try library.remove(id) { changes.append(change) }
                }
                if !seenFolders.contains(folder.path) && !folder.path.isEmpty { unseenFolders.append(folder) }
            }
            // Deepest first: each folder leaves a parent that is still linked.
            for folder in unseenFolders.sorted(by: { $0.path.count > $1.path.count }) { try library.dropFolder(folder) }
        }
        publish(changes)
    }

    // MARK: events

    func publish(_ changes: [LibraryChange]) {
        guard !changes.isEmpty else { return }
        var leaving: [Int64] = []
        for change in changes {
            switch change {
            case .removed(let p): leaving.append(p.id)
            // Moved into a protected folder: it can no longer be selected (article 003).
            case .moved(let p, _, _) where isProtected(p): leaving.append(p.id)
            case .added, .changed, .moved: break
            }
        }
        if !leaving.isEmpty { photosLeft(leaving) }
        publishWithoutSelections(changes)
    }

    /// Events for subscribers only; selections are left to the caller.
    func publishWithoutSelections(_ changes: [LibraryChange]) {
        guard !changes.isEmpty else { return }
        viewCache.invalidate()
        guard !subscribers.isEmpty else { return }
        for change in changes {
            switch change {
            case .added(let p):
                send(Event(event: .added, root: rootName(p.rootID), photo: summary(p)), root: p.rootID)
            case .changed(let p):
                send(Event(event: .changed, root: rootName(p.rootID), photo: summary(p)), root: p.rootID)
            case .moved(let p, let fromFolder, let fromName):
                let folderPath = library.folderPath(fromFolder) ?? .empty
                send(Event(event: .moved, root: rootName(p.rootID), photo: summary(p), from: wirePath(folderPath.appending(fromName))),
                     root: p.rootID)
            case .removed(let p):
                let path = wirePath(library.relativePath(of: p))
                send(Event(event: .removed, root: rootName(p.rootID), photoId: p.id, from: path), root: p.rootID)
            }
        }
    }

    func send(_ event: Event, root: Int32?) {
        guard !subscribers.isEmpty else { return }
        let line = Wire.event(event)
        for (key, subscriber) in subscribers {
            if let root, let only = subscriber.roots, !only.contains(root) { continue }
            if !subscriber.sink.deliver(line) { subscribers[key] = nil }
        }
    }

    /// An event for one user's subscribers only (their sessions, their batches).
    /// The event is built only when someone will receive it.
    func send(_ event: @autoclosure () -> Event, toUID uid: UInt32) {
        guard subscribers.values.contains(where: { $0.uid == uid }) else { return }
        let line = Wire.event(event())
        for (id, subscriber) in subscribers where subscriber.uid == uid {
            if !subscriber.sink.deliver(line) { subscribers[id] = nil }
        }
    }

    /// Looked up per photo in a listing: reading `roots[id]` would copy a whole
    /// `RootRuntime` (its configuration's arrays included) each time.
    func rootName(_ id: Int32) -> String { rootNames[id] ?? "?" }

    // MARK: presentation

    func wirePath(_ path: ByteString) -> WirePath { WirePath(path) }

    /// A photo as clients see it; with `fields`, what is not asked for is left
    /// empty and not computed (a listing of every photo by path is cheap).
    func summary(_ photo: Photo, position: Int? = nil, selected: Int? = nil, fields: PhotoFields = .all,
                 facts: RootFacts? = nil) -> PhotoSummary {
        let facts = facts ?? RootFacts(self)
        let path = fields.contains(.path) ? wirePath(library.relativePath(of: photo)) : WirePath(path: "")
        let offline = facts.offline.contains(photo.rootID)
        let protected = fields.contains(.protected) && facts.mayProtect.contains(photo.rootID) && isProtected(photo)
        return PhotoSummary(position: position, id: photo.id, root: fields.contains(.root) ? rootName(photo.rootID) : "",
                            path: path.path, pathRaw: path.pathRaw,
                            size: photo.size, mtimeNs: photo.identity.mtimeNs, type: fields.contains(.type) ? photo.type.wireName : "",
                            captureTime: fields.contains(.captureTime) ? photo.capture.seconds.map { CaptureTime(seconds: $0).wire } : nil,
                            protected: protected ? true : nil, offline: offline ? true : nil, selected: selected)
    }

    /// A photo is protected when its root is, or when a protected entry names its
    /// folder (or a folder above it), or is a glob matching its folder or its path.
    func isProtected(_ photo: Photo) -> Bool {
        guard let root = roots[photo.rootID] else { return false }
        if root.config.protectAll { return true }
        if root.protection.isEmpty { return false }
        let folder = library.folders[photo.folderID]?.path ?? .empty
        return root.protection.covers(folder: folder, name: photo.name)
    }
}

/// What a listing needs to know of every root, gathered once per listing rather
/// than read from `roots` per photo (each read copies a `RootRuntime`).
struct RootFacts {
    var offline: Set<Int32> = []
    /// Roots where some photo may be protected.
    var mayProtect: Set<Int32> = []

    init(_ state: CuratorState) {
        for (id, root) in state.roots {
            if !root.online { offline.insert(id) }
            if root.config.protectAll || !root.protection.isEmpty { mayProtect.insert(id) }
        }
    }
}

extension WirePath {
    /// A path as clients get it: as text when it is UTF-8, else as lossy text and
    /// the exact bytes in base64.
    init(_ path: ByteString) {
        if let text = path.utf8String {
            self.init(path: text)
        } else {
            self.init(path: path.lossyString, pathRaw: path.base64)
        }
    }
}
