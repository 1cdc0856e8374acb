// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Synchronization

/// The journal's owner: `BatchRunner`s (each one SQLite connection, blocking file
/// work) lent one caller at a time, so that a long batch never holds the state lock,
/// and a batch hanging on an unresponsive share holds no one else's: batches on
/// other roots, undos, `history` and `trash.list` each take a runner of their own
/// (an idle one, or a new connection). Which roots may have a batch at once is the
/// state's business (`DeletePlans.busyRoots`), not this one's. The client thread
/// that confirmed a batch runs it; the state is updated per chunk through short
/// locked steps.
final class BatchService: Sendable {
    /// Runners kept open between uses: enough for a few batches at once; more are
    /// opened when needed and closed after use.
    static let idleKept = 4

    private let lock = Mutex<Void>(())
    /// Touched only inside `lock`; a runner taken out of it belongs to one caller
    /// until it is given back, so no two threads ever use one.
    private nonisolated(unsafe) var idle: [BatchRunner]
    /// The runner the others are made from (each shares its journal's path,
    /// checkpointer and live batches). It is lent like the others; `another()` reads
    /// only what it never changes, so it may be asked while another thread holds it.
    private nonisolated(unsafe) let first: BatchRunner

    init(runner: BatchRunner) {
        first = runner
        idle = [runner]
    }

    /// Lends `body` a runner of its own: an idle one, or one on a new connection.
    func withRunner<R>(_ body: (BatchRunner) throws(BatchError) -> R) throws(BatchError) -> R {
        let runner = try lock.withLock { (_) throws(BatchError) -> BatchRunner in
            if let runner = idle.popLast() { return runner }
            return try first.another()
        }
        defer {
            lock.withLock { _ in if idle.count < Self.idleKept { idle.append(runner) } }
        }
        return try body(runner)
    }
}
