// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorSystem
import Glibc

/// Walks: the first scan of a root, the rescans that repair lost events or poll a
/// share, and the subtree of each folder that arrives. Each folder is watched before
/// it is read, read in full, and reconciled with the index in one locked step.
extension Crawler {
    /// What a scan step leaves the watcher to do.
    enum ScanStep: Equatable {
        /// No scan waits.
        case idle
        /// A step was taken; more may follow.
        case working
        /// inotify is out of watches (ENOSPC): the root has to be polled instead.
        case outOfWatches
        /// The running full scan has read everything: the watcher applies what events
        /// came meanwhile, then `finishFullScan` decides what is gone.
        case readyToFinish
    }

    enum FullScanEnd: Equatable {
        /// Done; the sync cookies the scan listed are to be answered.
        case finished(cookies: [ByteString])
        /// Another folder stands at the root's path now (unmounted meanwhile):
        /// nothing is removed, and the root's presence is to be checked.
        case rootChanged
        /// A newer full scan replaced this one.
        case superseded
    }

    /// The sequence of the scan that runs next, if any.
    var nextScan: UInt64? { online ? scans.first?.sequence : nil }

    /// Queues a full scan of the root, unless one is already waiting (or the root is
    /// offline: its return starts one). `reason` is set for a rescan (lost events, a
    /// request).
    func scheduleFullScan(reason: String?) {
        guard online else { return }
        if scans.contains(where: { $0.isFull && !$0.started }) { return }
        // A running full scan would miss what the reason is about: start over. The
        // new job takes the old one's place in the order, so that cookies waiting
        // for the old one also wait for it.
        var number = sequence.next()
        // The root's first scan coalesces what it adds (so does the scan that replaces it).
        var coalesce = firstScanDue
        firstScanDue = false
        for job in scans where job.isFull && job.started {
            number = min(number, job.sequence)
            coalesce = coalesce || job.coalescesAdded
        }
        removeScans { $0.isFull && $0.started }
        appendScan(ScanJob(kind: .full, sequence: number, coalescesAdded: coalesce))
        state.withUpdates { $0.scanScheduled(root: root, rescan: reason != nil) }
        if let reason { log.info("rescanning root \(name): \(reason)") }
    }

    /// Queues a scan of the folder at `path`, unless one that covers it waits already.
    /// `number`: the work it finishes, whose place in the order it takes (a cookie
    /// that waited for that work then waits for it too); a number of its own else.
    func scheduleSubtreeScan(_ path: ByteString, finishing number: UInt64? = nil) {
        guard online else { return }
        if scans.contains(where: { ($0.isFull || $0.kind == .subtree(path)) && !$0.started && $0.sequence <= number ?? .max }) {
            return
        }
        appendScan(ScanJob(kind: .subtree(path), sequence: number ?? sequence.next()))
    }

