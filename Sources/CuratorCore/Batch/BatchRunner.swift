// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorStore
import CuratorSystem
import Glibc

/// The engine of confirmed deletes: runs a plan (photos to the freedesktop.org
/// trash), undoes a batch, recovers after a crash, lists history; every step is
/// journaled before it is taken (docs/JOURNAL.md).
///
/// One owner, one thread at a time: it holds a SQLite connection to the journal and
/// does blocking file system work, so call it from a dedicated thread or serial
/// executor, never from the cooperative pool. Several runners of one journal
/// (`another()`, each with its connection and helpers) carry out batches on
/// different roots at once; the daemon's per-root slots keep two of them off the
/// same root. Call `recover()` once at start-up, before serving anyone; `run` and
/// `undo` refuse to start while a batch that none of them is carrying out is still
/// recorded as running (a failed journal write left it to the next start).
public final class BatchRunner {
    let journal: Journal
    private let journalPath: String
    /// Empties the journal's WAL after each batch, undo and recovery, off this thread
    /// (one for every runner of the journal).
    let checkpointer: WALCheckpointer
    /// The batches the runners of this journal are carrying out now.
    let live: LiveBatches
    /// The threads a batch or an undo hands work to while it moves photos: the next
    /// chunk planned, `.trashinfo` files written ahead, syncs. At most three jobs
    /// run at once (the next chunk's plan, this chunk's infos, the last chunk's
    /// sync), so the same three threads serve every chunk of every batch, and end
    /// after a few idle seconds.
    let helpers = WorkerPool(name: "curatord-batch", threads: 3, queueLimit: 8, stackSize: 256 << 10, keepIdleSeconds: 5)
    private let trashConfiguration: TrashConfiguration
    let failpoints: Failpoints
    private let effectiveUID: UInt32
    private let chunking: ChunkPolicy

    /// Opens (creating if needed) the journal at `journalPath`, a file of its own in
    /// the state directory, never the index.
    public init(journalPath: String, trash: TrashConfiguration, failpoints: Failpoints = .shared,
                effectiveUID: UInt32 = geteuid(), chunkSize: Int? = nil) throws(BatchError) {
        do {
            journal = try Journal(path: journalPath)
        } catch {
            throw BatchError.journal(error, opening: true)
        }
        self.journalPath = journalPath
        checkpointer = WALCheckpointer(path: journalPath, durability: .full, what: "journal", threadName: "curatord-ckpt")
        live = LiveBatches()
        trashConfiguration = trash
        self.failpoints = failpoints
        self.effectiveUID = effectiveUID
        chunking = chunkSize.map(ChunkPolicy.fixed) ?? .configured
    }

    private init(sibling: BatchRunner) throws(BatchError) {
        do {
            journal = try Journal(path: sibling.journalPath, another: true)
        } catch {
            throw BatchError.journal(error, opening: true)
        }
        journalPath = sibling.journalPath
        checkpointer = sibling.checkpointer
        live = sibling.live
        trashConfiguration = sibling.trashConfiguration
        failpoints = sibling.failpoints
        effectiveUID = sibling.effectiveUID
        chunking = sibling.chunking
    }

    /// Another runner of the same journal, on a connection and helper threads of its
    /// own, for a batch that runs beside this one's (the journal was checked and
    /// recovered when this one opened it).
    public func another() throws(BatchError) -> BatchRunner { try BatchRunner(sibling: self) }

    // MARK: recovery

    /// Settles every batch (or undo) a crash left unfinished. Run before serving.
    public func recover() throws(BatchError) -> RecoveryReport {
        defer { checkpointer.request() }
        let recovery = BatchRecovery(journal: journal, failpoints: failpoints, effectiveUID: effectiveUID, helpers: helpers)
        let batches = try recovery.recoverAll()
        return RecoveryReport(batches: batches, restored: recovery.restored, repairs: recovery.repairs)
    }

    // MARK: running a batch

