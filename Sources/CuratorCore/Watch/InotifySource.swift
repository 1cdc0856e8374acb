// SPDX-License-Identifier: GPL-2.0-or-later
import CInotifyTools
import CLinux
import CuratorSystem
import Glibc
import Synchronization

/// The inotify source: the one thread that calls libinotifytools (process-global,
/// not reentrant), owner of the watch table. It reads every queued event as soon
/// as it can and turns it into hints in `hints`; it stats nothing and never takes
/// the state lock, so the kernel queue drains at the rate events come (watchman's
/// `watcher/inotify.cpp` in front of its crawler). Watches are set, dropped and
/// restarted here too, on the crawler's and the supervisor's request.
final class InotifySource: DirectoryWatcher, @unchecked Sendable {
    // @unchecked: `tools` and `translator` are touched only by the source thread
    // once `start` has run (before, only by the thread that made the source); the
    // rest is Sendable and is how other threads reach it.
    private var tools: InotifyTools?
    private var translator = InotifyTranslator()
    private var reportIsStale = true

    let hints: PendingHints
    let report: WatcherReport
    private let moves: OwnMoves
    private let requests = Mutex<[Request]>([])
    private let wakeDescriptor: Int32
    private let wakeError: Errno?
    private let available: Atomic<Bool>
    /// The source thread: one long job; `stop` waits for its handle.
    private let thread = WorkerPool(name: "curatord-inotify", threads: 1, stackSize: 512 << 10, keepIdleSeconds: 0)
    private let loop = Mutex<JobHandle<Void, Never>?>(nil)

    /// Events read at a time before requests are looked at again.
    static let burstLimit = 4096
    /// How long events gather before they are read while a batch moves photos out (or an undo back):
    /// their events come by the thousand, each a wake-up on the cores the batch needs.
    static let batchCoalesceMicroseconds: UInt32 = 4000
    /// A request not answered in this time finds the source gone (a bug): the caller
    /// goes on as if inotify were unavailable rather than hang the watcher thread.
    static let answerTimeoutSeconds = 30.0

    private enum Request: Sendable {
        case watch([DirectoryToWatch], Reply<[WatchOutcome]>)
        case forget(root: Int32, below: ByteString, unwatch: Bool)
        case unwatchRoot(Int32)
        case flush(Reply<Bool>)
        case restart(Reply<Result<Int, SystemError>>)
        case ping(OneShotSignal)
        case stop
    }

    /// `tools` nil: inotify could not be started; every request answers so.
    init(tools: InotifyTools?, hints: PendingHints, report: WatcherReport, moves: OwnMoves) {
        self.tools = tools
        self.hints = hints
        self.report = report
        self.moves = moves
        available = Atomic(tools != nil)
        // Checked in `start`, which reports the failure.
        wakeDescriptor = SystemCalls.eventfd()
        wakeError = wakeDescriptor < 0 ? .current : nil
    }

    deinit {
        if wakeDescriptor >= 0 { _ = SystemCalls.close(wakeDescriptor) }
    }

    /// False once inotify is gone (never started, or a restart failed).
    var isAvailable: Bool { available.load(ordering: .acquiring) }

    func start() throws(WorkerError) {
        // Without its wake-up descriptor the thread could not be told anything.
        if let wakeError { throw .cannotStartThread(pool: "curatord-inotify", SystemError("eventfd", errno: wakeError)) }
        let job = try thread.submit { [self] in run() }
        loop.withLock { $0 = job }
    }

    /// Stops the thread and waits for it, up to `seconds`.
    @discardableResult
    func stop(waitingUpTo seconds: Double) -> Bool {
        post(.stop)
        guard let job = loop.withLock({ $0 }) else { return true }
        return job.wait(until: .after(seconds: seconds)) != nil
    }

    // MARK: requests (any thread)

