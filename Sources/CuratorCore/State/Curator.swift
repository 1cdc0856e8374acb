// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials
import Glibc
import Synchronization

/// Who is asking: the peer's credentials from SO_PEERCRED.
public typealias ClientContext = PeerCredentials

/// The daemon's state behind one lock, and the entry point for requests.
/// `CuratorState` is the single owner of what changes; threads (watcher, capture
/// reader, client connections) reach it only through `withState`.
public final class Curator: Sendable {
    private let lock = StateLock()
    /// Touched only inside `lock` (see `withState`): that is what makes sharing it safe.
    private nonisolated(unsafe) let state: CuratorState
    let inbox: WatcherInbox
    let batches: BatchService
    let watcherReport = WatcherReport()
    let outgoing = OutgoingMoves()
    let startedAt = MonotonicClock.nanoseconds()
    private let stopping = Atomic<Bool>(false)

    /// Set once shutdown begins; background threads finish their step and stop.
    public var isStopping: Bool { stopping.load(ordering: .acquiring) }
    func markStopping() { stopping.store(true, ordering: .releasing) }

    /// Opens (or creates) the index in the configuration's state directory.
    public init(config: Configuration) throws {
        let store = try IndexStore(path: config.stateDirectory.appending("index.sqlite").lossyString)
        let library = try PhotoLibrary(store: store)
        state = try CuratorState(config: config, library: library)
        inbox = try WatcherInbox()
        let trash = TrashConfiguration(homeTrash: config.homeTrash, homeTrashOwner: geteuid())
        batches = BatchService(runner: try BatchRunner(journalPath: config.stateDirectory.appending("journal.sqlite").lossyString,
                                                       trash: trash))
    }

    /// Settles whatever a crash left unfinished in the journal. Runs before the
    /// socket accepts anyone; afterwards photos still in the trash are remembered
    /// by inode, so that one restored by any means gets its former id.
    public func recoverJournal() throws -> RecoveryReport {
        let (report, trashed) = try batches.withRunner { (runner) throws(BatchError) in
            (try runner.recover(), try runner.trashedPhotos())
        }
        withState { state in
            // Also for photos the index still holds (a crash came before they were
            // unindexed): the scan drops them, and the tombstone brings the id back.
            for (id, identity) in trashed {
                state.tombstones[InodeKey(device: identity.device, inode: identity.inode)] = id
            }
            for restored in report.restored { state.photoRestored(restored) }
        }
        // Photos back at their paths before the crash, but killed before the index had
        // them: indexed now, under their former ids, before the scan would give new ones.
        let back = try batches.withRunner { (runner) throws(BatchError) in
            try runner.photosBackInPlace { ids in withState { state in Set(ids.filter { state.library.photo($0) == nil }) } }
        }
        withState { state in
            for restored in back { state.photoRestored(restored) }
        }
        return report
    }

    func withState<R, E: Error>(_ body: (CuratorState) throws(E) -> R) throws(E) -> R {
        try lock.withLock { () throws(E) -> R in try body(state) }
    }

    public var configuration: Configuration { withState { $0.config } }

    /// Photos in the index (for logs and readiness status).
    public var photoCount: Int { withState { $0.library.photos.count } }

    public var isScanning: Bool { withState { s in s.roots.values.contains { $0.scanning } } }

    // MARK: clients

    public func clientConnected() { withState { $0.clients += 1 } }
    /// True once `sink` has subscribed (a subscriber is never idle).
    public func isSubscribed(_ sink: any EventSink) -> Bool {
        withState { $0.subscribers[ObjectIdentifier(sink)] != nil }
    }

    public func clientDisconnected(_ sink: (any EventSink)?) {
        withState { state in
            state.clients -= 1
            if let sink { state.subscribers[ObjectIdentifier(sink)] = nil }
        }
    }

    // MARK: requests

    /// An answer as a connection sends it: a line, or a listing to write and send
    /// a piece at a time.
    public enum Answer: Sendable {
        case line([UInt8])
        case listing(ListingStream)
    }

    /// Handles one decoded request, as `handle` does, but leaves a listing to be
    /// written while it is sent, and hands the answer to `send`. A listing is handed
    /// over under the state lock, where events are published too: so the events of
    /// changes the listing does not show are queued after it, those it shows before it.
    public func answer(_ request: Request, client: ClientContext, sink: any EventSink, send: (Answer) -> Void) {
        guard case .list(let args) = request.command, !isStopping else { return send(.line(handle(request, client: client, sink: sink))) }
        do {
            try listing(args, id: request.id, client: client) { send(.listing($0)) }
        } catch {
            send(.line([UInt8](Wire.failure(id: request.id, error: error))))
        }
    }

