// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import CuratorThumbnails

/// Which photos a thumbnail thread makes: the local roots' on one, the shares' on
/// another, so that a photo of a share whose server stops answering holds up only
/// the shares' thumbnails, never the local roots'.
public enum ThumbnailLane: String, Sendable {
    case local
    case shares
}

/// One photo for the thumbnailer, as the index knows it when it was taken.
struct ThumbnailWork: Sendable {
    var id: Int64
    var rootID: Int32
    var rootName: String
    /// The root's path and the photo's below it: the file is opened from the root
    /// down, following no symlink (`DirectoryHandle.openFile(beneath:)`).
    var rootPath: ByteString
    var relative: ByteString
    var path: ByteString { rootPath.appending(relative) }
    var identity: FileIdentity
    var type: PhotoType
    var sizes: [ThumbnailSize]
    var asked: Bool
    /// Measure the thumbnails for the stack search too (`StackLook`).
    var look = false
    /// Make these previews too (`photo.open` `preview` or `screen` asked for them).
    var previews: Set<PreviewKind> = []
}

/// The thumbnail scheduler's locked steps, and how index changes reach its queue.
extension CuratorState {
    var makesThumbnails: Bool { config.thumbnailCache != nil }

    /// Queues every indexed photo (at start): photos with valid thumbnails are found
    /// so by a look at the cache, without the worker.
    func queueAllThumbnails() {
        guard makesThumbnails else { return }
        // The newest photos are taken first (the queue is a stack).
        let table = library.photos
        for (id, root) in table.rows.lazy.filter({ !$0.type.isSidecar }).map({ ($0.id, table.rootID(of: $0)) }).sorted(by: { $0.0 < $1.0 }) {
            thumbnails.enqueue(id, root: root)
        }
    }

    /// The next photo of `lane` to make thumbnails of, root by root. A root's
    /// background work waits while it is scanned, its capture times are read, or a
    /// batch holds it: those come first. A local root's waits also while any local
    /// root is scanned, read or holds a batch (they share the disk and the cores); a
    /// share's only for itself, and a share that does not answer (or is not found
    /// yet) is not touched at all, not even for a photo a client asked for, which
    /// otherwise does not wait.
    func takeThumbnailWork(lane: ThumbnailLane = .local) -> ThumbnailWork? {
        guard makesThumbnails else { return nil }
        func inLane(_ root: RootRuntime) -> Bool {
            guard root.watchingDecided else { return false }
            return lane == .shares ? root.onShare && root.unresponsiveSince == nil : !root.onShare
        }
        func busy(_ id: Int32, _ root: RootRuntime) -> Bool {
            (root.scanning && root.unresponsiveSince == nil) || capturePending.hasPending(root: id)
                || plans.busyRoots.contains(root.config.name)
        }
        let localBusy = rootOrder.contains { id in roots[id].map { !$0.onShare && busy(id, $0) } ?? false }
        var found: ThumbnailWork?
        _ = thumbnails.take(asked: { id in roots[id].map(inLane) ?? false }, background: { id in
            guard let root = roots[id], inLane(root) else { return false }
            return root.onShare ? !busy(id, root) : !localBusy
        }) { id in
            // Video clips get no thumbnail from us (clients draw a placeholder).
            guard let photo = library.photo(id), photo.type.family != .video, !photo.type.isSidecar,
                  let root = roots[photo.rootID], root.online
            else { return false }
            found = ThumbnailWork(
                id: id, rootID: photo.rootID, rootName: root.config.name, rootPath: root.config.path, relative: library.relativePath(of: photo),
                identity: photo.identity, type: photo.type, sizes: [], asked: false)
            return true
        }.map { taken in
            found?.sizes = taken.sizes
            found?.asked = taken.asked
            found?.previews = thumbnails.wantedPreviews(taken.id)
        }
        if let work = found, !work.sizes.isEmpty, wantsLook(work.id, identity: work.identity) {
            // Both sizes: the hash is of the normal one, the sharpness of the large one.
            found?.look = true
            found?.sizes = Array(Set(work.sizes).union([.normal, .large])).sorted()
        }
        return found?.sizes.isEmpty == false ? found : nil
    }

