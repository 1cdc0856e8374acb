// SPDX-License-Identifier: GPL-2.0-or-later
import CInotifyTools
import CuratorProtocol
import CuratorSystem
import Glibc

extension Watcher {
    /// Handles a run of events in order. Moves are paired by cookie; a MOVED_FROM
    /// whose MOVED_TO has not come yet waits briefly (it may be in the next read).
    func process(_ events: [InotifyEvent]) {
        // Everything queued before an overflow is moot: the rescan it triggers
        // reads the disk afresh (and finds renamed photos by their inode).
        var start = events.startIndex
        if let last = events.lastIndex(where: { $0.has(IN_Q_OVERFLOW) }) {
            eventsLost(reason: "inotify queue overflow")
            start = last + 1
        }
        for event in events[start...] { handle(event) }
        if !pendingMoves.isEmpty, let tools {
            // The other half is usually right behind: give the kernel a moment.
            var fds = [pollfd(fd: tools.descriptor, events: Int16(POLLIN), revents: 0)]
            if tools.mayHoldBufferedEvents || SystemCalls.poll(&fds, 1, 2) > 0 {
                for event in readAvailableEvents() { handle(event) }
            }
        }
        let now = MonotonicClock.nanoseconds()
        if now > Self.moveSettleNs { settlePendingMoves(olderThan: now - Self.moveSettleNs) }
        releaseDeferredCookies()
        publishWatcherReport()
    }

    func handle(_ event: InotifyEvent) {
        if event.has(IN_Q_OVERFLOW) {
            eventsLost(reason: "inotify queue overflow")
            return
        }
        if event.has(IN_IGNORED) {
            // The kernel dropped the watch; the library cannot forget its entry.
            tools?.forget(event.wd)
            if let entry = table.remove(wd: event.wd), entry.path.isEmpty { checkLiveness(only: entry.rootID) }
            return
        }
        guard let entry = table.entry(event.wd) else { return }
        if event.has(IN_UNMOUNT) || (entry.path.isEmpty && (event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF))) {
            // At once, before any later event is applied as if the root were still there.
            checkLiveness(only: entry.rootID)
            return
        }
        if event.name.isEmpty { return }
        let path = entry.path.appending(event.name)
        let root = entry.rootID

        if !event.isDirectory && entry.path.isEmpty && WatcherInbox.isCookie(event.name) {
            if event.has(IN_CREATE) { cookieArrived(event.name) }
            return
        }