    /// What a `list` request shows, taken under the lock and handed to `body` there;
    /// written after, outside it.
    private func listing<R>(_ args: ListRequest, id: RequestID?, client: ClientContext,
                            _ body: (ListingStream) -> R) throws(ProtocolError) -> R {
        let fields = try args.fields.map { (names) throws(ProtocolError) in try PhotoFields(names: names) } ?? .all
        return try withState { state throws(ProtocolError) in
            body(try state.listingStream(args, id: id, client: client, fields: fields))
        }
    }

    /// Handles one decoded request and returns the response line. Runs on the
    /// client's connection thread; the lock is held only while state is touched.
    public func handle(_ request: Request, client: ClientContext, sink: any EventSink) -> [UInt8] {
        // From SIGTERM on nothing new is started: the watcher, the index and the
        // journal are being closed under it.
        if isStopping { return [UInt8](Wire.failure(id: request.id, error: Self.stoppingError)) }
        // The client asking: the changes it makes are its answer, not events for it.
        let origin = ObjectIdentifier(sink)
        do {
            switch request.command {
            case .hello:
                return [UInt8](Wire.success(id: request.id, result: HelloResult(
                    server: ProtocolInfo.serverName, version: ProtocolInfo.serverVersion,
                    protocolVersion: ProtocolInfo.version, uid: client.uid)))
            case .status:
                return [UInt8](Wire.success(id: request.id, result: status()))
            case .list(let args):
                var stream = try listing(args, id: request.id, client: client) { $0 }
                return stream.line()
            case .subscribe(let args):
                try withState { state in try state.subscribe(args, sink: sink, uid: client.uid) }
                return [UInt8](Wire.success(id: request.id, result: SubscribeResult()))
            case .rescan(let args):
                let ids = try withState { state throws(ProtocolError) -> [Int32] in
                    if let name = args.root {
                        guard let id = state.rootID(named: name) else {
                            throw ProtocolError(.noSuchRoot, "There is no root named \"\(name)\".", argument: "root")
                        }
                        return [id]
                    }
                    return state.rootOrder
                }
                inbox.post(.rescan(ids))
                let names = withState { state in ids.map(state.rootName) }
                return [UInt8](Wire.success(id: request.id, result: RescanResult(roots: names)))
            case .sync(let args):
                return [UInt8](Wire.success(id: request.id, result: try sync(args)))
            case .reload:
                // Reading the configuration is the daemon's part (its command line, its
                // log level, systemd): its connections answer `reload` before it gets here.
                throw ProtocolError(.internalError, "this curatord cannot reload its configuration")
            case .view(let args):
                return try session(request) { state throws(ProtocolError) in try state.setView(args, uid: client.uid, origin: origin) }
            case .mode(let args):
                return try session(request) { state throws(ProtocolError) in try state.setMode(args, uid: client.uid, origin: origin) }
            case .select(let args):
                return try session(request) { state throws(ProtocolError) in try state.changeSelection(.select, args, uid: client.uid, origin: origin) }
            case .deselect(let args):
                return try session(request) { state throws(ProtocolError) in try state.changeSelection(.deselect, args, uid: client.uid, origin: origin) }
            case .toggle(let args):
                return try session(request) { state throws(ProtocolError) in try state.changeSelection(.toggle, args, uid: client.uid, origin: origin) }
            case .clear(let args):
                return try session(request) { state throws(ProtocolError) in try state.clearSelection(args, uid: client.uid, origin: origin) }
            case .selection(let args):
                return try session(request) { state throws(ProtocolError) in try state.selection(args, uid: client.uid) }
            case .reorder(let args):
                return try session(request) { state throws(ProtocolError) in try state.reorder(args, uid: client.uid) }
            case .deletePrepare(let args):
                return try session(request) { state throws(ProtocolError) in try state.prepareDelete(args, uid: client.uid) }
            case .deleteCancel(let args):
                return try session(request) { state throws(ProtocolError) in try state.cancelDelete(args, uid: client.uid) }
            case .deleteConfirm(let args):
                return [UInt8](Wire.success(id: request.id, result: try confirmDelete(args, client: client, origin: origin)))
            case .undo(let args):
                return [UInt8](Wire.success(id: request.id, result: try undo(args, client: client)))
            case .history(let args):
                let batches = try self.batches.withRunner { (runner) throws(BatchError) in
                    try runner.history(uid: client.uid, limit: args.limit ?? 50)
                }
                return [UInt8](Wire.success(id: request.id, result: HistoryResult(batches: batches)))
            }
        } catch let error as ProtocolError {
            return [UInt8](Wire.failure(id: request.id, error: error))
        } catch let error as BatchError {
            // The journal is the one file that cannot be rebuilt: its failure is said
            // in the log (once, here) as well as to the client.
            if error.code == .journal { log.error("\(request.command.name): \(error.message)") }
            return [UInt8](Wire.failure(id: request.id, error: error.protocolError))
        } catch {
            log.error("\(request.command.name) failed: \(error)")
            return [UInt8](Wire.failure(id: request.id, error: ProtocolError(.internalError, "\(error)")))
        }
    }

