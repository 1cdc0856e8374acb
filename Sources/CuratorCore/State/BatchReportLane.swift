// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Applies a running batch's chunk reports to the state (photos out of the index,
/// one `batch` event each) on a thread of its own, in the order they were reported,
/// while the batch thread goes on with the next chunk. Done on the batch thread,
/// each chunk's report held the moves up for the state lock and the index's
/// transaction (a tenth of a batch's time on its critical thread); here it runs
/// beside them. The batch's end waits for every report (`drain`) before it
/// finishes the batch in the state, so what a client sees at the answer is
/// unchanged. One per batch, used by the batch thread only.
final class BatchReportLane {
    private let lane = WorkerPool(name: "curatord-report", threads: 1, queueLimit: 64, stackSize: 1 << 20, keepIdleSeconds: 0)
    private var last: JobHandle<Void, Never>?

    /// Queues `report` after the ones before it; runs it here when no thread can be had.
    func apply(_ report: @escaping @Sendable () -> Void) {
        do throws(WorkerError) {
            last = try lane.submit(named: "curatord-report") { report() }
        } catch {
            drain()  // the ones queued before it first, then this one
            report()
        }
    }

    /// Waits until every report queued so far has been applied.
    func drain() {
        _ = last?.wait()
        last = nil
    }
}
