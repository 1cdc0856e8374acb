// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Synchronization

/// Moves a database's WAL into its main file on a thread and a connection of its
/// own, so that the connection that writes never copies and syncs megabytes in
/// the middle of its work. SQLite's automatic checkpoint (every 4 MB, run by the
/// committing connection inside its commit) did that: in the journal two or three
/// times a batch of 10 000 photos, on the batch thread; in the index every 1 000
/// pages of a first scan, inside a hold of the state lock, where a request then
/// waited behind the copy and two syncs.
///
/// The journal asks after each batch, undo and recovery (its own connection
/// checkpoints only past `Journal.autocheckpointPages`, a bound for giant batches);
/// the index asks when its connection's WAL has grown (`IndexStore.commit`). A
/// passive checkpoint never waits for, nor blocks, the writer; the WAL file is
/// then reused from its start by the next write.
public final class WALCheckpointer: Sendable {
    private let path: String
    private let durability: Database.Durability
    /// What the database is, for the log.
    private let what: String
    /// Opened by the first pass, kept for the next ones (passes run one at a time);
    /// `closed` once `close` has run, when passes do nothing.
    private let connection = Mutex<(database: Database?, closed: Bool)>((nil, false))
    /// One thread, and at most one pass waiting behind the one running: a request
    /// made while a pass waits is served by that pass, which has not started yet.
    private let worker: WorkerPool
    /// Passes run so far (tests wait on it).
    public let passes = Atomic<Int>(0)

    /// `threadName`: at most 15 bytes (the kernel's limit on a thread's name).
    public init(path: String, durability: Database.Durability, what: String, threadName: String) {
        self.path = path
        self.durability = durability
        self.what = what
        worker = WorkerPool(name: threadName, threads: 1, queueLimit: 1, stackSize: 256 << 10, keepIdleSeconds: 5)
    }

    /// Asks for a checkpoint soon; one running now runs once more when it is done.
    public func request() {
        do throws(WorkerError) {
            try worker.submit(whenFull: .refuse) { [self] in checkpoint() }
        } catch {
            if case .full = error { return }  // a pass is waiting to start: it covers this request
            // Not run now: the journal's own connection checkpoints past its bound; the
            // index asks again as its WAL grows, and checkpoints inline past its bound.
            log.warning("\(what) checkpoint not started: \(error)")
        }
    }

    /// Runs `body` while passes cannot go on (they wait for the connection): for tests
    /// that need requests to meet a pass that is running or waiting, whatever the load.
    public func holdingPasses(_ body: () -> Void) {
        connection.withLock { _ in body() }
    }

    /// Waits for a pass that is running, closes the connection and makes every later
    /// pass do nothing: before the owner's own last checkpoint at shutdown, which
    /// SQLite refuses (`SQLITE_BUSY`) while another connection checkpoints.
    public func close() {
        connection.withLock { $0 = (nil, true) }
    }

    private func checkpoint() {
        connection.withLock { state in
            guard !state.closed else { return }
            do throws(SQLiteError) {
                if state.database == nil { state.database = try Database(path: path, durability: durability) }
                try state.database?.checkpointPassively()
            } catch {
                log.warning("\(what) checkpoint: \(error)")
            }
        }
        passes.add(1, ordering: .releasing)
    }
}