    /// Moves the plan's photos to the trash in the plan's order, a chunk at a time
    /// (`PhotoTrasher`), pipelined: chunk k+1 is journaled and moved while chunk k's
    /// sync runs, and chunk k's outcomes are committed once that sync returned.
    /// `progress` is called once per photo, after its outcome is journaled, so a
    /// chunk's photos are reported together once it is durable; `chunkReported` after
    /// each chunk's photos. `shouldStop` is asked before anything is journaled and
    /// between chunks, with nothing in flight (every photo so far journaled as done):
    /// when it says so, the batch goes no further and throws `.stopped`, saying where
    /// it stopped; the journal keeps it `running` for the next start's recovery.
    public func run(plan: BatchPlan, requester: Requester, progress: (BatchItemResult) -> Void = { _ in },
                    chunkReported: () -> Void = {}, shouldStop: () -> Bool = { false }) throws(BatchError) -> BatchOutcome {
        let started = MonotonicClock.nanoseconds()
        guard !plan.items.isEmpty else { throw BatchError(.invalidPlan, "the plan is empty") }
        guard Set(plan.items.map(\.photoID)).count == plan.items.count else {
            throw BatchError(.invalidPlan, "the plan names a photo twice")
        }
        guard plan.items.allSatisfy({ $0.rootPath.bytes.first == UInt8(ascii: "/") }) else {
            throw BatchError(.invalidPlan, "root paths must be absolute")
        }
        if shouldStop() { throw BatchError(.stopped, "curatord is stopping: the batch was not started; nothing was moved.") }
        let id = try live.start { (running) throws(BatchError) -> Int64 in
            try refuseWhileUnrecovered(live: running)
            do throws(BatchError) {
                return try journaling { () throws(SQLiteError) in
                    try journal.createBatch(uid: requester.uid, session: plan.session, createdNanoseconds: WallClock.nanoseconds(),
                                            items: plan.items)
                }
            } catch {
                throw BatchError(.journal, "The journal failed (\(error.journalDetail)): the batch was not started; nothing was moved.")
            }
        }
        defer {
            live.end(id)
            checkpointer.request()
        }
        try failpoints.reach(.batchJournaled)
        // Where a batch's time went, in its last log line: the serial start (the
        // journal, the first chunk planned inline) against the pipelined moves.
        var timeline = BatchTimeline(started: started)
        timeline.journaled = MonotonicClock.nanoseconds()
        log.info("batch \(id): \(plan.items.count) photos to the trash for uid \(requester.uid)")

        var recycleGroups: [String: UInt32] = [:]
        for item in plan.items { if let group = item.recycleGroup { recycleGroups[item.rootName] = group } }
        let planner = ChunkPlanner(trash: trashConfiguration, requester: requester, effectiveUID: effectiveUID, batch: id,
                                    batchSize: plan.items.count, recycleGroups: recycleGroups,
                                    ownerOnlyRoots: plan.ownerOnlyRoots, failpoints: failpoints)
        let trasher = PhotoTrasher(journal: journal, failpoints: failpoints, batch: id, helpers: helpers)
        let rollback = GroupRollback(journal: journal, batch: id, restorer: PhotoRestorer(
            journal: journal, failpoints: failpoints, requester: requester, effectiveUID: effectiveUID, batch: id, helpers: helpers))
        var done: [BatchItemResult] = []
        done.reserveCapacity(plan.items.count)
        // Each chunk's rows made where it is cut, not a whole plan's first and then
        // copied into chunks (20 ms of 15 001 files, the other core idle meanwhile).
        let items = plan.items
        let chunks = chunking.chunks(Array(items.indices), directory: { items[$0].rootPath.appending(items[$0].relativePath).parent },
                                     unit: { items[$0].unit })
            .map { chunk in chunk.map { (item: JournalItem.planned(batch: id, step: $0 + 1, items[$0]), isProtected: items[$0].isProtected) } }
        // Each chunk is prepared and journaled on a helper while the one before it
        // moves; the first, here.
        let context = ChunkPreparer.Context(planner: planner, journal: journal, batch: id, failpoints: failpoints, helpers: helpers)
        var preparing = chunks.first.map { ChunkPreparer(context, $0, inline: true) }
        defer { preparing?.abandon() }  // a batch that stops early waits for its helper and takes back its infos
        do {
            try Self.pipelined(chunks, shouldStop: shouldStop, stage: { (index, chunk) throws(BatchError) in
                let ready = try (preparing ?? ChunkPreparer(context, chunk, inline: true)).ready()
                if index == 0 { timeline.firstMove = MonotonicClock.nanoseconds() }
                preparing = index + 1 < chunks.count ? ChunkPreparer(context, chunks[index + 1], after: ready.ahead) : nil
                return try trasher.stage(ready)
            }, finish: { (_, staged) throws(BatchError) in
                let finishing = MonotonicClock.nanoseconds()
                defer { timeline.finishing += MonotonicClock.nanoseconds() - finishing }
                var results = try trasher.finish(staged)
                // A group whose last files failed their move goes back whole (a chunk holds whole groups).
                _ = try rollback.rollBack(&results)
                for item in results {
                    let result = item.result
                    done.append(result)
                    progress(result)
                }
                chunkReported()
            })
            try journaling { () throws(SQLiteError) in try journal.setBatchState(id, .done, undoRunning: false) }
        } catch {
            throw Self.partWay(error, "batch \(id)", recorded: done.count, of: plan.items.count,
                               moved: "in the trash", unmoved: "where it was")
        }
        try failpoints.reach(.batchFinished)
        let outcome = BatchOutcome(result: Self.batchResult(id, .done, results: done))
        log.info("batch \(id) done: \(outcome.result.trashed) trashed, \(outcome.result.skipped) skipped"
                 + timeline.summary(chunks: chunks.count, now: MonotonicClock.nanoseconds()))
        return outcome
    }

