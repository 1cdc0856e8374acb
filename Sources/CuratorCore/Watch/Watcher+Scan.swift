// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorProtocol
import CuratorSystem
import Glibc

extension Watcher {
    /// Queues a full scan of a root, unless one is already waiting.
    func scheduleFullScan(root: Int32, reason: String?) {
        if scans.contains(where: { $0.root == root && $0.kind == .full && !$0.started }) { return }
        // A running full scan of this root would miss what the reason is about: start over.
        scans.removeAll { $0.root == root && $0.kind == .full && $0.started }
        scans.append(ScanJob(root: root, kind: .full))
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
        scans.append(ScanJob(root: root, kind: .subtree(path)))
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
                curator.withState { state in
                    state.roots[job.root]?.scanDirectories = 0
                    state.roots[job.root]?.scanFiles = 0
                    state.send(Event(event: .scan, root: config.name, state: "started"), root: job.root)
                }
            }
        }
        let filter = NameFilter(config)
        let sliceEnd = MonotonicClock.nanoseconds() + 20_000_000
        var watching = usesInotify
        while let directory = job.pending.popLast() {
            if watching && !watchDirectory(root: job.root, path: directory, config: config) { watching = false }
            scanDirectory(root: job.root, rootPath: config.path, relative: directory, filter: filter, job: &job)
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
            return
        }
        scans.removeFirst()
        finish(job, name: config.name)
    }

    private func finish(_ job: ScanJob, name: String) {
        let elapsedMs = Int((MonotonicClock.nanoseconds() - job.startedAt) / 1_000_000)
        guard job.kind == .full else { return }
        let stillQueued = scans.contains { $0.root == job.root && $0.kind == .full }
        curator.withState { state in
            do {
                try state.finishScan(root: job.root, seen: job.seenPhotos, seenFolders: job.seenFolders)
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
        if backlogOverflowed {
            backlogOverflowed = false
            for id in curator.withState({ $0.rootOrder }) { scheduleFullScan(root: id, reason: "too many events during a scan") }
        }
    }

    /// Watches a directory before it is read, so nothing created meanwhile is missed.
    /// Returns false when the root had to fall back to polling.
    func watchDirectory(root: Int32, path: ByteString, config: RootConfig) -> Bool {
        guard let tools else { return false }
        if table.wd(root: root, path: path) != nil { return true }
        switch tools.watch(config.path.appending(path)) {
        case .success(let wd):
            table.insert(wd: wd, root: root, path: path)
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
        for (wd, _) in table.subtree(root: root, path: .empty) {
            tools?.unwatch(wd)
            table.remove(wd: wd)
        }
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

    /// Reads one directory, stats its photos, queues its sub-directories and
    /// reconciles the directory with the index in one locked step.
    func scanDirectory(root: Int32, rootPath: ByteString, relative: ByteString, filter: NameFilter, job: inout ScanJob) {
        let absolute = rootPath.appending(relative)
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.openDirectory(absolute)
        } catch {
            if error.errno != .noEntry && error.errno != .notDirectory {
                log.warning("cannot read \(absolute.lossyString): \(error.errno)")
                // Unreadable: keep what we knew of it rather than call it empty.
                markSeen(root: root, below: relative, job: &job)
            }
            return
        }
        defer { fd.close() }
        let listing: [DirectoryEntry]
        do {
            let dup = try FileDescriptor(rawValue: syscall("dup") { Glibc.dup(fd.rawValue) })
            listing = try DirectoryReader.entries(ofOpen: dup, path: absolute)
        } catch {
            log.warning("cannot list \(absolute.lossyString): \(error)")
            markSeen(root: root, below: relative, job: &job)
            return
        }
        job.directories += 1
        job.seenFolders.insert(relative)
        var files: [ScannedFile] = []
        for entry in listing {
            var kind = entry.kind
            var status: FileStatus?
            if kind == .unknown {
                status = try? FileStatus.of(entry.name, relativeTo: fd)
                if let s = status { kind = s.isDirectory ? .directory : s.isRegularFile ? .file : .other }
            }
            switch kind {
            case .directory:
                if !filter.skipsDirectory(entry.name) { job.pending.append(relative.appending(entry.name)) }
            case .file:
                guard let type = filter.photoType(entry.name) else { continue }
                guard let s = status ?? (try? FileStatus.of(entry.name, relativeTo: fd)), s.isRegularFile else { continue }
                files.append(ScannedFile(name: entry.name, status: s, type: type))
            default:
                continue
            }
        }
        job.files += files.count
        var seen = job.seenPhotos
        job.seenPhotos = []  // keep the set uniquely referenced: no copy per directory
        curator.withState { state in
            do {
                _ = try state.reconcile(root: root, directory: relative, files: files, complete: true, seen: &seen)
            } catch {
                log.error("cannot index \(absolute.lossyString): \(error)")
            }
        }
        job.seenPhotos = seen
    }

    /// Keeps the photos below an unreadable directory (a permission problem is not a deletion).
    private func markSeen(root: Int32, below path: ByteString, job: inout ScanJob) {
        let (ids, folders) = curator.withState { state -> ([Int64], [ByteString]) in
            let folders = state.library.folders(root: root, within: path)
            let folderIDs = Set(folders.map(\.id))
            return (state.library.photos.values.filter { folderIDs.contains($0.folderID) }.map(\.id), folders.map(\.path))
        }
        job.seenPhotos.formUnion(ids)
        job.seenFolders.formUnion(folders)
    }
}
