// SPDX-License-Identifier: GPL-2.0-or-later
import CInotifyTools
import CuratorProtocol
import CuratorSystem
import Glibc

extension Watcher {
    /// Handles a run of events in order. Moves are paired by cookie; a MOVED_FROM
    /// whose MOVED_TO has not come yet waits briefly (it may be in the next read).
    func process(_ events: [InotifyEvent]) {
        for event in events { handle(event) }
        if !pendingMoves.isEmpty {
            // The other half is usually right behind: give the kernel a moment.
            var fds = [pollfd(fd: tools?.descriptor ?? -1, events: Int16(POLLIN), revents: 0)]
            if tools != nil, poll(&fds, 1, 2) > 0 {
                for event in readAvailableEvents() { handle(event) }
            }
            settlePendingMoves(olderThan: MonotonicClock.nanoseconds())
        }
    }

    func handle(_ event: InotifyEvent) {
        if event.has(IN_Q_OVERFLOW) {
            overflowed()
            return
        }
        guard let entry = table.entry(event.wd) else { return }
        if event.has(IN_IGNORED) {
            table.remove(wd: event.wd)
            tools?.forget(event.wd)
            if entry.path.isEmpty { nextLivenessCheck = 0 }
            return
        }
        if event.has(IN_UNMOUNT) || (entry.path.isEmpty && (event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF))) {
            nextLivenessCheck = 0
            return
        }
        if event.name.isEmpty { return }
        let path = entry.path.appending(event.name)
        let root = entry.rootID

        if !event.isDirectory && entry.path.isEmpty && WatcherInbox.isCookie(event.name) {
            if event.has(IN_CREATE) { inbox.cookieSeen(event.name) }
            return
        }

        if event.has(IN_MOVED_FROM) {
            pendingMoves[event.cookie] = PendingMove(root: root, path: path, isDirectory: event.isDirectory,
                                                     seenAt: MonotonicClock.nanoseconds())
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
        if event.has(IN_CREATE) {
            // Indexed once written (close-write), not half-way.
            pendingCreates[WatchTable.Entry(rootID: root, path: path)] = MonotonicClock.nanoseconds()
        } else if event.has(IN_CLOSE_WRITE) {
            pendingCreates[WatchTable.Entry(rootID: root, path: path)] = nil
            fileChanged(root: root, path: path)
        } else if event.has(IN_ATTRIB) {
            if pendingCreates[WatchTable.Entry(rootID: root, path: path)] == nil { fileChanged(root: root, path: path) }
        } else if event.has(IN_DELETE) {
            pendingCreates[WatchTable.Entry(rootID: root, path: path)] = nil
            fileChanged(root: root, path: path)
        }
    }

    private func overflowed() {
        let ids = curator.withState { state -> [Int32] in
            state.totalOverflows += 1
            let ids = state.rootOrder.filter { state.roots[$0]?.usesInotify ?? false }
            for id in ids { state.roots[id]?.overflows += 1 }
            state.send(Event(event: .overflow, message: "the inotify queue overflowed; rescanning"), root: nil)
            return ids
        }
        log.warning("inotify queue overflow: rescanning \(ids.count) root(s)")
        pendingMoves.removeAll()
        backlog.removeAll()
        for id in ids { scheduleFullScan(root: id, reason: "inotify queue overflow") }
    }

    // MARK: files

    /// Something happened at a file path: stat it and bring the index in line.
    func fileChanged(root: Int32, path: ByteString) {
        let (config, online) = curator.withState { state in (state.roots[root]?.config, state.roots[root]?.online ?? false) }
        guard let config, online else { return }
        let filter = NameFilter(config)
        let absolute = config.path.appending(path)
        let status = try? FileStatus.ifExists(absolute)
        guard let type = filter.photoType(path.lastComponent), let status, status.isRegularFile else {
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

    func moved(from: PendingMove, toRoot: Int32, to: ByteString, isDirectory: Bool) {
        if isDirectory {
            if from.root == toRoot {
                table.move(root: toRoot, from: from.path, to: to)
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
        let (config, online) = curator.withState { state in (state.roots[toRoot]?.config, state.roots[toRoot]?.online ?? false) }
        guard let config, online else { return }
        let absolute = config.path.appending(to)
        guard let type = NameFilter(config).photoType(to.lastComponent), let status = try? FileStatus.ifExists(absolute),
              status.isRegularFile
        else {
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

    /// MOVED_FROM halves that found no partner: those files and folders left the roots.
    func settlePendingMoves(olderThan limit: UInt64) {
        for (cookie, move) in pendingMoves where move.seenAt <= limit {
            pendingMoves[cookie] = nil
            if move.isDirectory {
                directoryGone(root: move.root, path: move.path, stillExists: true)
            } else {
                fileChanged(root: move.root, path: move.path)
            }
        }
    }

    /// Files created that never saw a close-after-write (hard links, mknod): index
    /// them once they have been quiet for a while.
    func settlePendingCreates(now: UInt64) {
        for (entry, seen) in pendingCreates where now - seen >= Self.createSettleNs {
            pendingCreates[entry] = nil
            fileChanged(root: entry.rootID, path: entry.path)
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
            // A directory moved out still exists and would keep reporting: drop its watch.
            if stillExists { tools?.unwatch(wd) }
            table.remove(wd: wd)
        }
        scans.removeAll { job in job.root == root && { if case .subtree(let p) = job.kind { return p.isWithin(path) } else { return false } }() }
        curator.withState { state in
            do { try state.folderVanished(root: root, path: path) } catch { log.error("cannot unindex \(path.lossyString): \(error)") }
        }
    }
}
