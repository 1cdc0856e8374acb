// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials
import Glibc
import Synchronization

/// The daemon's state behind one lock, and the entry point for requests
/// (`answer`, which finds each command's handler in `CommandTable`).
/// `CuratorState` is the single owner of what changes; threads (watcher, capture
/// reader, client connections) reach it only through `withState`.
public final class Curator: Sendable {
    private let lock = StateLock()
    /// Touched only inside `lock` (see `withState`): that is what makes sharing it safe.
    private nonisolated(unsafe) let state: CuratorState
    let inbox: WatcherInbox
    let batches: BatchService
    let watcherReport = WatcherReport()
    /// What `status` says, published at the end of a hold of `lock` that changed it.
    let statusBoard = StatusBoard()
    let ownMoves = OwnMoves()
    /// Writes and removes `sync`'s cookie files: a cookie on a share whose server
    /// hangs holds one of these threads, never the client's, so that every
    /// `timeout_ms` is kept. Past 8 hung at once, syncs of such roots fail at once.
    let cookieWriters = WorkerPool(name: "curatord-cookie", threads: 8, stackSize: 256 << 10, keepIdleSeconds: 5)
    /// Reads the permissions of share roots' folders off the state lock
    /// (`FolderAccess`): one thread, so that a hung share holds that one and no more
    /// (room for one more job: one that ends as the next is asked for).
    let sharePermissionReader = WorkerPool(name: "curatord-perms", threads: 1, queueLimit: 1, stackSize: 256 << 10, keepIdleSeconds: 5)
    let startedAt = MonotonicClock.nanoseconds()
    private let stopping = Atomic<Bool>(false)
    /// The daemon's part of `reload`, once it has handed it over.
    private let reloaderSlot = Mutex<(any ConfigurationReloading)?>(nil)
    /// Rung when a client asks for a thumbnail (`ThumbnailScheduler` waits on it).
    let thumbnailDoorbell = Monitor(false)
    let thumbnailNote = Mutex<String?>(nil)
    /// Web passwords and the system gateway's sessions (`web.*` commands).
    let web = WebAuthority()

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
        statusBoard.publish(state.statusInputs) { state.statusSnapshot(uid: 0) }
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
            for burial in trashed { state.tombstones.bury(burial) }
            state.photosRestored(report.restored)
        }
        // Photos back at their paths before the crash, but killed before the index had
        // them: indexed now, under their former ids, before the scan would give new ones.
        let back = try batches.withRunner { (runner) throws(BatchError) in
            try runner.photosBackInPlace { ids in withState { state in Set(ids.filter { state.library.photo($0) == nil }) } }
        }
        withState { state in
            state.photosRestored(back)
        }
        return report
    }

    /// Runs `body` under the state lock; before letting go, publishes what
    /// `status` says of the state it leaves when that changed (also when `body`
    /// throws: a failed step rolls back, and the snapshot says so).
    func withState<R, E: Error>(_ body: (CuratorState) throws(E) -> R) throws(E) -> R {
        try lock.withLock { () throws(E) -> R in
            defer {
                statusBoard.publish(state.statusInputs) { state.statusSnapshot(uid: 0) }
                if state.access.startReading(), !startSharePermissionReader() { state.access.readerFailed() }
            }
            return try body(state)
        }
    }

    public var configuration: Configuration { withState { $0.config } }

    /// Photos in the index (for logs and readiness status).
    public var photoCount: Int { withState { $0.library.photos.count } }

    public var isScanning: Bool { withState { s in s.roots.values.contains { $0.scanning } } }

    /// Hands the daemon's part of the `reload` command over (`ReloadCommand`).
    public func handReloadsTo(_ reloader: any ConfigurationReloading) { reloaderSlot.withLock { $0 = reloader } }

    var reloader: (any ConfigurationReloading)? { reloaderSlot.withLock { $0 } }

    // MARK: clients

    public func clientConnected() { withState { $0.events.clientConnected() } }

    /// True once `sink` has subscribed (a subscriber is never idle).
    public func isSubscribed(_ sink: any EventSink) -> Bool { withState { $0.events.isSubscribed(sink) } }

    public func clientDisconnected(_ sink: (any EventSink)?) { withState { $0.events.clientDisconnected(sink) } }
}

// MARK: thumbnails

extension Curator {
    /// Wakes the thumbnail scheduler: a client asked for a photo's thumbnail.
    func ringThumbnailDoorbell() {
        thumbnailDoorbell.withLock { locked in
            locked.state = true
            locked.broadcast()
        }
    }

    /// Waits up to `seconds` for the doorbell, and answers it.
    func waitForThumbnailDoorbell(seconds: Double) {
        let deadline = Deadline.after(seconds: seconds)
        thumbnailDoorbell.withLock { locked in
            _ = locked.wait(until: deadline) { $0 }
            locked.state = false
        }
    }

    /// Why thumbnails are not being made, for `status`; nil when they are.
    func setThumbnailNote(_ note: String?) { thumbnailNote.withLock { $0 = note } }
    public func noteThumbnailsUnavailable(_ why: String) { setThumbnailNote(why) }
    var thumbnailStatusNote: String? { thumbnailNote.withLock { $0 } }
}