    /// Reads folders of the oldest job for `sliceNanoseconds`, then returns so that
    /// commands and hints are served. With `othersWaiting` (asked only once that
    /// time is up) the step goes on while it says nothing else waits for this
    /// thread, up to `longestSliceNanoseconds`: each step starts with both threads
    /// walking (this one has nothing to apply yet) and ends with the walker idle, so a
    /// quiet tree's first scan in steps of 20 ms had this thread do 31 % of its
    /// walking, which the walker would otherwise have walked while this one applied.
    func runScanStep(othersWaiting: (() -> Bool)? = nil) -> ScanStep {
        guard let job = scans.first else { return .idle }
        guard online else {
            removeScans { _ in true }
            return .working
        }
        if !job.started {
            job.started = true
            job.startedAt = MonotonicClock.nanoseconds()
            if config.groups {
                let within: ByteString? = if case .subtree(let path) = job.kind { path } else { nil }
                job.indexedFolders = state.withUpdates { $0.foldersWithRows(root: root, within: within) }
            }
            if job.isFull {
                job.adoptsRenamed = state.withUpdates { $0.hasPhotos(root: root) }
                job.rootDirectory = (try? FileStatus.following(config.path)).map { WatchTable.DirectoryKey(device: $0.device, inode: $0.inode) }
                state.withUpdates { $0.scanStarted(root: root) }
            }
        }
        let stepStart = MonotonicClock.nanoseconds()
        let sliceEnd = stepStart + sliceNanoseconds
        // A step of no length (tests) never goes on.
        let longestEnd = sliceNanoseconds == 0 ? sliceEnd : stepStart + max(sliceNanoseconds, longestSliceNanoseconds)
        func withinStep() -> Bool {
            let now = MonotonicClock.nanoseconds()
            if now < sliceEnd { return true }
            guard now < longestEnd, let othersWaiting else { return false }
            return !othersWaiting()
        }
        var outOfWatches = false
        // The walk of the next few folders (open, watch, list, stat: system calls,
        // no lock) runs on the walker thread while the folders read before them are
        // applied to the index here: on two cores the two overlap. Both end within
        // the step, so that hints are still applied between steps, after every
        // listing taken before them. The walker starts on the step's first group at
        // once, while this thread walks a few folders of its own to apply meanwhile;
        // at the step's end it walks a few folders more (the tail, applied within the
        // step too) while the last group is applied. With the step's first walk and
        // its last apply each on one core, a 20 ms step of a cold scan left the walker
        // idle about a third of the time (on a host whose system calls are cheap,
        // walking a folder costs about as much as applying it). Where applying is the
        // quicker (a warm restart: an unchanged folder costs a lookup per file), this
        // thread walks too, a few folders at a time, until the walker is done.
        // A step of no length (tests) is the smallest: one walk here, applied, nothing ahead.
        // The walker keeps groups queued behind the one it walks (`queued`): with one
        // at a time it sat idle while this thread applied the group before (a third
        // of a cold scan's time), and this thread, the scan's bottleneck, walked
        // beside it; with one queued, it still fell behind where walking costs more
        // than usual (a folder of RAW+JPEG pairs and sidecars: a stat and a name more
        // per sidecar, the groups planned), and this thread walked 2-3 times as many
        // folders as without sidecars (`groupsQueuedBehind`). Every group handed out
        // is applied within the step.
        let overlaps = sliceNanoseconds > 0
        var ahead = job.pending.isEmpty || !overlaps ? nil : walkAhead(nextFolders(of: job, limit: firstAheadOfStep), for: job)
        var queued: [JobHandle<WalkedGroup, Never>] = []
        var group = walk(nextFolders(of: job, limit: firstWalkOfStep), for: job)
        take(group, into: job)
        while true {
            outOfWatches = outOfWatches || group.outOfWatches
            let goOn = !outOfWatches && (ahead != nil || !job.pending.isEmpty) && withinStep()
            if ahead == nil && overlaps && !outOfWatches && !job.pending.isEmpty {
                ahead = walkAhead(nextFolders(of: job, limit: goOn ? directoriesPerWatch : firstWalkOfStep), for: job)
            }
            while goOn && ahead != nil && queued.count < Self.groupsQueuedBehind && !job.pending.isEmpty {
                guard let more = walkAhead(nextFolders(of: job, limit: directoriesPerWatch), for: job) else { break }
                queued.append(more)
            }
            apply(group.folders, for: job)
            guard let running = ahead else {
                guard goOn else { break }
                group = walk(nextFolders(of: job, limit: directoriesPerWatch), for: job)  // no walker thread: walked here
                take(group, into: job)
                continue
            }
            ahead = queued.isEmpty ? nil : queued.removeFirst()
            var here = WalkedGroup()
            while goOn, !running.isFinished, !here.outOfWatches, !job.pending.isEmpty, withinStep() {
                let more = walk(nextFolders(of: job, limit: firstWalkOfStep), for: job)
                take(more, into: job)
                here.folders += more.folders
                here.outOfWatches = here.outOfWatches || more.outOfWatches
            }
            if case .returned(let next) = running.wait() {
                take(next, into: job)
                group = next
            } else {
                group = goOn ? walk(nextFolders(of: job, limit: directoriesPerWatch), for: job) : WalkedGroup()
                take(group, into: job)
            }
            group.folders += here.folders
            group.outOfWatches = group.outOfWatches || here.outOfWatches
            if !goOn {
                // The tail: applied now, then the groups still queued, in turn (groups are
                // queued only while the step goes on); nothing walked behind them.
                outOfWatches = outOfWatches || group.outOfWatches
                apply(group.folders, for: job)
                for handle in (ahead.map { [$0] } ?? []) + queued {
                    if case .returned(let rest) = handle.wait() {
                        take(rest, into: job)
                        outOfWatches = outOfWatches || rest.outOfWatches
                        apply(rest.folders, for: job)
                    }
                }
                break
            }
        }
        let watches = watcher.watchCount(root: root)
        state.withUpdates { roots in
            roots.scanProgressed(root: root, directories: job.isFull ? job.directories : nil, files: job.isFull ? job.files : nil,
                                 watches: watches)
        }
        if outOfWatches { return .outOfWatches }
        guard job.pending.isEmpty else { return .working }
        if job.isFull { return .readyToFinish }
        removeScans { $0 === job }
        return .working
    }