    /// Runs a session command under the lock and encodes its result there.
    private func session<R: Encodable>(_ request: Request, _ body: (CuratorState) throws(ProtocolError) -> R) throws(ProtocolError) -> [UInt8] {
        try withState { (state) throws(ProtocolError) -> [UInt8] in
            [UInt8](Wire.success(id: request.id, result: try body(state), encoder: state.encoder))
        }
    }

    func status() -> StatusResult {
        let watcher = watcherReport.snapshot
        return withState { state in
            let rootStatuses = state.rootOrder.compactMap { id -> RootStatus? in
                guard let r = state.roots[id] else { return nil }
                return RootStatus(
                    name: r.config.name, path: r.config.path.lossyString, watch: r.config.watch, watching: r.watchingDescription,
                    online: r.online, photos: state.library.countByRoot[id] ?? 0, bytes: state.library.bytesByRoot[id] ?? 0,
                    watches: r.watches, scanning: r.scanning, scanDirectories: r.scanDirectories, scanFiles: r.scanFiles,
                    capturePending: state.capturePendingCount(root: id), lastScanMs: r.lastScanMs, overflows: r.overflows,
                    rescans: r.rescans, note: r.note)
            }
            return StatusResult(
                version: ProtocolInfo.serverVersion, pid: getpid(),
                uptimeMs: Int64((MonotonicClock.nanoseconds() - startedAt) / 1_000_000), roots: rootStatuses,
                photos: state.library.photos.count, scanning: rootStatuses.contains { $0.scanning }, clients: state.clients,
                subscribers: state.subscribers.count, sessions: state.sessionCount, overflows: state.totalOverflows,
                rescans: state.totalRescans, batchRunning: state.batchRunning, indexWrites: state.library.storeWrites,
                inotify: state.roots.values.contains { $0.usesInotify } || watcher.restarts > 0
                    ? InotifyStatus(watches: watcher.watches, staleEntries: watcher.staleEntries, restarts: watcher.restarts) : nil)
        }
    }

