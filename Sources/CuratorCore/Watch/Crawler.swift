// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Synchronization

/// The crawler of one root: it takes the hints the inotify source left, looks at
/// the disk (`lstat`: the disk is the authority; only ENOENT and ENOTDIR mean gone),
/// pairs renames by cookie so that photos keep their ids, waits for files being
/// written, walks folders (watch before read) and brings the index in line in
/// locked steps through `IndexUpdates`. Its state is its root's alone, so that a
/// root's work can move to a thread of its own (a remote root must not stall the
/// others); today every crawler runs on the watcher thread.
final class Crawler {
    let root: Int32
    private(set) var config: RootConfig
    private(set) var filter: NameFilter
    /// True while inotify watches the root: folders are watched as they are read.
    var watching: Bool
    /// False while the root is offline or stopped: hints are dropped, no scan runs.
    private(set) var online = true
    /// True from the root's start (or return) until its first full scan is queued:
    /// that scan finds the whole root, and tells subscribers of it folder by folder.
    var firstScanDue = true

    let state: any WatcherStateLock
    let watcher: any DirectoryWatcher
    let moves: OwnMoves
    let sequence: WorkSequence

    /// How long a scan step reads folders before the watcher thread serves the rest.
    var sliceNanoseconds: UInt64 = 20_000_000
    /// How long a step may go on while nothing else waits for the thread that runs it
    /// (`runScanStep(othersWaiting:)`): what a hint, a command or another root's
    /// scan can wait at most when it arrives during a step is still about
    /// `sliceNanoseconds` (asked about once a group of folders past that); a timer, this long.
    var longestSliceNanoseconds: UInt64 = 100_000_000
    /// Folders opened and watched together (one round trip to the inotify source).
    var directoriesPerWatch = 16
    /// Folders a scan step walks on this thread before the walker takes over
    /// (`runScanStep`): a quarter of a group.
    var firstWalkOfStep: Int { max(directoriesPerWatch / 4, 1) }
    /// Folders the walker takes first in a step, while this thread walks and applies
    /// its own first few: half a group, so that it is done about when they are.
    /// A whole group kept this thread walking more of its own while it waited (a
    /// quarter of its time in a cold scan, where applying costs more than walking).
    var firstAheadOfStep: Int { max(directoriesPerWatch / 2, 1) }
    /// Photos a scan applies to the index per hold of the state lock (and per SQLite
    /// transaction): about 1-2 ms of work, so that a request waits little behind
    /// a scan, while the lock and the commit are paid per few hundred photos.
    var photosPerLock = 400
    /// How much of a full scan's end one hold of the lock takes: photos looked at,
    /// a removal counting as 16 (see `removeUnseen`).
    var finishBudgetPerLock = 16_384
    /// Folders not seen by a full scan dropped per hold of the lock.
    var foldersDroppedPerLock = 256
    /// The walker: lists and stats a scan's next folders while this crawler's thread
    /// applies the last ones (`runScanStep`). One thread with groups queued behind
    /// the one it walks, ended when idle; a crawler of its own, so that a hung share
    /// stalls no other root's scan.
    private(set) lazy var walker = WorkerPool(name: "curatord-walk", threads: 1, queueLimit: Self.groupsQueuedBehind,
                                              stackSize: 1 << 20, keepIdleSeconds: 2)
    /// Groups of folders queued on the walker behind the one it walks. Two, where one
    /// left the walker idle while this thread applied a long group and then walked
    /// beside it: a cold start of 100 000 photos with RAW+JPEG pairs and 10 923
    /// sidecars took 8 % less time (`bench/sched_cold_ab.py`), one without sidecars
    /// the same; three were no faster than two, and each lengthens a step's tail.
    static let groupsQueuedBehind = 2

