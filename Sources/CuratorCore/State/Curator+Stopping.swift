// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Glibc

extension Curator {
    /// What every request gets once the daemon is stopping.
    public static let stoppingError = ProtocolError(.shuttingDown, "curatord is stopping; try again once it has started again.")
    /// What a connection closed at shutdown is told.
    public static let stoppingNotice = ProtocolError(.shuttingDown, "curatord is stopping; this connection is closed.")

    /// SIGTERM's first step: background work finishes the step it is in and goes
    /// no further, and requests are answered `shutting_down`. Each batch or undo stops
    /// between two chunks, each fully journaled, answers its client, and is left to
    /// the journal's recovery at the next start. Taken under the state lock, so that
    /// a confirm either started its batch before (and is waited for) or is refused.
    public func beginStopping() { withState { _ in markStopping() } }

    /// Waits until no batch, undo or emptying runs on any root: none did, or each
    /// has stopped between two steps (or finished). False when `seconds` pass first
    /// (a batch hanging on an unresponsive share: its journal settles it at the next
    /// start, as after a crash).
    public func waitForBatchToStop(seconds: Double) -> Bool {
        let deadline = MonotonicClock.nanoseconds() + UInt64(seconds * 1e9)
        while withState({ $0.plans.batchRunning }) {
            if MonotonicClock.nanoseconds() >= deadline { return false }
            usleep(5_000)
        }
        return true
    }

    /// Flushes the index to its main file on a clean stop.
    public func shutdown() {
        markStopping()
        withState { state in
            state.sessions.saveUse()
            let store = state.library.storeForRoots
            // A pass of its own (a scan just finished asks for one) would make SQLite
            // refuse this checkpoint: it is waited for, and no other starts.
            store.checkpointer.close()
            do {
                try store.database.checkpoint()
            } catch {
                // Not fatal: SQLite replays the WAL at the next open.
                log.warning("could not checkpoint the index at shutdown: \(error)")
            }
        }
    }
}