    func watch(_ directories: [DirectoryToWatch]) -> [WatchOutcome] {
        guard !directories.isEmpty else { return [] }
        guard isAvailable else { return directories.map { _ in .unavailable } }
        let reply = Reply<[WatchOutcome]>()
        post(.watch(directories, reply))
        return reply.wait(seconds: Self.answerTimeoutSeconds) ?? directories.map { _ in .unavailable }
    }

    func forget(root: Int32, below path: ByteString, unwatch: Bool) {
        post(.forget(root: root, below: path, unwatch: unwatch))
    }

    func unwatch(root: Int32) {
        post(.unwatchRoot(root))
    }

    func watchCount(root: Int32) -> Int { report.snapshot.watchesByRoot[root] ?? 0 }

    /// Returns once every event the kernel had queued when it was called is in `hints`.
    func flush() {
        guard isAvailable else { return }
        let reply = Reply<Bool>()
        post(.flush(reply))
        _ = reply.wait(seconds: Self.answerTimeoutSeconds)
    }

    /// Closes the library's inotify instance and opens a new one, which frees the
    /// entries it keeps for watches the kernel dropped (it cannot forget them
    /// itself). Every watch is gone afterwards: the caller rescans. Returns how many
    /// stale entries were shed, or why inotify could not be started again (it is
    /// then unavailable for good).
    func restart() -> Result<Int, SystemError> {
        let reply = Reply<Result<Int, SystemError>>()
        post(.restart(reply))
        return reply.wait(seconds: Self.answerTimeoutSeconds)
            ?? .failure(SystemError("inotifytools_initialize", errno: .busy))
    }

    /// Signals `probe` from the source thread: proof for the systemd watchdog that it
    /// still turns (a source stuck in the library would leave every change unseen).
    func ping(_ probe: OneShotSignal) {
        post(.ping(probe))
    }

    private func post(_ request: Request) {
        requests.withLock { $0.append(request) }
        var one: UInt64 = 1
        _ = SystemCalls.write(wakeDescriptor, &one, 8)
    }

    // MARK: the thread