    /// Ends the full scan that `runScanStep` found ready: what it did not see is gone.
    func finishFullScan() -> FullScanEnd {
        guard let job = scans.first, job.isFull, job.started, job.pending.isEmpty else { return .superseded }
        removeScans { $0 === job }
        let elapsedMs = Int((MonotonicClock.nanoseconds() - job.startedAt) / 1_000_000)
        // An unmount during the scan made later directories look empty or gone:
        // that is not a deletion. The liveness check takes the root offline.
        let now = (try? FileStatus.following(config.path)).map { WatchTable.DirectoryKey(device: $0.device, inode: $0.inode) }
        guard let now, now == job.rootDirectory else {
            log.warning("root \(name): its folder changed during the scan; nothing is removed")
            state.withUpdates { $0.scanAbandoned(root: root) }
            return .rootChanged
        }
        let stillQueued = scans.contains { $0.isFull }
        // What the scan did not see is removed in steps of a bounded size, each its
        // own hold of the lock (one pass over a million photos held it 100 ms).
        // No hint is applied between them: this thread is the one that applies them.
        // A share's scan that held arrivals pairs them with what vanished: that
        // takes every vanished photo at once, so it ends in one step.
        var folders = job.arrivals.files.isEmpty ? state.withUpdates { $0.scanFolderIDs(root: root) }[...] : []
        if !job.arrivals.files.isEmpty {
            state.withUpdates { updates in
                do {
                    try updates.finishScan(root: root, seen: job.seenPhotos, seenFolders: job.seenFolders, unreadable: job.unreadable,
                                           arrivals: job.arrivals, coalesceAdded: job.coalescesAdded)
                } catch {
                    log.error("root \(name): cannot record the end of the scan: \(error)")
                }
            }
        }
        var unseen: [Folder] = []
        var failed = false
        while !folders.isEmpty && !failed {
            state.withUpdates { updates in
                do {
                    let step = try updates.removeUnseen(root: root, folders: folders, seen: job.seenPhotos, seenFolders: job.seenFolders,
                                                        unreadable: job.unreadable, budget: finishBudgetPerLock)
                    folders = folders.dropFirst(step.consumed)
                    unseen += step.unseenFolders
                } catch {
                    log.error("root \(name): cannot record the end of the scan: \(error)")
                    failed = true
                }
            }
        }
        // Deepest first: each folder is dropped before its parent.
        var dropping = unseen.sorted { $0.path.count > $1.path.count }[...]
        while !dropping.isEmpty && !failed {
            state.withUpdates { updates in
                do {
                    dropping = dropping.dropFirst(try updates.dropFolders(dropping, limit: foldersDroppedPerLock))
                } catch {
                    log.error("root \(name): cannot record the end of the scan: \(error)")
                    failed = true
                }
            }
        }
        let watches = watcher.watchCount(root: root)
        state.withUpdates { updates in
            updates.scanFinished(root: root, elapsedMs: elapsedMs, watches: watches, stillScanning: stillQueued)
        }
        log.info("root \(name): scanned \(job.files) files in \(job.directories) folders in \(elapsedMs) ms")
        // A scan's listings and sets are freed all at once: return them to the system.
        curator_trim_heap()
        removeAbandonedCookies(job.cookies)
        return .finished(cookies: job.cookies)
    }

