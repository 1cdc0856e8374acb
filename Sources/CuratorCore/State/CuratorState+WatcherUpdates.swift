// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// The state as the watcher changes it (`IndexUpdates`, `RootUpdates`): the watcher
/// calls these under the lock and knows nothing else of `CuratorState`. The index
/// calls (`reconcile`, `fileAppeared`, ...) are in CuratorState.swift.
extension CuratorState: IndexUpdates, RootUpdates {
    func photoID(root: Int32, relativePath: ByteString) -> Int64? {
        library.photoID(root: root, relativePath: relativePath)
    }

    func directoryAttributesChanged(root: Int32, path: ByteString) {
        access.directoryChanged(root: root, path: path)
    }

    // MARK: roots

    var watchedRoots: [WatchedRoot] { rootOrder.compactMap(watchedRoot) }

    func watchedRoot(_ id: Int32) -> WatchedRoot? {
        roots[id].map { r in
            WatchedRoot(id: id, config: r.config, online: r.online, device: r.device, inode: r.inode,
                        usesInotify: r.usesInotify, polls: r.polls, unresponsiveSince: r.unresponsiveSince)
        }
    }

    func rootStarted(_ id: Int32, directory: FileStatus, watching: RootWatching) {
        guard var r = roots[id] else { return }
        r.online = true
        r.device = directory.device
        r.inode = directory.inode
        r.usesInotify = watching.usesInotify
        r.polls = watching.polls
        r.onShare = watching.onShare
        r.watchingDecided = true
        r.note = watching.note
        roots[id] = r
        access.setOnShare(id, watching.onShare, rootPath: r.config.path)
        access.forget(root: id)
        try? library.storeForRoots.updateRoot(id: id, path: r.config.path, device: directory.device)
    }

    func rootWentOffline(_ id: Int32, reason: String) -> Bool {
        guard var r = roots[id] else { return false }
        let was = r.online
        r.online = false
        r.scanning = false
        r.watches = 0
        r.note = reason
        roots[id] = r
        scanEnds.ring()
        viewCache.invalidate()
        if was { send(Event(event: .offline, root: r.config.name, message: reason), root: id) }
        return was
    }

    func rootCameBack(_ id: Int32) {
        guard let r = roots[id] else { return }
        send(Event(event: .online, root: r.config.name), root: id)
        requeuePendingCaptures(root: id)
    }

    func rootUnresponsive(_ id: Int32, since: Int64) {
        guard roots[id]?.unresponsiveSince == nil else { return }
        roots[id]?.unresponsiveSince = since
    }

    func rootResponsive(_ id: Int32) {
        roots[id]?.unresponsiveSince = nil
    }

    func forgetRootDirectory(_ id: Int32) {
        roots[id]?.device = 0
        roots[id]?.inode = 0
    }

    func rootPolled(_ id: Int32, note: String) {
        roots[id]?.usesInotify = false
        roots[id]?.polls = true
        roots[id]?.note = note
        roots[id]?.watches = 0
    }

    func eventsLost(reason: String) -> [Int32] {
        totalOverflows += 1
        let ids = rootOrder.filter { (roots[$0]?.usesInotify ?? false) && (roots[$0]?.online ?? false) }
        for id in ids { roots[id]?.overflows += 1 }
        send(Event(event: .overflow, message: "\(reason); rescanning"), root: nil)
        return ids
    }

    // MARK: scans

    func scanScheduled(root: Int32, rescan: Bool) {
        guard var r = roots[root] else { return }
        if rescan {
            r.rescans += 1
            totalRescans += 1
        }
        r.scanning = true
        roots[root] = r
    }

    func scanStarted(root: Int32) {
        guard let name = roots[root]?.config.name else { return }
        roots[root]?.scanDirectories = 0
        roots[root]?.scanFiles = 0
        send(Event(event: .scan, root: name, state: "started"), root: root)
    }

    func scanProgressed(root: Int32, directories: Int?, files: Int?, watches: Int) {
        if let directories { roots[root]?.scanDirectories = directories }
        if let files { roots[root]?.scanFiles = files }
        roots[root]?.watches = watches
    }

    func scanAbandoned(root: Int32) {
        roots[root]?.scanning = false
        scanEnds.ring()
    }

    func scanFinished(root: Int32, elapsedMs: Int, watches: Int, stillScanning: Bool) {
        guard var r = roots[root] else { return }
        r.scanning = stillScanning
        r.lastScanMs = elapsedMs
        r.watches = watches
        roots[root] = r
        if !stillScanning { scanEnds.ring() }
        // A polled root sees no IN_ATTRIB: a scan is when its permissions are read again.
        if !r.usesInotify { access.forget(root: root) }
        // A share's folders are read off the lock (`FolderAccess`): ask for them now,
        // so that they are known before a user asks.
        if r.onShare { access.want(root: root, folders: library.folderIDs(inRoot: root).compactMap { library.folderPath($0) }) }
        if !stillScanning { dropLooksOfPhotosGone() }
        // The scan's writes, a burst, copied into the index file now that it is over.
        library.checkpointSoon()
        sendScanDone(root, name: r.config.name)
    }
}

extension Curator: WatcherStateLock {
    func withUpdates<R>(_ body: (any WatcherUpdates) -> R) -> R {
        withState { state in body(state) }
    }
}

extension CuratorState {
    /// A root is back online: its photos still waiting for a capture time go back
    /// in the reader's queue (the reader drops the ids of offline roots, and an
    /// unchanged photo is not queued again by the scan that reconciles the root).
    /// Costs the size of the root, once per return.
    func requeuePendingCaptures(root: Int32) {
        guard (library.pendingCaptureByRoot[root] ?? 0) > 0 else { return }
        for folder in library.folderIDs(inRoot: root) {
            for id in library.photoIDs(inFolder: folder) where library.photo(id)?.capture == .pending {
                capturePending.append(id, root: root)
            }
        }
    }
}

extension CuratorState {
    /// `scan` `done`, with the root's photo count as each subscriber's user may see it.
    func sendScanDone(_ root: Int32, name: String) {
        guard events.hasSubscribers else { return }
        var byCount: [Int: Set<UInt32>] = [:]
        for uid in events.subscriberUIDs { byCount[rootCounts(root, uid: uid).photos, default: []].insert(uid) }
        for (count, uids) in byCount {
            events.send(Event(event: .scan, root: name, state: "done", count: count), root: root,
                        only: byCount.count == 1 ? nil : uids)
        }
    }
}
