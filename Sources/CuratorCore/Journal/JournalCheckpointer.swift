// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorStore
import CuratorSystem
import Synchronization

/// Moves the journal's WAL into its main file on a thread and a connection of its
/// own, after each batch, undo and recovery. A batch of 10 000 photos writes about
/// 10 MB to the WAL; left to SQLite's automatic checkpoints (every 4 MB, on the
/// committing connection), two or three of them ran inside the batch, on the batch
/// thread, each copying and syncing megabytes. The journal's own connection now
/// checkpoints only past `Journal.autocheckpointPages` (a bound for giant batches).
///
/// A passive checkpoint never waits for, nor blocks, the batch thread; the WAL
/// file is then reused from its start by the next batch.
final class JournalCheckpointer: Sendable {
    private let path: String
    /// Opened by the first pass, kept for the next ones (passes run one at a time).
    private let connection = Mutex<Database?>(nil)
    /// One thread, and at most one pass waiting behind the one running: a request
    /// made while a pass waits is served by that pass, which has not started yet.
    private let worker = WorkerPool(name: "curatord-ckpt", threads: 1, queueLimit: 1, stackSize: 256 << 10, keepIdleSeconds: 5)
    /// Passes run so far (tests wait on it).
    let passes = Atomic<Int>(0)

    init(path: String) {
        self.path = path
    }

    /// Asks for a checkpoint soon; one running now runs once more when it is done.
    func request() {
        do throws(WorkerError) {
            try worker.submit(whenFull: .refuse) { [self] in checkpoint() }
        } catch {
            if case .full = error { return }  // a pass is waiting to start: it covers this request
            log.warning("journal checkpoint left to SQLite: \(error)")
        }
    }

    /// Runs `body` while passes cannot go on (they wait for the connection): for tests
    /// that need requests to meet a pass that is running or waiting, whatever the load.
    func holdingPasses(_ body: () -> Void) {
        connection.withLock { _ in body() }
    }

    private func checkpoint() {
        connection.withLock { database in
            do throws(SQLiteError) {
                if database == nil { database = try Database(path: path, durability: .full) }
                try database?.checkpointPassively()
            } catch {
                log.warning("journal checkpoint: \(error)")
            }
        }
        passes.add(1, ordering: .releasing)
    }
}