    /// Scans waiting to run, oldest first; the first one runs.
    private(set) var scans: [ScanJob] = []
    /// MOVED_FROM halves waiting for their MOVED_TO, by cookie.
    private(set) var pendingMoves: [UInt32: PendingMove] = [:]
    /// Files created and not yet closed after writing, by path.
    private(set) var pendingCreates: [ByteString: PendingCreate] = [:]
    /// Folders that could not be read: a change of their mode (IN_ATTRIB) has them
    /// scanned again (`install -d -m 2755` makes a folder 0700 first, then chmods it).
    private(set) var unreadable = Set<ByteString>()

    /// A created file that sees no close-after-write is indexed once its size and
    /// mtime have stayed the same this long.
    static let createSettleNs: UInt64 = 2_000_000_000
    /// How long a MOVED_FROM waits for its MOVED_TO before it counts as a move out.
    static let moveSettleNs: UInt64 = 2_000_000
    /// Index steps applied under one lock.
    static let stepsPerLock = 128

    struct PendingMove {
        var path: ByteString
        var isDirectory: Bool
        /// The folder's, when its watch knew it (see `directoryMovedOut`).
        var identity: WatchTable.DirectoryKey? = nil
        var seenAt: UInt64
        var sequence: UInt64
    }

    struct PendingCreate {
        /// When size or mtime last changed (or the create was seen).
        var quietSince: UInt64
        var size: Int64
        var mtimeNs: Int64
    }

    /// One change to the index, decided from what the disk said.
    enum IndexStep {
        case appear(ByteString, ScannedFile)
        case vanish(ByteString)
        case move(from: ByteString, to: ByteString, ScannedFile)
        case folderMoved(from: ByteString, to: ByteString)
        case folderVanished(ByteString)
        /// A directory's mode, owner or ACL changed: who may read below it may have.
        case directoryAttributes(ByteString)
    }

    /// The root's folder (device and inode) when the supervisor started it: a walk
    /// reads through no other (`openPinnedRoot`). Read by the walker thread too.
    let pinnedRoot = Mutex<WatchTable.DirectoryKey?>(nil)

    init(root: Int32, config: RootConfig, watching: Bool, state: any WatcherStateLock, watcher: any DirectoryWatcher,
         moves: OwnMoves, sequence: WorkSequence) {
        self.root = root
        self.config = config
        self.filter = NameFilter(config)
        self.watching = watching
        self.state = state
        self.watcher = watcher
        self.moves = moves
        self.sequence = sequence
        pin()
    }

    /// Takes the root's folder as the supervisor recorded it (none yet: the first walk's).
    func pin() {
        let recorded = state.withUpdates { $0.watchedRoot(root) }
        pinnedRoot.withLock { $0 = recorded.flatMap { $0.inode == 0 ? nil : WatchTable.DirectoryKey(device: $0.device, inode: $0.inode) } }
    }

    var name: String { config.name }

    // MARK: life

    /// The root is (again) there, with these settings.
    func start(config: RootConfig, watching: Bool) {
        if config != self.config {
            self.config = config
            filter = NameFilter(config)
        }
        self.watching = watching
        online = true
        pin()
        firstScanDue = true
    }

    /// The root went offline or is stopped: its scans and waiting work are dropped
    /// (a return starts it afresh with a full scan).
    func stop() {
        online = false
        scans.removeAll()
        pendingMoves.removeAll()
        pendingCreates.removeAll()
        unreadable.removeAll()
    }

    /// Events were lost: unpaired halves are covered by the rescan, which finds
    /// renamed photos by inode.
    func forgetPendingMoves() {
        pendingMoves.removeAll()
    }

    /// The sequence number of the oldest scan or unpaired move still to be applied.
    var oldestOutstandingWork: UInt64? {
        let scan = scans.lazy.map(\.sequence).min()
        let move = pendingMoves.values.lazy.map(\.sequence).min()
        return [scan, move].compactMap { $0 }.min()
    }