    /// Records what became of `work` and tells subscribers of a ready or failed
    /// thumbnail. A photo that changed meanwhile is looked at again.
    func thumbnailFinished(_ work: ThumbnailWork, _ outcome: ThumbnailQueue.Outcome, announce: Bool) {
        guard let photo = library.photo(work.id) else { return }
        guard photo.identity.size == work.identity.size, photo.identity.mtimeNs == work.identity.mtimeNs else {
            thumbnails.invalidate(work.id, root: photo.rootID)
            return
        }
        thumbnails.finished(work.id, outcome, root: photo.rootID)
        // Clients know a group by its id (issue 15): only its shown file's thumbnail is told.
        guard announce, events.hasSubscribers, photo.role == .shown else { return }
        // Only to users who may see the photo, as listings and `added` events: an id
        // and its timing are not for those who may not list its folder.
        let seeing = events.subscriberUIDs.filter { maySee(photo, uid: $0) }
        switch outcome {
        case .ready(let made):
            events.sendThumbnail(Event(event: .thumbnail, root: work.rootName, photoId: photo.groupID, state: ThumbnailState.ready.rawValue,
                                       sizes: made.sorted()), root: photo.rootID, only: seeing)
        case .failed(let reason):
            events.sendThumbnail(Event(event: .thumbnail, root: work.rootName, photoId: photo.groupID, state: ThumbnailState.failed.rawValue,
                                       message: reason), root: photo.rootID, only: seeing)
        case .retry:
            break
        }
    }

    /// Index changes as the thumbnailer sees them: a new photo is queued; one that
    /// changed or moved is made again (its old thumbnails, under its old URI, go);
    /// one that left goes on the departure list, whose thumbnails are removed
    /// unless it went to the trash (`thumbnailDepartures`).
    func thumbnailsNote(_ changes: [LibraryChange]) {
        guard makesThumbnails else { return }
        let now = MonotonicClock.nanoseconds()
        for change in changes {
            switch change {
            case .added(let p):
                // A sidecar (issue 15) is no image.
                guard !p.type.isSidecar else { continue }
                thumbnails.invalidate(p.id, root: p.rootID)
            case .changed(let p):
                thumbnails.invalidate(p.id, root: p.rootID)
            case .moved(let p, let fromFolder, let fromName):
                thumbnails.invalidate(p.id, root: p.rootID)
                if let root = roots[p.rootID], let folder = library.folderPath(fromFolder) {
                    thumbnails.depart(.init(path: root.config.path.appending(folder.appending(fromName)),
                                            device: 0, inode: 0, at: now))
                }
            case .removed(let p):
                thumbnails.forget(p.id)
                if let root = roots[p.rootID] {
                    thumbnails.depart(.init(path: root.config.path.appending(library.relativePath(of: p)),
                                            device: p.identity.device, inode: p.identity.inode, at: now))
                }
            }
        }
    }

    /// Photos gone from the trash for good (`trash.empty`, `recycle_keep_days`, or
    /// found purged by another tool): the thumbnails kept for their undo go too, by
    /// the departure list, unless a photo holds the path again by then.
    func thumbnailsPurged(_ items: [BatchItemResult]) {
        guard makesThumbnails else { return }
        let now = MonotonicClock.nanoseconds()
        for item in items where item.outcome == .emptied || item.outcome == .missing {
            guard let rootID = roots.id(named: item.root), let root = roots[rootID] else { continue }
            let relative = item.pathRaw.flatMap { ByteString(base64: $0) } ?? ByteString(item.path)
            // Inode 0: not checked against the tombstones, which still name it.
            thumbnails.depart(.init(path: root.config.path.appending(relative), device: 0, inode: 0, at: now))
        }
    }

    /// Thumbnails to remove now: of photos that left more than `grace` ago and are
    /// not in the trash by our hand (a trashed photo's thumbnails stay for its undo;
    /// the batch buries it before or after the watcher sees it leave, hence the wait).
    /// A path a photo holds again (moved back, restored) keeps its thumbnails.
    func thumbnailDepartures(graceNanoseconds: UInt64) -> [ByteString] {
        let now = MonotonicClock.nanoseconds()
        let due = thumbnails.takeDepartures(before: now > graceNanoseconds ? now - graceNanoseconds : 0)
        return due.compactMap { departure in
            if departure.inode != 0, tombstones.id(device: departure.device, inode: departure.inode) != nil { return nil }
            if photoID(atAbsolutePath: departure.path) != nil { return nil }
            return departure.path
        }
    }

    /// The indexed photo at an absolute path, if any.
    func photoID(atAbsolutePath path: ByteString) -> Int64? {
        for id in rootOrder {
            guard let root = roots[id], path.isWithin(root.config.path) else { continue }
            if let found = library.photoID(root: id, relativePath: path.relative(to: root.config.path)) { return found }
        }
        return nil
    }
}