    /// The pipeline a batch and an undo share: chunk k is staged (journaled, moved,
    /// its sync started) before chunk k-1 is finished (its sync waited for, its
    /// outcomes committed and reported), so chunk k's moves overlap chunk k-1's sync.
    /// A stop asked for (`shouldStop`) is taken between chunks with nothing in
    /// flight, by throwing `.stopped`. When a chunk cannot be staged, the chunk before
    /// it is on disk: it is still finished (journaled) if the journal lets us, then
    /// the error goes on.
    private static func pipelined<Chunk, Staged>(
        _ chunks: [Chunk], shouldStop: () -> Bool,
        stage: (Int, Chunk) throws(BatchError) -> Staged, finish: (Chunk, Staged) throws(BatchError) -> Void
    ) throws(BatchError) {
        var inFlight: (chunk: Chunk, staged: Staged)?
        func finishInFlight() throws(BatchError) {
            guard let (chunk, staged) = inFlight else { return }
            inFlight = nil
            try finish(chunk, staged)
        }
        for (index, chunk) in chunks.enumerated() {
            if shouldStop() {
                try finishInFlight()
                throw BatchError(.stopped, "stopped between two steps")
            }
            let staged: Staged
            do {
                staged = try stage(index, chunk)
            } catch {
                try? finishInFlight()
                throw error
            }
            try finishInFlight()
            inFlight = (chunk, staged)
        }
        try finishInFlight()
    }

    /// A batch or undo that could not go on: the error says how far it got and what
    /// the disk holds, so that a client can believe it. `moved` and `unmoved` say
    /// where a photo is once its step was taken, and before.
    private static func partWay(_ error: BatchError, _ what: String, recorded: Int, of total: Int,
                                moved: String, unmoved: String) -> BatchError {
        switch error.code {
        case .stopped:
            log.notice("\(what) stopped for shutdown after \(recorded) of \(total) photos; the next start settles it")
            return BatchError(.stopped, "curatord is stopping: \(what) stopped after \(recorded) of its \(total) photos, between two "
                              + "steps; the others are untouched. The next start settles it from the journal (see history).")
        case .journal:
            return BatchError(.journal, "The journal failed (\(error.journalDetail)): \(what) stopped with \(recorded) of "
                              + "its \(total) photos recorded. Every photo is either \(moved) or \(unmoved); the next start of "
                              + "curatord settles \(what) from the disk, and until then no batch or undo can run.")
        default:
            return error
        }
    }

    // MARK: undo

    /// The batch `undo(batch:requester:)` would put back (the requester's latest
    /// undoable one when `batch` is nil) and the roots its photos are in, which the
    /// undo holds while it runs. Throws `noSuchBatch` as the undo would.
    public func undoTarget(batch: Int64?, requester: Requester) throws(BatchError) -> (batch: Int64, roots: Set<String>) {
        let found = try journaling { () throws(JournalError) -> JournalBatch? in
            if let batch { return try journal.batch(batch) }
            return try journal.latestUndoable(uid: requester.uid)
        }
        guard let target = found else {
            throw BatchError(.noSuchBatch, batch.map { "no batch \($0)" } ?? "no batch of uid \(requester.uid) to undo")
        }
        return (target.id, try journaling { () throws(JournalError) in try journal.rootNames(of: target.id) })
    }