    /// When the next timer of this root is due (a move or a create to settle).
    func nextDeadline(now: UInt64) -> UInt64? {
        var deadline: UInt64?
        if !pendingCreates.isEmpty { deadline = now + 250_000_000 }
        if let oldest = pendingMoves.values.map(\.seenAt).min() { deadline = min(deadline ?? .max, oldest + Self.moveSettleNs) }
        return deadline
    }

    // MARK: hints

    /// Looks at what the hints name, in their order, and applies what the disk says.
    /// (Cookies and root checks are the watcher's: it hands over what lies between.)
    func apply(_ hints: some Collection<Hint>) {
        guard online, !hints.isEmpty else { return }
        var steps: [IndexStep] = []
        let now = MonotonicClock.nanoseconds()
        for hint in hints where hint.root == root {
            switch hint.kind {
            case .path(let path, let flags):
                look(at: path, flags: flags, now: now, into: &steps)
            case .movedFrom(let path, let cookie, let isDirectory, let identity):
                pendingMoves[cookie] = PendingMove(path: path, isDirectory: isDirectory, identity: identity, seenAt: now,
                                                   sequence: sequence.next())
            case .movedTo(let path, let cookie, let isDirectory):
                if let from = pendingMoves.removeValue(forKey: cookie) {
                    moved(from, to: path, isDirectory: isDirectory, into: &steps)
                } else if isDirectory {
                    directoryArrived(path)
                } else if !moves.incoming.claim(WatchTable.Entry(rootID: root, path: path)) {
                    // (Claimed: a running undo's own move back, which it indexes itself.)
                    fileChanged(path, into: &steps)
                }
            case .cookie, .rootChanged:
                continue
            }
        }
        applySteps(steps)
    }

    /// Files a batch expected to move out and did not: looked at again.
    func recheck(_ paths: [ByteString]) {
        guard online else { return }
        var steps: [IndexStep] = []
        for path in paths { fileChanged(path, into: &steps) }
        applySteps(steps)
    }

    /// Settles the moves that found no partner in time and the quiet creates.
    func settle(now: UInt64) {
        guard online else { return }
        var steps: [IndexStep] = []
        if now > Self.moveSettleNs { settlePendingMoves(olderThan: now - Self.moveSettleNs, into: &steps) }
        settlePendingCreates(now: now, into: &steps)
        applySteps(steps)
    }

    private func look(at path: ByteString, flags: HintFlags, now: UInt64, into steps: inout [IndexStep]) {
        // A folder deleted, then one made at its name, is a folder of its own.
        if flags.contains(.directoryDeleted) { directoryGone(path, stillExists: false, into: &steps) }
        if flags.contains(.directoryAttributes) { steps.append(.directoryAttributes(path)) }
        if flags.contains(.directoryCreated) || (flags.contains(.directoryAttributes) && unreadable.contains(path)) {
            directoryArrived(path)
        }
        let file = flags.intersection(.file)
        if file.isEmpty { return }
        if file.contains(.awaitingClose) {
            // Indexed once written (close-write), not half-way.
            createSeen(path, now: now)
        } else if file == .attributes && pendingCreates[path] != nil {
            return
        } else {
            if !file.isDisjoint(with: [.written, .deleted]) { pendingCreates[path] = nil }
            fileChanged(path, into: &steps)
        }
    }

    /// Something happened at a file path: stat it and decide.
    private func fileChanged(_ path: ByteString, into steps: inout [IndexStep]) {
        let absolute = config.path.appending(path)
        guard let type = filter.photoType(path.lastComponent) else {
            // Renamed to a name that is not a photo's, or never one.
            steps.append(.vanish(path))
            return
        }
        let status: FileStatus?
        do {
            status = try FileStatus.ifExists(absolute)
        } catch {
            keepUnreadable(error)
            return
        }
        guard let status, status.isRegularFile else {
            // Gone, or replaced by a symlink or a directory.
            steps.append(.vanish(path))
            return
        }
        steps.append(.appear(path, ScannedFile(name: path.lastComponent, status: status, type: type)))
    }