    /// Cookie files of another process (a daemon killed during a sync), old enough
    /// that no sync can still be waiting for them, are ours to clean up.
    private func removeAbandonedCookies(_ names: [ByteString]) {
        let ours = ByteString(".curatord-cookie-\(getpid())-")
        let now = Int64(time(nil))
        for name in names where !name.bytes.starts(with: ours.bytes) {
            let path = config.path.appending(name)
            guard let status = try? FileStatus.ifExists(path), status.isRegularFile,
                  now - status.mtimeNanoseconds / 1_000_000_000 > 600
            else { continue }
            if path.withCString({ SystemCalls.unlinkat(AT_FDCWD, $0, 0) }) == 0 { log.info("removed an abandoned sync cookie \(path)") }
        }
    }

    // MARK: walking and applying

    /// What the walk of a few folders found, with what it changes of the job and of
    /// the crawler, taken on the crawler's thread (`take`): a walk touches neither,
    /// so that two can run at once (one on the walker, one here).
    struct WalkedGroup: Sendable {
        var folders: [ScannedFolder] = []
        var outOfWatches = false
        /// Folders found below, to be read (pushed on the job's stack in this order).
        var subfolders: [ByteString] = []
        /// Folders listed.
        var listed: [ByteString] = []
        /// What the job keeps as unreadable: what is indexed below them is kept.
        var unreadable: [ByteString] = []
        /// The crawler's record of unreadable folders, in order (false: read fine).
        var readability: [(path: ByteString, unreadable: Bool)] = []
        /// Sync cookies in the root's listing.
        var cookies: [ByteString] = []
        var files = 0
    }

    /// The folders a walk takes next, off the job's stack (depth first).
    private func nextFolders(of job: ScanJob, limit: Int) -> [ByteString] {
        let count = min(max(limit, 1), job.pending.count)
        defer { job.pending.removeLast(count) }
        return job.pending.suffix(count).reversed()
    }

    /// Takes what a walk found into the job and the crawler (on the crawler's thread).
    private func take(_ group: WalkedGroup, into job: ScanJob) {
        job.pending += group.subfolders
        for path in group.listed { job.seenFolders.insert(path) }
        job.directories += group.listed.count
        job.files += group.files
        job.unreadable += group.unreadable
        job.cookies += group.cookies
        for (path, unreadable) in group.readability {
            if unreadable { noteUnreadable(path) } else { noteReadable(path) }
        }
        if group.outOfWatches { watching = false }
    }

    /// The crawler and the folders to walk, lent to the walker thread for one group.
    private struct WalkLoan: @unchecked Sendable {
        // @unchecked: a walk reads the crawler's root, configuration, filter and
        // watcher and the job's kind and `indexedFolders`, which nothing changes during
        // a scan step (the crawler's thread only applies hints and reconfigures between
        // steps), and changes nothing of them: what it finds comes back in its `WalkedGroup`.
        let crawler: Crawler
        let job: ScanJob
        let folders: [ByteString]
        let watching: Bool
    }

    private func walkAhead(_ folders: [ByteString], for job: ScanJob) -> JobHandle<WalkedGroup, Never>? {
        let loan = WalkLoan(crawler: self, job: job, folders: folders, watching: watching)
        if let handle = try? walker.submit({ loan.crawler.walk(loan.folders, for: loan.job, watching: loan.watching) }) {
            return handle
        }
        job.pending += folders.reversed()  // not handed out: walked here instead
        return nil
    }

    /// Opens `folders`, watches them in one request, then lists them: watch before read.
    private func walk(_ folders: [ByteString], for job: ScanJob) -> WalkedGroup {
        walk(folders, for: job, watching: watching)
    }

    private func walk(_ folders: [ByteString], for job: ScanJob, watching: Bool) -> WalkedGroup {
        var group = WalkedGroup()
        var opened: [OpenDirectory] = []
        guard let top = openPinnedRoot() else {
            // Not the folder it was (replaced, or gone): nothing is read through it; what is known is kept.
            for path in folders { markUnreadable(path, in: &group) }
            return group
        }
        for path in folders {
            if let directory = open(path, in: top, into: &group) { opened.append(directory) }
        }
        if watching && !opened.isEmpty {
            let outcomes = watcher.watch(opened.map {
                DirectoryToWatch(root: root, path: $0.path, descriptor: $0.descriptor, directory: $0.key)
            })
            for (directory, outcome) in zip(opened, outcomes) {
                switch outcome {
                case .outOfWatches:
                    group.outOfWatches = true
                case .failed(let errno) where errno != .noEntry && errno != .notDirectory:
                    log.warning("root \(name): cannot watch \(directory.path.lossyString): \(errno)")
                case .watched, .failed, .unavailable:
                    break
                }
            }
        }
        for directory in opened {
            if let folder = list(directory, for: job, into: &group) { group.folders.append(folder) }
        }
        return group
    }

