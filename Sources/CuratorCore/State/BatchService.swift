// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Synchronization

/// The journal's owner: the `BatchRunner` (one SQLite connection, blocking file
/// work) behind a lock of its own, so a long batch never holds the state lock. The
/// client thread that confirmed a batch runs it; the state is updated per photo
/// through short locked steps.
final class BatchService: Sendable {
    private let lock = Mutex<Void>(())
    /// Touched only inside `lock`.
    private nonisolated(unsafe) let runner: BatchRunner

    init(runner: BatchRunner) { self.runner = runner }

    func withRunner<R, E: Error>(_ body: (BatchRunner) throws(E) -> R) throws(E) -> R {
        try lock.withLock { (_) throws(E) -> R in try body(runner) }
    }
}