    /// Puts a batch's photos back, in ascending view order (the reverse of trashing).
    /// `batch` nil means the requester's latest batch with photos still in the trash.
    /// Pipelined like `run`, with the same callbacks; `willRestore` is told which
    /// photos (root name, path in it) it is about to put back, in order (one
    /// `progress` each), before the first;
    /// `chunkReported` gets each chunk's photos back at their paths.
    public func undo(batch: Int64?, requester: Requester, progress: (BatchItemResult) -> Void = { _ in },
                     willRestore: ([(rootName: String, relativePath: ByteString)]) -> Void = { _ in },
                     chunkReported: ([RestoredPhoto]) -> Void = { _ in },
                     shouldStop: () -> Bool = { false }) throws(BatchError) -> UndoOutcome {
        try live.check { (running) throws(BatchError) in try refuseWhileUnrecovered(live: running) }
        if shouldStop() { throw BatchError(.stopped, "curatord is stopping: the undo was not started; nothing was moved.") }
        defer { checkpointer.request() }
        let found = try journaling { () throws(JournalError) -> JournalBatch? in
            if let batch { return try journal.batch(batch) }
            return try journal.latestUndoable(uid: requester.uid)
        }
        guard let target = found else {
            throw BatchError(.noSuchBatch, batch.map { "no batch \($0)" } ?? "no batch of uid \(requester.uid) to undo")
        }
        var items = try journaling { () throws(JournalError) in try journal.items(of: target.id) }
        // Someone else's batch: its user's photos are theirs to put back; the ones
        // it trashed of the requester's are the requester's (an owner's undo).
        let ownersOnly = target.uid == requester.uid || requester.uid == 0 ? nil : requester.uid
        if let owner = ownersOnly, !items.contains(where: { $0.owner == owner && $0.moved }) {
            throw BatchError(.notOwner, "batch \(target.id) belongs to uid \(target.uid) and trashed nothing of uid \(owner)")
        }
        // Photos a crash caught mid-step are settled first, as recovery would.
        if items.contains(where: { $0.state == .intent || $0.state == .restoring }) {
            let recovery = BatchRecovery(journal: journal, failpoints: failpoints)
            for index in items.indices { items[index] = try recovery.settle(items[index], in: target) }
        }
        let order = items.indices.filter { items[$0].state == .trashed && (ownersOnly == nil || items[$0].owner == ownersOnly) }
            .sorted { items[$0].step > items[$1].step }
        guard !order.isEmpty else {
            throw BatchError(.notUndoable, ownersOnly == nil ? "nothing of batch \(target.id) is in the trash"
                                                             : "nothing of uid \(requester.uid)'s in batch \(target.id) is in the trash")
        }

        _ = try live.start { (running) throws(BatchError) -> Int64 in
            // Another runner carrying this very batch out (the daemon's slots prevent
            // it; a direct caller might not).
            if running.contains(target.id) { throw BatchError(.recoveryPending, "batch \(target.id) is being carried out or undone") }
            try refuseWhileUnrecovered(live: running)
            try journaling { () throws(SQLiteError) in try journal.setBatchState(target.id, target.state, undoRunning: true) }
            return target.id
        }
        defer { live.end(target.id) }
        try failpoints.reach(.undoStarted)
        log.info("undo of batch \(target.id): \(order.count) photos back for uid \(requester.uid)")
        willRestore(order.map { (items[$0].rootName, items[$0].relativePath) })
        let restorer = PhotoRestorer(journal: journal, failpoints: failpoints, requester: requester,
                                     effectiveUID: effectiveUID, batch: target.id, helpers: helpers)
        var results: [BatchItemResult] = []
        var restored: [RestoredPhoto] = []
        let chunks = chunking.chunks(order) { items[$0].rootPath.appending(items[$0].relativePath).parent }
        var state = target.state
        do {
            try Self.pipelined(chunks, shouldStop: shouldStop, stage: { (_, chunk) throws(BatchError) in
                try restorer.stage(chunk: chunk.map { items[$0] })
            }, finish: { (chunk, staged) throws(BatchError) in
                var back: [RestoredPhoto] = []
                for (index, (item, photo)) in zip(chunk, try restorer.finish(staged)) {
                    items[index] = item
                    if let photo { back.append(photo) }
                    results.append(item.result)
                    progress(item.result)
                }
                restored += back
                chunkReported(back)
            })
            state = BatchRecovery.stateAfterUndo(previous: target.state, items)
            try journaling { () throws(SQLiteError) in try journal.setBatchState(target.id, state, undoRunning: false) }
        } catch {
            throw Self.partWay(error, "the undo of batch \(target.id)", recorded: results.count, of: order.count,
                               moved: "back at its path", unmoved: "still in the trash")
        }
        try failpoints.reach(.undoFinished)
        let result = UndoResult(batch: target.id, state: state, items: results,
                                restored: results.count { $0.outcome == .restored },
                                conflicts: results.count { $0.outcome == .conflict },
                                missing: results.count { $0.outcome == .missing })
        log.info("undo of batch \(target.id): \(result.restored) restored, \(result.conflicts) conflicts, \(result.missing) missing")
        return UndoOutcome(result: result, restored: restored)
    }

    // MARK: reading

