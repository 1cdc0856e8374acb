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
final class JournalCheckpointer: @unchecked Sendable {
    // @unchecked: `database` is opened and used only by the checkpoint thread, and
    // one runs at a time (`running`).
    private let path: String
    private var database: Database?
    private let running = Atomic<Bool>(false)
    private let again = Atomic<Bool>(false)
    /// Set once a checkpoint has run (tests wait on it).
    let passes = Atomic<Int>(0)

    init(path: String) {
        self.path = path
    }

    /// Asks for a checkpoint soon; one running now runs once more when it is done.
    func request() {
        again.store(true, ordering: .releasing)
        guard running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        do throws(SystemError) {
            try SystemThread.detach(name: "curatord-ckpt", stackSize: 256 << 10) { [self] in work() }
        } catch {
            running.store(false, ordering: .releasing)
            log.warning("journal checkpoint left to SQLite: \(error)")
        }
    }

    private func work() {
        while again.exchange(false, ordering: .acquiringAndReleasing) {
            do throws(SQLiteError) {
                if database == nil { database = try Database(path: path, durability: .full) }
                try database?.checkpointPassively()
            } catch {
                log.warning("journal checkpoint: \(error)")
            }
            passes.add(1, ordering: .releasing)
        }
        running.store(false, ordering: .releasing)
        // A request that came after the loop's last look but before `running` was
        // cleared found it still set: look once more.
        if again.load(ordering: .acquiring) { request() }
    }
}
