// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorProtocol
import CuratorSystem
import Glibc

extension Watcher {
    /// Queues a full scan of a root, unless one is already waiting.
    func scheduleFullScan(root: Int32, reason: String?) {
        if scans.contains(where: { $0.root == root && $0.kind == .full && !$0.started }) { return }
        // A running full scan of this root would miss what the reason is about: start
        // over. The new job takes the old one's place in the order, so that cookies
        // waiting for the old one also wait for it.
        var sequence = nextSequence()
        for job in scans where job.root == root && job.kind == .full && job.started { sequence = min(sequence, job.sequence) }
        scans.removeAll { $0.root == root && $0.kind == .full && $0.started }
        scans.append(ScanJob(root: root, kind: .full, sequence: sequence))
        curator.withState { state in
            guard var r = state.roots[root] else { return }
            if reason != nil {
                r.rescans += 1
                state.totalRescans += 1
            }
            r.scanning = true
            state.roots[root] = r
        }
        if let reason {
            let name = curator.withState { $0.rootName(root) }
            log.info("rescanning root \(name): \(reason)")
        }
    }

    func scheduleSubtreeScan(root: Int32, path: ByteString) {
        if scans.contains(where: { $0.root == root && ($0.kind == .full || $0.kind == .subtree(path)) && !$0.started }) { return }
        scans.append(ScanJob(root: root, kind: .subtree(path), sequence: nextSequence()))
    }

    /// Scans directories of the oldest job for a few milliseconds, then returns so
    /// that commands and the inotify queue are served.
    func runScanStep() {
        guard var job = scans.first else { return }
        let (config, usesInotify, online) = curator.withState { state in
            (state.roots[job.root]?.config, state.roots[job.root]?.usesInotify ?? false, state.roots[job.root]?.online ?? false)
        }
        guard let config, online else {
            scans.removeFirst()
            return
        }
        if !job.started {
            job.started = true
            job.startedAt = MonotonicClock.nanoseconds()
            if job.kind == .full {
                job.rootDirectory = (try? FileStatus.following(config.path)).map { WatchTable.DirectoryKey(device: $0.device, inode: $0.inode) }
                curator.withState { state in
                    state.roots[job.root]?.scanDirectories = 0
                    state.roots[job.root]?.scanFiles = 0
                    state.send(Event(event: .scan, root: config.name, state: "started"), root: job.root)
                }
            }
        }
        let filter = NameFilter(config)
        let sliceEnd = MonotonicClock.nanoseconds() + 20_000_000
        var watching = usesInotify && tools != nil
        while let directory = job.pending.popLast() {
            scanDirectory(root: job.root, config: config, relative: directory, filter: filter, watching: &watching, job: &job)
            if MonotonicClock.nanoseconds() >= sliceEnd { break }
        }
        bufferEvents()
        let (dirs, files, watches) = (job.directories, job.files, table.count(root: job.root))
        curator.withState { state in
            if job.kind == .full {
                state.roots[job.root]?.scanDirectories = dirs
                state.roots[job.root]?.scanFiles = files
            }
            state.roots[job.root]?.watches = watches
        }
        if !job.pending.isEmpty {
            scans[0] = job
        } else {
            scans.removeFirst()
            finish(job, config: config)
        }
        publishWatcherReport()
        if backlogOverflowed {
            backlogOverflowed = false
            eventsLost(reason: "too many events during a scan")
        }
    }