    /// Runs a confirmed plan: photos to the trash in the plan's order, each one
    /// leaving the index as it goes, progress pushed to the owner's subscribers.
    func confirmDelete(_ args: DeleteConfirmRequest, client: ClientContext, origin: ObjectIdentifier? = nil) throws -> BatchResult {
        // Checked under the lock `beginStopping` takes: a batch is either known to a
        // stopping daemon (which waits for it to stop) or refused before anything is journaled.
        let plan = try withState { state throws(ProtocolError) in
            if isStopping { throw Self.stoppingError }
            return try state.takePlan(args, uid: client.uid)
        }
        var trashed: [Int64] = []
        let total = plan.items.count
        let requester = Requester.resolving(uid: client.uid, gid: client.gid)
        var pinned: [Int64: FileIdentity] = [:]
        for item in plan.items { pinned[item.photoID] = item.identity }
        let leaving = withState { state in
            let rootIDs = Dictionary(state.rootOrder.map { (state.rootName($0), $0) }, uniquingKeysWith: { first, _ in first })
            return plan.items.compactMap { item in
                rootIDs[item.rootName].map { (WatchTable.Entry(rootID: $0, path: item.relativePath), item.photoID) }
            }
        }
        outgoing.expect(leaving.map(\.0))
        defer {
            // Moves the watcher left to the batch that the batch did not make: looked at again.
            let skipped = outgoing.end()
            let gone = Set(trashed)
            let again = leaving.filter { skipped.contains($0.0) && !gone.contains($0.1) }.map(\.0)
            if !again.isEmpty { inbox.post(.recheck(again)) }
        }
        do {
            // A chunk's photos are applied to the state together: one lock, one index
            // transaction, one view invalidation per chunk rather than per photo.
            var reported: [BatchItemResult] = []
            let outcome = try batches.withRunner { (runner) throws(BatchError) in
                try runner.run(plan: BatchPlan(session: plan.key.name, items: plan.items), requester: requester,
                               progress: { reported.append($0) },
                               chunkReported: {
                                   let chunk = reported
                                   reported.removeAll(keepingCapacity: true)
                                   let gone = chunk.filter { $0.outcome == .trashed }.compactMap { item in
                                       pinned[item.id].map { (id: item.id, identity: $0) }
                                   }
                                   trashed += chunk.filter { $0.outcome == .trashed }.map(\.id)
                                   withState { state in
                                       state.photosTrashed(gone)
                                       for item in chunk {
                                           state.send(Event(event: .batch, photoId: item.id, state: "trashing", batch: nil, done: item.step,
                                                            total: total, outcome: item.outcome), toUID: client.uid)
                                       }
                                   }
                               },
                               shouldStop: { isStopping })
            }
            withState { state in
                state.finishBatch(plan, trashed: trashed, origin: origin)
                state.send(Event(event: .batch, state: outcome.result.state.rawValue, batch: outcome.result.batch,
                                           done: total, total: total), toUID: client.uid)
            }
            return outcome.result
        } catch {
            withState { state in state.finishBatch(plan, trashed: trashed, origin: origin) }
            throw error
        }
    }

    /// Puts a batch back (the caller's latest when none is named), then indexes
    /// the photos again under their former ids.
    func undo(_ args: UndoRequest, client: ClientContext) throws -> UndoResult {
        let requester = Requester.resolving(uid: client.uid, gid: client.gid)
        let running = try withState { state throws(ProtocolError) -> Bool in
            if isStopping { throw Self.stoppingError }
            if state.batchRunning { return true }
            state.batchRunning = true
            return false
        }
        if running { throw ProtocolError(.batchRunning, "A batch is being carried out; try again when it is done.") }
        defer { withState { $0.batchRunning = false } }
        // Told like a delete's: one event per photo with the total, then a last one.
        var total = 0
        var done = 0
        let outcome = try batches.withRunner { (runner) throws(BatchError) in
            var reported: [BatchItemResult] = []
            return try runner.undo(batch: args.batch, requester: requester,
                                   progress: { reported.append($0) },
                                   willRestore: { total = $0 },
                                   chunkReported: {
                                       let chunk = reported
                                       reported.removeAll(keepingCapacity: true)
                                       let first = done
                                       done += chunk.count
                                       withState { state in
                                           for (offset, item) in chunk.enumerated() {
                                               state.send(Event(event: .batch, photoId: item.id, state: "restoring", done: first + offset + 1,
                                                                total: total, outcome: item.outcome), toUID: client.uid)
                                           }
                                       }
                                   },
                                   shouldStop: { isStopping })
        }
        withState { state in
            for restored in outcome.restored { state.photoRestored(restored) }
            state.send(Event(event: .batch, state: outcome.result.state.rawValue, batch: outcome.result.batch, done: done, total: total),
                       toUID: client.uid)
        }
        return outcome.result
    }