    /// Only ENOENT and ENOTDIR say a file is gone. EACCES, EIO or ESTALE (a network
    /// share) say nothing of it: the index keeps what it knew, and the log says why,
    /// as a scan does for a folder it cannot read. A later event or scan settles it.
    private func keepUnreadable(_ error: SystemError) {
        log.warning("\(error); the index keeps what it knew of it")
    }

    private func moved(_ from: PendingMove, to: ByteString, isDirectory: Bool, into steps: inout [IndexStep]) {
        if isDirectory {
            // The inotify source has moved the watches below it already.
            movePendingCreates(from: from.path, to: to)
            steps.append(.folderMoved(from: from.path, to: to))
            // A name that is now excluded (or no longer) changes what is indexed.
            if to.components.contains(where: filter.skipsDirectory) {
                directoryGone(to, stillExists: true, into: &steps)
            } else {
                scheduleSubtreeScan(to)
            }
            return
        }
        // A file still being written keeps waiting for its close-write, under its new name.
        if let pending = pendingCreates.removeValue(forKey: from.path) {
            pendingCreates[to] = pending
            fileChanged(from.path, into: &steps)
            return
        }
        let absolute = config.path.appending(to)
        let type = filter.photoType(to.lastComponent)
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
            fileChanged(from.path, into: &steps)
            fileChanged(to, into: &steps)
            return
        }
        steps.append(.move(from: from.path, to: to, ScannedFile(name: to.lastComponent, status: status, type: type)))
    }

    /// MOVED_FROM halves that found no partner in time: those files and folders
    /// left the root (or went somewhere unwatched).
    private func settlePendingMoves(olderThan limit: UInt64, into steps: inout [IndexStep]) {
        guard !pendingMoves.isEmpty else { return }
        for (cookie, move) in pendingMoves.filter({ $0.value.seenAt <= limit }).sorted(by: { $0.value.sequence < $1.value.sequence }) {
            pendingMoves[cookie] = nil
            if move.isDirectory {
                directoryMovedOut(move, into: &steps)
            } else {
                pendingCreates[move.path] = nil
                // A running batch's own move out: it reports the photo itself.
                if moves.outgoing.claim(WatchTable.Entry(rootID: root, path: move.path)) { continue }
                fileChanged(move.path, into: &steps)
            }
        }
    }

    /// A folder moved out of the root, its half settled now: what stands at its path
    /// decides, not the order the halves came in. The very folder back there (moved
    /// out and straight back in) keeps its photos and watches, and the scan its
    /// return scheduled reads it again; otherwise its photos and watches go, and a
    /// folder that took its place is read afresh (its own scan went with them), in
    /// the move's place in the order, so that a `sync` waiting for the move waits
    /// for that read too.
    private func directoryMovedOut(_ move: PendingMove, into steps: inout [IndexStep]) {
        let status = try? FileStatus.ifExists(config.path.appending(move.path))
        let directoryThere = status.flatMap { $0.isDirectory ? WatchTable.DirectoryKey(device: $0.device, inode: $0.inode) : nil }
        if let directoryThere, directoryThere == move.identity { return }
        directoryGone(move.path, stillExists: true, into: &steps)
        if directoryThere != nil { directoryArrived(move.path, finishing: move.sequence) }
    }

    /// A file was created: it is indexed at its close-after-write, or, when none
    /// comes (hard links, mknod, a writer that never closes), once its size and
    /// mtime have stayed the same for a while. A slow writer keeps changing them.
    private func createSeen(_ path: ByteString, now: UInt64) {
        let status = try? FileStatus.ifExists(config.path.appending(path))
        pendingCreates[path] = PendingCreate(quietSince: now, size: status?.size ?? -1, mtimeNs: status?.mtimeNanoseconds ?? -1)
    }

    private func settlePendingCreates(now: UInt64, into steps: inout [IndexStep]) {
        guard !pendingCreates.isEmpty else { return }
        for (path, pending) in pendingCreates where now >= pending.quietSince + Self.createSettleNs {
            let status = try? FileStatus.ifExists(config.path.appending(path))
            if let status, status.size != pending.size || status.mtimeNanoseconds != pending.mtimeNs {
                pendingCreates[path] = PendingCreate(quietSince: now, size: status.size, mtimeNs: status.mtimeNanoseconds)
                continue
            }
            pendingCreates[path] = nil
            fileChanged(path, into: &steps)
        }
    }

    private func movePendingCreates(from: ByteString, to: ByteString) {
        let moving = pendingCreates.filter { $0.key.isWithin(from) }
        for (path, pending) in moving {
            pendingCreates[path] = nil
            pendingCreates[to.appending(path.relative(to: from))] = pending
        }
    }

    // MARK: folders

    /// A folder created or moved into the root: watched first, then read (a scan
    /// of its subtree), so that files written into it before its watch existed
    /// are not missed.
    func directoryArrived(_ path: ByteString, finishing number: UInt64? = nil) {
        if path.components.contains(where: filter.skipsDirectory) { return }
        scheduleSubtreeScan(path, finishing: number)
    }

    /// A folder deleted or moved out of the root: its watches and photos go.
    private func directoryGone(_ path: ByteString, stillExists: Bool, into steps: inout [IndexStep]) {
        // One moved out still exists and would keep reporting: its watches are
        // removed. (A deleted one's are dropped by the kernel: IN_IGNORED follows.)
        watcher.forget(root: root, below: path, unwatch: stillExists)
        if !pendingCreates.isEmpty { pendingCreates = pendingCreates.filter { !$0.key.isWithin(path) } }
        if !unreadable.isEmpty { unreadable = unreadable.filter { !$0.isWithin(path) } }
        scans.removeAll { job in
            guard case .subtree(let p) = job.kind else { return false }
            return p.isWithin(path)
        }
        steps.append(.folderVanished(path))
    }

    // MARK: the scan queue (Crawler+Scan.swift)

    func appendScan(_ job: ScanJob) { scans.append(job) }

    func removeScans(where shouldRemove: (ScanJob) -> Bool) { scans.removeAll(where: shouldRemove) }

    func noteUnreadable(_ path: ByteString) { unreadable.insert(path) }

    func noteReadable(_ path: ByteString) {
        if !unreadable.isEmpty { unreadable.remove(path) }
    }

    // MARK: applying

    /// The full scan running now, if any: what events show meanwhile counts as seen.
    private var runningFullScan: ScanJob? {
        guard let job = scans.first, job.isFull, job.started else { return nil }
        return job
    }

    /// Applies the steps in order, a bounded number per lock, so that `status` never
    /// waits long behind a burst. Each step is a transaction of its own, but for files
    /// arriving one after the other in one folder (a copy into it), which are one
    /// transaction together: a commit per file was a third of the watcher's time
    /// while 50 000 files were written (issue 14). A step that fails is rolled back
    /// alone (in memory too) and the others stand: arrivals whose transaction fails
    /// are tried again one by one.
    func applySteps(_ allSteps: [IndexStep]) {
        guard !allSteps.isEmpty else { return }
        let steps = Self.withoutStaleRemovals(allSteps)
        let scan = runningFullScan
        var start = steps.startIndex
        while start < steps.endIndex {
            let chunk = steps[start..<min(start + Self.stepsPerLock, steps.endIndex)]
            state.withUpdates { index in
                var next = chunk.startIndex
                while next < chunk.endIndex {
                    let arrivals = Self.arrivals(in: chunk[next...])
                    if arrivals.count > 1 {
                        applyArrivals(arrivals, to: index, scan: scan)
                        next += arrivals.count
                    } else {
                        apply(chunk[next], to: index, scan: scan)
                        next += 1
                    }
                }
            }
            start = chunk.endIndex
        }
    }

    /// The `appear` steps at the front of `steps` whose files are in one folder.
    static func arrivals(in steps: ArraySlice<IndexStep>) -> [(path: ByteString, file: ScannedFile)] {
        var run: [(path: ByteString, file: ScannedFile)] = []
        for step in steps {
            guard case .appear(let path, let file) = step, run.isEmpty || path.parent == run[0].path.parent else { break }
            run.append((path, file))
        }
        return run
    }

    /// Files that arrived in one folder, in one transaction; one by one when it fails.
    /// A file seen twice is indexed as its last look found it.
    private func applyArrivals(_ run: [(path: ByteString, file: ScannedFile)], to index: any IndexUpdates, scan: ScanJob?) {
        var last: [ByteString: Int] = [:]
        for (position, arrival) in run.enumerated() { last[arrival.path] = position }
        let files = run.indices.filter { last[run[$0].path] == $0 }.map { run[$0].file }
        do {
            try index.filesAppeared(root: root, directory: run[0].path.parent, files: files)
            for arrival in run { scan?.saw(arrival.path, photo: index.photoID(root: root, relativePath: arrival.path)) }
        } catch {
            for arrival in run { apply(.appear(arrival.path, arrival.file), to: index, scan: scan) }
        }
    }

    /// A file found gone because its folder was renamed after its event came is not
    /// gone: the rename, later in the same batch, takes it along with its id (and the
    /// folder's rescan that follows removes it if it really went).
    static func withoutStaleRemovals(_ steps: [IndexStep]) -> [IndexStep] {
        var renamedLater: [ByteString] = []
        var kept: [IndexStep] = []
        kept.reserveCapacity(steps.count)
        for step in steps.reversed() {
            switch step {
            case .folderMoved(let from, _):
                renamedLater.append(from)
            case .vanish(let path) where renamedLater.contains(where: { path.isWithin($0) }):
                continue
            default:
                break
            }
            kept.append(step)
        }
        return kept.reversed()
    }

    private func apply(_ step: IndexStep, to index: any IndexUpdates, scan: ScanJob?) {
        switch step {
        case .appear(let path, let file):
            do {
                try index.fileAppeared(root: root, directory: path.parent, file: file)
            } catch {
                log.error("cannot index \(config.path.appending(path).lossyString): \(error)")
            }
            // A full scan running now may have passed this folder already: what the
            // event showed is on disk, and its end must not remove it.
            scan?.saw(path, photo: index.photoID(root: root, relativePath: path))
        case .vanish(let path):
            do {
                try index.fileVanished(root: root, relativePath: path)
            } catch {
                log.error("cannot unindex \(config.path.appending(path).lossyString): \(error)")
            }
        case .move(let from, let to, let file):
            do {
                try index.fileMoved(root: root, from: from, toRoot: root, to: to, file: file)
            } catch {
                log.error("cannot record a move to \(config.path.appending(to).lossyString): \(error)")
            }
            scan?.saw(to, photo: index.photoID(root: root, relativePath: to))
        case .folderMoved(let from, let to):
            do {
                try index.folderMoved(root: root, from: from, to: to)
            } catch {
                log.error("cannot record a folder move: \(error)")
            }
            scan?.folderMoved(from: from, to: to)
        case .folderVanished(let path):
            do {
                try index.folderVanished(root: root, path: path)
            } catch {
                log.error("cannot unindex \(path.lossyString): \(error)")
            }
        case .directoryAttributes(let path):
            index.directoryAttributesChanged(root: root, path: path)
        }
    }
}

/// Numbers work (scans, unpaired moves) and sync cookies in the order they come,
/// across roots: a cookie is answered once nothing numbered before it is pending.
final class WorkSequence: Sendable {
    // Atomic: a remote root's crawler numbers its work on its lane's thread.
    private let last = Atomic<UInt64>(0)

    func next() -> UInt64 { last.wrappingAdd(1, ordering: .relaxed).newValue }

    /// The last number handed out.
    var current: UInt64 { last.load(ordering: .relaxed) }
}
