// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

extension Curator {
    /// Takes the daemon's one batch slot for an undo or a `trash.empty` (a confirm
    /// takes it together with its plan's checks, under the same lock): one batch moves
    /// files at a time, so another is `batch_running`. Give it back with
    /// `releaseBatchSlot()` once the batch is over.
    func claimBatchSlot() throws(ProtocolError) {
        let running = try withState { (state) throws(ProtocolError) -> Bool in
            if isStopping { throw Curator.stoppingError }
            if state.plans.batchRunning { return true }
            state.plans.batchRunning = true
            return false
        }
        if running { throw ProtocolError(.batchRunning, "A batch is being carried out; try again when it is done.") }
    }

    func releaseBatchSlot() { withState { $0.plans.batchRunning = false } }
}