    /// Read-your-writes: drop a cookie file in each root and wait until the watcher
    /// has seen it, so every event before it has been applied.
    func sync(_ args: SyncRequest) throws(ProtocolError) -> SyncResult {
        let started = MonotonicClock.nanoseconds()
        let targets = try withState { state throws(ProtocolError) -> [(id: Int32, path: ByteString, viaInotify: Bool)] in
            var ids = state.rootOrder
            if let name = args.root {
                guard let id = state.rootID(named: name) else {
                    throw ProtocolError(.noSuchRoot, "There is no root named \"\(name)\".", argument: "root")
                }
                ids = [id]
            }
            return ids.compactMap { id in
                guard let r = state.roots[id], r.online else { return nil }
                return (id, r.config.path, r.usesInotify)
            }
        }
        let timeout = Double(min(max(args.timeoutMs ?? 10_000, 1), 120_000)) / 1000
        var synced = true
        for (_, path, viaInotify) in targets where viaInotify {
            let name = inbox.makeCookieName()
            let waiter = inbox.register(cookie: name)
            let file = path.appending(name)
            do {
                let fd = try FileDescriptor.open(file, O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
                try fd.close(path: file.lossyString)
            } catch {
                inbox.unregister(cookie: name)
                throw ProtocolError(.internalError, "cannot write a sync cookie in \(path): \(error)")
            }
            let seen = waiter.wait(seconds: timeout)
            _ = file.withCString { SystemCalls.unlinkat(AT_FDCWD, $0, 0) }
            if !seen {
                inbox.unregister(cookie: name)
                synced = false
            }
        }
        // Polled roots: wait until their own running scan is over (another root's
        // scan, however long, is not theirs to wait for).
        let polled = targets.filter { !$0.viaInotify }.map(\.id)
        let pollRunning = { self.withState { state in polled.contains { state.roots[$0]?.scanning == true } } }
        let deadline = started + UInt64(timeout * 1e9)
        while !polled.isEmpty && pollRunning() && MonotonicClock.nanoseconds() < deadline {
            usleep(2000)
        }
        if !polled.isEmpty && pollRunning() { synced = false }
        return SyncResult(synced: synced, elapsedMs: Double(MonotonicClock.nanoseconds() - started) / 1e6)
    }
}

extension CuratorState {

    func capturePendingCount(root: Int32) -> Int {
        library.pendingCaptureByRoot[root] ?? 0
    }

    func subscribe(_ args: SubscribeRequest, sink: any EventSink, uid: UInt32) throws(ProtocolError) {
        var filter: Set<Int32>?
        if let names = args.roots {
            var ids = Set<Int32>()
            for name in names {
                guard let id = rootID(named: name) else {
                    throw ProtocolError(.noSuchRoot, "There is no root named \"\(name)\".", argument: "roots")
                }
                ids.insert(id)
            }
            filter = ids
        }
        var followed: Set<String>?
        if let names = args.sessions {
            followed = []
            for name in names {
                guard let valid = SessionKey.validate(name) else {
                    throw ProtocolError(.invalidArgument, "A session name is 1-64 letters, digits, '-', '_' or '.'.", argument: "sessions")
                }
                followed?.insert(valid)
            }
        }
        subscribers[ObjectIdentifier(sink)] = Subscriber(sink: sink, uid: uid, roots: filter, sessions: followed)
    }
}

extension Curator {
    /// A one-line summary for systemd's STATUS=.
    public func statusLine() -> String {
        withState { state in
            let scanning = state.rootOrder.compactMap { id -> String? in
                guard let r = state.roots[id], r.scanning else { return nil }
                return "\(r.config.name) \(r.scanFiles) files/\(r.scanDirectories) folders"
            }
            let offline = state.rootOrder.filter { state.roots[$0]?.online == false }.count
            var text = "\(state.library.photos.count) photos in \(state.rootOrder.count) root(s)"
            if !scanning.isEmpty { text += "; scanning " + scanning.joined(separator: ", ") }
            if offline > 0 { text += "; \(offline) offline" }
            text += "; \(state.clients) client(s)"
            return text
        }
    }

    /// Applies a new configuration (a reload): roots added, removed or changed,
    /// sessions and the index kept. With `seconds`, returns once the watcher has
    /// started, stopped or restarted the roots (false if it did not in that time:
    /// it will); without, as soon as the state has them.
    @discardableResult
    public func reconfigure(_ config: Configuration, waitingUpTo seconds: Double? = nil) throws -> Bool {
        try withState { state in
            try state.registerRoots(config.roots)
            state.config = config
            state.viewCache.invalidate()
            // Folders protected now: their photos leave every selection, with events.
            state.unselectProtected()
            state.flushSelections()
        }
        inbox.post(.reconfigure)
        guard let seconds else { return true }
        // The watcher takes its commands in order: the ping is answered after the roots are in hand.
        let applied = OneShotSignal()
        inbox.post(.ping(applied))
        return applied.wait(seconds: seconds)
    }

    /// Flushes the index to its main file on a clean stop.
    public func shutdown() {
        stopping.store(true, ordering: .releasing)
        withState { state in
            state.saveSessionUse()
            do {
                try state.library.storeForRoots.database.checkpoint()
            } catch {
                // Not fatal: SQLite replays the WAL at the next open.
                log.warning("could not checkpoint the index at shutdown: \(error)")
            }
        }
    }
}