    /// Applies what a walk found to the index, a bounded hold of the lock (and one
    /// transaction) at a time.
    private func apply(_ folders: [ScannedFolder], for job: ScanJob) {
        guard !folders.isEmpty else { return }
        let deferRemovals = job.isFull
        for hold in ScanHolds.group(folders, limit: photosPerLock, splitting: deferRemovals) {
            state.withUpdates { index in
                do {
                    // In place: the job alone holds its set, so nothing is copied.
                    try index.reconcile(root: root, folders: hold, deferRemovals: deferRemovals, coalesceAdded: job.coalescesAdded,
                                        adoptRenamed: job.adoptsRenamed, seen: &job.seenPhotos, arrivals: &job.arrivals)
                } catch {
                    let paths = hold.map { config.path.appending($0.path).lossyString }
                    log.error("cannot index \(paths.joined(separator: ", ")): \(error)")
                }
            }
        }
    }

    // MARK: one folder

    /// A folder opened for reading, not yet read.
    struct OpenDirectory {
        var path: ByteString
        var absolute: ByteString
        var descriptor: FileDescriptor
        var key: WatchTable.DirectoryKey
    }

    /// The root's folder, opened by its configured path (a symlink there is the
    /// administrator's) and used only if it is the folder the root was pinned to when
    /// it started (device and inode): a root renamed away and replaced (by a symlink
    /// to a folder its users may not read, say) is never crawled. Every folder of a
    /// walk is opened below this descriptor, so that the path is resolved once.
    private func openPinnedRoot() -> DirectoryHandle? {
        let top: DirectoryHandle
        let status: FileStatus
        do {
            top = try DirectoryHandle.open(config.path, followingSymlinks: true)
            status = try top.status()
        } catch {
            if error.errno != .noEntry { log.warning("cannot read \(config.path.lossyString): \(error.errno)") }
            return nil
        }
        if let pinned = pinnedRoot.withLock({ $0 }), pinned.inode != status.inode || pinned.device != status.device {
            log.warning("root \(name): another folder stands at \(config.path.lossyString) (renamed away and replaced?); not read")
            return nil
        }
        return top
    }

    /// Opens a folder of the job below the pinned root `top` (nil when it is gone or
    /// cannot be read: the reason is logged and what the index knows below it is kept).
    private func open(_ relative: ByteString, in top: DirectoryHandle, into group: inout WalkedGroup) -> OpenDirectory? {
        let absolute = config.path.appending(relative)
        let fd: FileDescriptor
        do {
            // Nothing below the root is followed.
            fd = relative.isEmpty ? try FileDescriptor.open(".", O_RDONLY | curator_O_DIRECTORY, relativeTo: top.descriptor)
                : try FileDescriptor.openDirectory(relative, relativeTo: top.descriptor)
        } catch {
            if error.errno != .noEntry && error.errno != .notDirectory && error.errno != .tooManyLinks {
                log.warning("cannot read \(absolute.lossyString): \(error.errno)")
                // Unreadable: keep what we knew of it rather than call it empty.
                markUnreadable(relative, in: &group)
            }
            return nil
        }
        do {
            let status = try FileStatus.of(descriptor: fd)
            return OpenDirectory(path: relative, absolute: absolute, descriptor: fd,
                                 key: WatchTable.DirectoryKey(device: status.device, inode: status.inode))
        } catch {
            log.warning("cannot stat \(absolute.lossyString): \(error)")
            markUnreadable(relative, in: &group)
            try? fd.close()
            return nil
        }
    }

