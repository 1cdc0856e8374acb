// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Synchronization

/// A batch's chunks applied to the state on a thread of their own, one after the
/// other in the batch's order: each chunk's photos leave the index and their owner
/// hears their outcomes while the batch thread renames the next chunk (done on the
/// batch thread, this was a tenth of its time). `finish()` waits for every chunk
/// handed over: the batch's end and its answer come after it.
final class ChunkReports: Sendable {
    private let worker = WorkerPool(name: "curatord-report", threads: 1, queueLimit: 64, stackSize: 512 << 10, keepIdleSeconds: 1)
    private let apply: @Sendable ([BatchItemResult]) -> Void
    /// The last chunk handed to the worker.
    private let last = Mutex<JobHandle<Void, Never>?>(nil)

    /// `apply` is called with each chunk's results, in order, never two at once.
    init(apply: @escaping @Sendable ([BatchItemResult]) -> Void) {
        self.apply = apply
    }

    /// Hands a chunk over; applies it here when the worker cannot be had (after
    /// waiting for the chunks before it, so that the order holds).
    func hand(_ chunk: [BatchItemResult]) {
        let apply = apply
        do throws(WorkerError) {
            let job = try worker.submit { apply(chunk) }
            last.withLock { $0 = job }
        } catch {
            log.warning("applying a batch's chunk on the batch thread: \(error)")
            finish()
            apply(chunk)
        }
    }

    /// Waits until every chunk handed over is applied.
    func finish() {
        _ = last.withLock { $0 }?.wait()
    }
}