    private func run() {
        while true {
            let todo = requests.withLock { list in
                let taken = list
                list.removeAll()
                return taken
            }
            for request in todo {
                if case .stop = request { return }
                handle(request)
            }
            publishReport()
            // Events left in the library's own buffer do not make the descriptor readable.
            if let tools, tools.mayHoldBufferedEvents {
                readBurst()
                continue
            }
            var fds = [pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)]
            if let tools { fds.append(pollfd(fd: tools.descriptor, events: Int16(POLLIN), revents: 0)) }
            if SystemCalls.poll(&fds, nfds_t(fds.count), -1) <= 0 { continue }
            if fds[0].revents != 0 {
                var value: UInt64 = 0
                _ = SystemCalls.read(wakeDescriptor, &value, 8)
            }
            if fds.count > 1 && fds[1].revents != 0 {
                if moves.isExpecting { usleep(Self.batchCoalesceMicroseconds) }
                readBurst()
            }
        }
    }

    private func handle(_ request: Request) {
        switch request {
        case .watch(let directories, let reply):
            reply.fulfil(watchNow(directories))
        case .forget(let root, let path, let unwatch):
            for (wd, _) in translator.table.subtree(root: root, path: path) {
                translator.table.remove(wd: wd)
                if unwatch { tools?.unwatch(wd) }
            }
            reportIsStale = true
        case .unwatchRoot(let root):
            for wd in translator.table.removeRoot(root) { tools?.unwatch(wd) }
            reportIsStale = true
        case .flush(let reply):
            readAll()
            reply.fulfil(true)
        case .restart(let reply):
            reply.fulfil(restartNow())
        case .ping(let probe):
            probe.signal()
        case .stop:
            break
        }
    }

    private func watchNow(_ directories: [DirectoryToWatch]) -> [WatchOutcome] {
        guard let tools else { return directories.map { _ in .unavailable } }
        reportIsStale = true
        // The crawler reads the watch counts once answered.
        defer { publishReport() }
        var outOfWatches = Set<Int32>()
        return directories.map { request in
            // (`translator.table` is read in place: a copy held while it changes below
            // would copy the whole table per watch.)
            if let wd = translator.table.wd(root: request.root, path: request.path),
               translator.table.directory(wd) == request.directory {
                return .watched
            }
            // One ENOSPC is enough: the root is polled from now on.
            if outOfWatches.contains(request.root) { return .outOfWatches }
            switch tools.watch(request.descriptor) {
            case .success(let wd):
                // Another watch at this path was for a directory since replaced.
                if let superseded = translator.table.insert(wd: wd, root: request.root, path: request.path,
                                                            directory: request.directory) {
                    tools.unwatch(superseded)
                }
                return .watched
            case .failure(let errno) where errno == .noSpace:
                outOfWatches.insert(request.root)
                return .outOfWatches
            case .failure(let errno):
                return .failed(errno)
            }
        }
    }

    /// Reads what the kernel has queued, up to `burstLimit` events, into `hints`.
    /// Returns false when the queue was found empty.
    @discardableResult
    private func readBurst() -> Bool {
        guard let tools else { return false }
        var out: [Hint] = []
        var lost: String?
        var read = 0
        let now = MonotonicClock.nanoseconds()
        while read < Self.burstLimit, let event = tools.nextEvent() {
            read += 1
            switch translator.translate(event, now: now) {
            case .hint(let hint):
                out.append(hint)
            case .overflow:
                // Everything queued before an overflow is moot: the rescan it triggers
                // reads the disk afresh (and finds renamed photos by their inode).
                out.removeAll()
                lost = "inotify queue overflow"
            case .watchDropped(let wd, let hint):
                // The kernel dropped the watch; the library cannot forget its entry.
                tools.forget(wd)
                reportIsStale = true
                if let hint { out.append(hint) }
            case .nothing:
                break
            }
        }
        hints.add(out, lostBefore: lost)
        if reportIsStale { publishReport() }
        return read == Self.burstLimit
    }

    /// Reads until the kernel queue is empty (bounded, in case it never is).
    private func readAll() {
        for _ in 0..<1000 {
            if !readBurst() { return }
        }
    }

    private func restartNow() -> Result<Int, SystemError> {
        guard let tools else { return .failure(SystemError("inotifytools_initialize", errno: .badDescriptor)) }
        // Whatever is queued on the old descriptor (and in the library's buffer) goes
        // into `hints` first: reading until nil also empties that buffer, which would
        // otherwise leak old events into the new instance.
        readAll()
        let stale = tools.staleEntries
        // The library frees every entry itself; ours go with them.
        translator.reset()
        reportIsStale = true
        defer { publishReport() }
        do {
            try tools.reinitialize()
            return .success(stale)
        } catch {
            // The library is not initialised now: it must not be called again.
            self.tools = nil
            available.store(false, ordering: .releasing)
            return .failure(error)
        }
    }

    private func publishReport() {
        guard reportIsStale else { return }
        reportIsStale = false
        let (watches, byRoot) = (translator.table.count, translator.table.countsByRoot)
        let (stale, restarts) = (tools?.staleEntries ?? 0, tools?.reinitializations ?? 0)
        report.update { snapshot in
            snapshot.staleEntries = stale
            snapshot.restarts = max(snapshot.restarts, restarts)
            snapshot.watches = watches
            snapshot.watchesByRoot = byRoot
        }
    }
}

/// One answer, handed from the source thread to the thread waiting for it.
private final class Reply<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    private let done = OneShotSignal()

    func fulfil(_ answer: Value) {
        value.withLock { $0 = answer }
        done.signal()
    }

    /// The answer, or nil when none came in `seconds`.
    func wait(seconds: Double) -> Value? {
        guard done.wait(seconds: seconds) else { return nil }
        return value.withLock { $0 }
    }
}