    private func finish(_ job: ScanJob, config: RootConfig) {
        let name = config.name
        let elapsedMs = Int((MonotonicClock.nanoseconds() - job.startedAt) / 1_000_000)
        guard job.kind == .full else { return }
        // An unmount during the scan made later directories look empty or gone:
        // that is not a deletion. The liveness check takes the root offline.
        let now = (try? FileStatus.following(config.path)).map { WatchTable.DirectoryKey(device: $0.device, inode: $0.inode) }
        guard let now, now == job.rootDirectory else {
            log.warning("root \(name): its folder changed during the scan; nothing is removed")
            curator.withState { state in state.roots[job.root]?.scanning = false }
            checkLiveness(only: job.root)
            return
        }
        let stillQueued = scans.contains { $0.root == job.root && $0.kind == .full }
        curator.withState { state in
            do {
                try state.finishScan(root: job.root, seen: job.seenPhotos, seenFolders: job.seenFolders, unreadable: job.unreadable)
            } catch {
                log.error("root \(name): cannot record the end of the scan: \(error)")
            }
            guard var r = state.roots[job.root] else { return }
            r.scanning = stillQueued
            r.lastScanMs = elapsedMs
            r.watches = table.count(root: job.root)
            state.roots[job.root] = r
            state.send(Event(event: .scan, root: name, state: "done", count: state.library.countByRoot[job.root] ?? 0), root: job.root)
        }
        log.info("root \(name): scanned \(job.files) photos in \(job.directories) folders in \(elapsedMs) ms")
        // A scan's listings and sets are freed all at once: return them to the system.
        curator_trim_heap()
        // Cookies whose events were lost (overflow, a restarted inotify) are
        // answered here: the scan read the whole root after they were made.
        for cookie in job.cookies { cookieArrived(cookie) }
        removeAbandonedCookies(job.cookies, in: config.path)
    }

    /// Cookie files of another process (a daemon killed during a sync), old enough
    /// that no sync can still be waiting for them, are ours to clean up.
    private func removeAbandonedCookies(_ names: [ByteString], in rootPath: ByteString) {
        let ours = ByteString(".curatord-cookie-\(getpid())-")
        let now = Int64(time(nil))
        for name in names where !name.bytes.starts(with: ours.bytes) {
            let path = rootPath.appending(name)
            guard let status = try? FileStatus.ifExists(path), status.isRegularFile,
                  now - status.mtimeNanoseconds / 1_000_000_000 > 600
            else { continue }
            if path.withCString({ SystemCalls.unlinkat(AT_FDCWD, $0, 0) }) == 0 { log.info("removed an abandoned sync cookie \(path)") }
        }
    }

    /// Watches a directory, open as `fd`, before it is read, so nothing created
    /// meanwhile is missed. Returns false when the root had to fall back to polling.
    func watchDirectory(root: Int32, path: ByteString, config: RootConfig, fd: FileDescriptor, status: FileStatus) -> Bool {
        guard let tools else { return false }
        let key = WatchTable.DirectoryKey(device: status.device, inode: status.inode)
        if let wd = table.wd(root: root, path: path), table.directory(wd) == key { return true }
        switch tools.watch(fd) {
        case .success(let wd):
            // Another watch at this path was for a directory since replaced.
            if let superseded = table.insert(wd: wd, root: root, path: path, directory: key) { tools.unwatch(superseded) }
            return true
        case .failure(let errno) where errno == .noSpace:
            fallBackToPolling(root: root, config: config)
            return false
        case .failure(let errno):
            if errno != .noEntry && errno != .notDirectory {
                log.warning("root \(config.name): cannot watch \(path.lossyString): \(errno)")
            }
            return true
        }
    }

    /// Out of inotify watches (ENOSPC): this root is polled instead, and says so.
    func fallBackToPolling(root: Int32, config: RootConfig) {
        unwatchRoot(root)
        let limit = InotifyTools.maxUserWatches
        let note = "inotify watch limit reached (fs.inotify.max_user_watches = \(limit)); polling every \(Int(config.pollInterval)) s"
        curator.withState { state in
            state.roots[root]?.usesInotify = false
            state.roots[root]?.polls = true
            state.roots[root]?.note = note
            state.roots[root]?.watches = 0
        }
        nextPoll[root] = MonotonicClock.nanoseconds() + UInt64(config.pollInterval * 1e9)
        log.warning("root \(config.name): \(note)")
    }