    /// A user's batches (all users' when `uid` is nil), newest first. A user's
    /// history also holds the batches of others that trashed photos the user owned
    /// (`by_uid`), counted for those photos only: the owner sees who, when, which batch.
    public func history(uid: UInt32?, limit: Int = 50) throws(BatchError) -> [BatchSummary] {
        let limit = min(max(limit, 0), 10_000)
        return try journaling { () throws(JournalError) in
            let batches: [JournalBatch]
            if let uid {
                batches = try journal.recentBatches(involving: uid, limit: limit)
            } else {
                batches = try journal.recentBatches(uid: nil, limit: limit)
            }
            return try batches.map { (batch) throws(JournalError) in
                let others = uid.flatMap { $0 == batch.uid ? nil : $0 }
                let counts = try JournalError.sql { () throws(SQLiteError) in try journal.counts(of: batch.id, owner: others) }
                return BatchSummary(batch: batch.id,
                                    createdAt: LocalTime(epochSeconds: batch.createdNanoseconds / 1_000_000_000).rfc3339Text,
                                    state: batch.state, count: counts.count, photos: counts.photos.count, files: counts.count,
                                    trashed: counts.trashed,
                                    skipped: counts.count - counts.trashed, restored: counts.restored, bytes: counts.bytes,
                                    byUid: others == nil ? nil : batch.uid,
                                    byUser: others == nil ? nil : UserAccount.userName(uid: batch.uid),
                                    photosTrashed: counts.photos.trashed,
                                    photosRestored: counts.photos.restored)
            }
        }
    }

    /// A batch with the last recorded outcome of every photo.
    public func result(of batch: Int64) throws(BatchError) -> BatchResult {
        let found = try journaling { () throws(JournalError) in try journal.batch(batch) }
        guard let found else { throw BatchError(.noSuchBatch, "no batch \(batch)") }
        let items = try journaling { () throws(JournalError) in try journal.items(of: batch) }
        return Self.batchResult(batch, found.state, items)
    }

    /// Photos this daemon moved to the trash and that are still there (as journaled).
    func trashedPhotos() throws(BatchError) -> [Burial] {
        try journaling { () throws(SQLiteError) in try journal.trashedPhotos() }
    }

    /// Of the photos the journal records as back at their original paths, those
    /// `unindexed` says the index lost and that stand there now as pinned (same
    /// device, inode, size, mtime): a crash came between the move back and the
    /// indexing. Blocking (one lstat each): call before serving, outside the state lock.
    public func photosBackInPlace(unindexed: ([Int64]) -> Set<Int64>) throws(BatchError) -> [RestoredPhoto] {
        let items = try journaling { () throws(JournalError) in try journal.itemsBackOrGone() }
        let lost = unindexed(items.map(\.photoID))
        let roots = RootDirectories()
        var found: [Int64: RestoredPhoto] = [:]
        for item in items where lost.contains(item.photoID) {
            guard let path = item.photoPath, let status = try? roots.statusAtOriginalPath(path), status.isRegularFile,
                  item.identity.mismatch(status) == nil
            else { continue }
            found[item.photoID] = item.restoredPhoto(at: status, byOtherTool: false, recreated: [])
        }
        return found.values.sorted { $0.photoID < $1.photoID }
    }

    /// The owner of a batch, for the daemon's permission checks.
    public func owner(of batch: Int64) throws(BatchError) -> UInt32? {
        try journaling { () throws(JournalError) in try journal.batch(batch)?.uid }
    }

    // MARK: helpers

    static func batchResult(_ id: Int64, _ state: BatchState, _ items: [JournalItem]) -> BatchResult {
        batchResult(id, state, results: items.map(\.result))
    }

    static func batchResult(_ id: Int64, _ state: BatchState, results: [BatchItemResult]) -> BatchResult {
        var trashed = 0
        var bytes: Int64 = 0
        for result in results where result.outcome == .trashed {
            trashed += 1
            bytes += result.size
        }
        return BatchResult(batch: id, state: state, items: results, trashed: trashed, skipped: results.count - trashed, bytes: bytes)
    }

    /// Refuses while a batch that no runner is carrying out (`live`) is recorded as
    /// running: a crash or a failed journal write left it, and only the next start's
    /// recovery may settle it.
    func refuseWhileUnrecovered(live: Set<Int64>) throws(BatchError) {
        let left = try journaling { () throws(SQLiteError) in try journal.runningBatches() }.filter { !live.contains($0) }
        if let first = left.first {
            throw BatchError(.recoveryPending, "batch \(first) is still recorded as running: the next start of curatord must settle it first")
        }
    }

    func journaling<R, E: Error>(_ body: () throws(E) -> R) throws(BatchError) -> R {
        do {
            return try body()
        } catch {
            throw BatchError.journal(error)
        }
    }
}