    /// Lists an open (and watched) folder, stats its photos and queues its
    /// sub-folders; closes it. Nil when it cannot be listed (it is then kept as unreadable).
    private func list(_ directory: OpenDirectory, for job: ScanJob, into group: inout WalkedGroup) -> ScannedFolder? {
        defer { try? directory.descriptor.close() }
        let (relative, absolute, fd) = (directory.path, directory.absolute, directory.descriptor)
        let listing: DirectoryListing
        do {
            let dup = try FileDescriptor(rawValue: syscall("dup") { SystemCalls.dup(fd.rawValue) })
            listing = try DirectoryReader.listing(ofOpen: dup, path: absolute)
        } catch {
            log.warning("cannot list \(absolute.lossyString): \(error)")
            markUnreadable(relative, in: &group)
            return nil
        }
        group.readability.append((relative, false))
        group.listed.append(relative)
        // The photos (and sidecars) kept, in the listing's order.
        var kept: [KeptFile] = []
        // A name listed but not stat-able for another reason than being gone (EACCES
        // on a folder without search permission, EIO): the folder is kept as if
        // unreadable, so that what the index knew of that file is not removed.
        var unstatable = false
        let (files, groups) = listing.withNames { all in
            func status(of name: UnsafeBufferPointer<UInt8>) -> FileStatus? {
                do {
                    return try FileStatus.of(terminated: name, relativeTo: fd)
                } catch {
                    if error.errno != .noEntry && error.errno != .notDirectory {
                        let path = absolute.appending(ByteString(Array(name))).lossyString
                        log.warning("cannot stat \(path): \(error.errno); keeping what the index knew of it")
                        unstatable = true
                    }
                    return nil
                }
            }
            for (i, entry) in listing.entries.enumerated() {
                let name = DirectoryListing.name(of: entry, in: all)
                var kind = entry.kind
                var entryStatus: FileStatus?
                if kind == .unknown {
                    entryStatus = status(of: name)
                    if let s = entryStatus { kind = s.isDirectory ? .directory : s.isRegularFile ? .file : .other }
                }
                switch kind {
                case .directory:
                    let name = listing.name(i)
                    if !filter.skipsDirectory(name) { group.subfolders.append(relative.appending(name)) }
                case .file:
                    if relative.isEmpty && job.isFull && WatcherInbox.isCookie(name) { group.cookies.append(listing.name(i)) }
                    guard let type = filter.photoType(name) else { continue }
                    guard let s = entryStatus ?? status(of: name), s.isRegularFile else { continue }
                    kept.append(KeptFile(entry: Int32(i), status: s, type: type))
                default:
                    continue
                }
            }
            let plans = config.groups && job.indexedFolders?.contains(relative) == false
            guard plans else { return handOver(kept, plans: false) { DirectoryListing.name(of: listing.entries[Int(kept[$0].entry)], in: all) } }
            // A plan reads each name a few times: each found in the listing once.
            let names = kept.map { DirectoryListing.name(of: listing.entries[Int($0.entry)], in: all) }
            return names.withUnsafeBufferPointer { names in handOver(kept, plans: true) { names[$0] } }
        }
        if unstatable { group.unreadable.append(relative) }
        group.files += files.count
        return ScannedFolder(path: relative, files: files[...], complete: !unstatable, groups: groups)
    }

    /// A file `list` keeps: its entry in the listing, what it is.
    private struct KeptFile {
        var entry: Int32
        var status: FileStatus
        var type: PhotoType
    }

    /// The files `kept` (file `k` named `name(k)`, read in place) as the index takes
    /// them, each name copied out of the listing. Where `plans`, with the groups of
    /// the folder (new to the index), worked out here beside the index's work rather
    /// than after it under the lock (`FolderGroupPlan`), and the files in the plan's
    /// order (`inOrder`).
    private func handOver(_ kept: [KeptFile], plans: Bool,
                          name: (Int) -> UnsafeBufferPointer<UInt8>) -> (files: [ScannedFile], groups: FolderGroupPlan?) {
        func file(_ k: Int) -> ScannedFile { ScannedFile(name: ByteString(Array(name(k))), status: kept[k].status, type: kept[k].type) }
        guard plans && !kept.isEmpty else { return (kept.indices.map(file), nil) }
        let settings = GroupSettings(enabled: true, shown: config.groupShows)
        let plan = PhotoGrouping.noneCanGroup(kept.lazy.map(\.type))
            ? FolderGroupPlan(singles: kept.count, settings: settings, name: name)
            : FolderGroupPlan(count: kept.count, settings: settings, name: name)
        return (plan.order.map { file(Int($0)) }, plan.inOrder())
    }

    private func markUnreadable(_ relative: ByteString, in group: inout WalkedGroup) {
        group.unreadable.append(relative)
        group.readability.append((relative, true))
    }
}