        if event.has(IN_MOVED_FROM) {
            pendingMoves[event.cookie] = PendingMove(root: root, path: path, isDirectory: event.isDirectory,
                                                     seenAt: MonotonicClock.nanoseconds(), sequence: nextSequence())
            return
        }
        if event.has(IN_MOVED_TO) {
            if let from = pendingMoves.removeValue(forKey: event.cookie) {
                moved(from: from, toRoot: root, to: path, isDirectory: event.isDirectory)
            } else if event.isDirectory {
                directoryArrived(root: root, path: path)
            } else {
                fileChanged(root: root, path: path)
            }
            return
        }
        if event.isDirectory {
            if event.has(IN_CREATE) {
                directoryArrived(root: root, path: path)
            } else if event.has(IN_DELETE) {
                directoryGone(root: root, path: path, stillExists: false)
            }
            return
        }
        let key = WatchTable.Entry(rootID: root, path: path)
        if event.has(IN_CREATE) {
            // Indexed once written (close-write), not half-way.
            createSeen(key)
        } else if event.has(IN_CLOSE_WRITE) {
            pendingCreates[key] = nil
            fileChanged(root: root, path: path)
        } else if event.has(IN_ATTRIB) {
            if pendingCreates[key] == nil { fileChanged(root: root, path: path) }
        } else if event.has(IN_DELETE) {
            pendingCreates[key] = nil
            fileChanged(root: root, path: path)
        }
    }

    /// Events were lost (the kernel queue overflowed, or our backlog did): every
    /// inotify root is rescanned, and the index converges to what is on disk.
    func eventsLost(reason: String) {
        let ids = curator.withState { state -> [Int32] in
            state.totalOverflows += 1
            let ids = state.rootOrder.filter { (state.roots[$0]?.usesInotify ?? false) && (state.roots[$0]?.online ?? false) }
            for id in ids { state.roots[id]?.overflows += 1 }
            state.send(Event(event: .overflow, message: "\(reason); rescanning"), root: nil)
            return ids
        }
        log.warning("\(reason): rescanning \(ids.count) root(s)")
        // Unpaired halves are covered by the rescan, which finds renamed photos by inode.
        pendingMoves.removeAll()
        backlog.removeAll()
        for id in ids { scheduleFullScan(root: id, reason: reason) }
    }

    // MARK: files

    /// Something happened at a file path: stat it and bring the index in line.
    func fileChanged(root: Int32, path: ByteString) {
        let (config, online) = curator.withState { state in (state.roots[root]?.config, state.roots[root]?.online ?? false) }
        guard let config, online else { return }
        let filter = NameFilter(config)
        let absolute = config.path.appending(path)
        let type = filter.photoType(path.lastComponent)
        let status: FileStatus?
        do {
            status = type == nil ? nil : try FileStatus.ifExists(absolute)
        } catch {
            keepUnreadable(error)
            return
        }
        guard let type, let status, status.isRegularFile else {
            // Gone, replaced by a symlink or a directory, or renamed to a non-photo name.
            curator.withState { state in
                do { try state.fileVanished(root: root, relativePath: path) } catch { log.error("cannot unindex \(absolute.lossyString): \(error)") }
            }
            return
        }
        curator.withState { state in
            do {
                try state.fileAppeared(root: root, directory: path.parent, file: ScannedFile(name: path.lastComponent, status: status, type: type))
            } catch {
                log.error("cannot index \(absolute.lossyString): \(error)")
            }
        }
    }

    /// Only ENOENT and ENOTDIR say a file is gone. EACCES, EIO or ESTALE (a network
    /// share) say nothing of it: the index keeps what it knew, and the log says why,
    /// as a scan does for a folder it cannot read. A later event or scan settles it.
    private func keepUnreadable(_ error: SystemError) {
        log.warning("\(error); the index keeps what it knew of it")
    }

    func moved(from: PendingMove, toRoot: Int32, to: ByteString, isDirectory: Bool) {
        if isDirectory {
            if from.root == toRoot {
                table.move(root: toRoot, from: from.path, to: to)
                movePendingCreates(root: toRoot, from: from.path, to: to)
                curator.withState { state in
                    do { try state.folderMoved(root: toRoot, from: from.path, to: to) } catch { log.error("cannot record a folder move: \(error)") }
                }
                // A name that is now excluded (or no longer) changes what is indexed.
                let skipped = curator.withState { state in state.roots[toRoot].map { NameFilter($0.config) } }
                if let skipped, to.components.contains(where: skipped.skipsDirectory) {
                    directoryGone(root: toRoot, path: to, stillExists: true)
                } else {
                    scheduleSubtreeScan(root: toRoot, path: to)
                }
            } else {
                directoryGone(root: from.root, path: from.path, stillExists: true)
                directoryArrived(root: toRoot, path: to)
            }
            return
        }
        // A file still being written keeps waiting for its close-write, under its new name.
        let fromKey = WatchTable.Entry(rootID: from.root, path: from.path)
        if let pending = pendingCreates.removeValue(forKey: fromKey) {
            pendingCreates[WatchTable.Entry(rootID: toRoot, path: to)] = pending
            fileChanged(root: from.root, path: from.path)
            return
        }
        let (config, online) = curator.withState { state in (state.roots[toRoot]?.config, state.roots[toRoot]?.online ?? false) }
        guard let config, online else { return }
        let absolute = config.path.appending(to)
        let type = NameFilter(config).photoType(to.lastComponent)
        let status: FileStatus?
        do {
            status = type == nil ? nil : try FileStatus.ifExists(absolute)
        } catch {
            // It is somewhere: keep it under its former path rather than lose its id
            // and selections (a later event or scan finds it by its inode).
            keepUnreadable(error)
            return
        }
        guard let type, let status, status.isRegularFile else {
            fileChanged(root: from.root, path: from.path)
            fileChanged(root: toRoot, path: to)
            return
        }
        curator.withState { state in
            do {
                try state.fileMoved(root: from.root, from: from.path, toRoot: toRoot, to: to,
                                    file: ScannedFile(name: to.lastComponent, status: status, type: type))
            } catch {
                log.error("cannot record a move to \(absolute.lossyString): \(error)")
            }
        }
    }

    /// MOVED_FROM halves that found no partner in time: those files and folders
    /// left the roots (or went somewhere unwatched).
    func settlePendingMoves(olderThan limit: UInt64) {
        guard !pendingMoves.isEmpty else { return }
        for (cookie, move) in pendingMoves.filter({ $0.value.seenAt <= limit }).sorted(by: { $0.value.sequence < $1.value.sequence }) {
            pendingMoves[cookie] = nil
            if move.isDirectory {
                directoryGone(root: move.root, path: move.path, stillExists: true)
            } else {
                let key = WatchTable.Entry(rootID: move.root, path: move.path)
                pendingCreates[key] = nil
                // A running batch's own move out: it reports the photo itself.
                if curator.outgoing.claim(key) { continue }
                fileChanged(root: move.root, path: move.path)
            }
        }
    }

    /// A file was created: it is indexed at its close-after-write, or, when none
    /// comes (hard links, mknod, a writer that never closes), once its size and
    /// mtime have stayed the same for a while. A slow writer keeps changing them.
    func createSeen(_ key: WatchTable.Entry) {
        let absolute = curator.withState { $0.absolutePath(root: key.rootID, relative: key.path) }
        let status = absolute.flatMap { try? FileStatus.ifExists($0) }
        pendingCreates[key] = PendingCreate(quietSince: MonotonicClock.nanoseconds(), size: status?.size ?? -1,
                                            mtimeNs: status?.mtimeNanoseconds ?? -1)
    }

    func settlePendingCreates(now: UInt64) {
        guard !pendingCreates.isEmpty else { return }
        for (key, pending) in pendingCreates where now >= pending.quietSince + Self.createSettleNs {
            let absolute = curator.withState { $0.absolutePath(root: key.rootID, relative: key.path) }
            let status = absolute.flatMap { try? FileStatus.ifExists($0) }
            if let status, status.size != pending.size || status.mtimeNanoseconds != pending.mtimeNs {
                pendingCreates[key] = PendingCreate(quietSince: now, size: status.size, mtimeNs: status.mtimeNanoseconds)
                continue
            }
            pendingCreates[key] = nil
            fileChanged(root: key.rootID, path: key.path)
        }
    }

    private func movePendingCreates(root: Int32, from: ByteString, to: ByteString) {
        let moving = pendingCreates.filter { $0.key.rootID == root && $0.key.path.isWithin(from) }
        for (key, pending) in moving {
            pendingCreates[key] = nil
            pendingCreates[WatchTable.Entry(rootID: root, path: to.appending(key.path.relative(to: from)))] = pending
        }
    }

    // MARK: directories

    /// A directory created or moved into a root: watch it first, then scan it, so
    /// files written into it before its watch existed are not missed.
    func directoryArrived(root: Int32, path: ByteString) {
        guard let config = curator.withState({ $0.roots[root]?.config }) else { return }
        let filter = NameFilter(config)
        if path.components.contains(where: filter.skipsDirectory) { return }
        scheduleSubtreeScan(root: root, path: path)
    }

    /// A directory deleted or moved out of its root: forget its watches and photos.
    func directoryGone(root: Int32, path: ByteString, stillExists: Bool) {
        for (wd, _) in table.subtree(root: root, path: path) {
            table.remove(wd: wd)
            // A directory moved out still exists and would keep reporting: drop its watch.
            // (A deleted one's watch is dropped by the kernel: IN_IGNORED follows.)
            if stillExists { tools?.unwatch(wd) }
        }
        if !pendingCreates.isEmpty { pendingCreates = pendingCreates.filter { !($0.key.rootID == root && $0.key.path.isWithin(path)) } }
        scans.removeAll { job in
            guard job.root == root, case .subtree(let p) = job.kind else { return false }
            return p.isWithin(path)
        }
        curator.withState { state in
            do { try state.folderVanished(root: root, path: path) } catch { log.error("cannot unindex \(path.lossyString): \(error)") }
        }
    }
}