    /// Opens one directory, watches it, lists it, stats its photos, queues its
    /// sub-directories and reconciles it with the index in one locked step.
    func scanDirectory(root: Int32, config: RootConfig, relative: ByteString, filter: NameFilter, watching: inout Bool,
                       job: inout ScanJob) {
        let absolute = config.path.appending(relative)
        let fd: FileDescriptor
        do {
            // The root itself may be a symlink (followed); nothing below it is.
            fd = relative.isEmpty ? try FileDescriptor.open(absolute, O_RDONLY | curator_O_DIRECTORY)
                : try FileDescriptor.openDirectory(absolute)
        } catch {
            if error.errno != .noEntry && error.errno != .notDirectory && error.errno != .tooManyLinks {
                log.warning("cannot read \(absolute.lossyString): \(error.errno)")
                // Unreadable: keep what we knew of it rather than call it empty.
                job.unreadable.append(relative)
            }
            return
        }
        defer { try? fd.close() }
        let directoryStatus: FileStatus
        do {
            directoryStatus = try FileStatus.of(descriptor: fd)
        } catch {
            log.warning("cannot stat \(absolute.lossyString): \(error)")
            job.unreadable.append(relative)
            return
        }
        if watching && !watchDirectory(root: root, path: relative, config: config, fd: fd, status: directoryStatus) { watching = false }
        let listing: [DirectoryEntry]
        do {
            let dup = try FileDescriptor(rawValue: syscall("dup") { SystemCalls.dup(fd.rawValue) })
            listing = try DirectoryReader.entries(ofOpen: dup, path: absolute)
        } catch {
            log.warning("cannot list \(absolute.lossyString): \(error)")
            job.unreadable.append(relative)
            return
        }
        job.directories += 1
        job.seenFolders.insert(relative)
        var files: [ScannedFile] = []
        // A name listed but not stat-able for another reason than being gone (EACCES
        // on a folder without search permission, EIO): the folder is kept as if
        // unreadable, so that what the index knew of that file is not removed.
        var unstatable = false
        func status(of name: ByteString) -> FileStatus? {
            do {
                return try FileStatus.of(name, relativeTo: fd)
            } catch {
                if error.errno != .noEntry && error.errno != .notDirectory {
                    log.warning("cannot stat \(absolute.appending(name).lossyString): \(error.errno); keeping what the index knew of it")
                    unstatable = true
                }
                return nil
            }
        }
        for entry in listing {
            var kind = entry.kind
            var entryStatus: FileStatus?
            if kind == .unknown {
                entryStatus = status(of: entry.name)
                if let s = entryStatus { kind = s.isDirectory ? .directory : s.isRegularFile ? .file : .other }
            }
            switch kind {
            case .directory:
                if !filter.skipsDirectory(entry.name) { job.pending.append(relative.appending(entry.name)) }
            case .file:
                if relative.isEmpty && job.kind == .full && WatcherInbox.isCookie(entry.name) { job.cookies.append(entry.name) }
                guard let type = filter.photoType(entry.name) else { continue }
                guard let s = entryStatus ?? status(of: entry.name), s.isRegularFile else { continue }
                files.append(ScannedFile(name: entry.name, status: s, type: type))
            default:
                continue
            }
        }
        if unstatable { job.unreadable.append(relative) }
        job.files += files.count
        var seen = job.seenPhotos
        job.seenPhotos = []  // keep the set uniquely referenced: no copy per directory
        let deferRemovals = job.kind == .full
        curator.withState { state in
            do {
                _ = try state.reconcile(root: root, directory: relative, files: files, complete: !unstatable,
                                        deferRemovals: deferRemovals, seen: &seen)
            } catch {
                log.error("cannot index \(absolute.lossyString): \(error)")
            }
        }
        job.seenPhotos = seen
    }

    /// Hands the inotify numbers to `status`.
    func publishWatcherReport() {
        let (stale, restarts, watches) = (tools?.staleEntries ?? 0, tools?.reinitializations ?? 0, table.count)
        report.update { snapshot in
            snapshot.staleEntries = stale
            snapshot.restarts = max(snapshot.restarts, restarts)
            snapshot.watches = watches
        }
    }
}
