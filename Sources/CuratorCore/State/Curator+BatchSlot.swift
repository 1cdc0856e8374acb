// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

extension Curator {
    /// Takes the slots of `roots` for an undo or a `trash.empty` (a confirm takes its
    /// plan's together with the plan's checks, under the same lock): one batch a root
    /// moves files at a time, so another on one of those roots is `batch_running`,
    /// naming it; batches on other roots run meanwhile. Give them back with
    /// `releaseBatchSlots(_:)` once the batch is over.
    func claimBatchSlots(_ roots: Set<String>) throws(ProtocolError) {
        try withState { (state) throws(ProtocolError) in
            if isStopping { throw Curator.stoppingError }
            if let busy = state.plans.claim(roots) { throw Self.busyError(busy) }
        }
    }

    func releaseBatchSlots(_ roots: Set<String>) { withState { $0.plans.release(roots) } }

    /// `batch_running` for a batch that needs `root`, which another holds.
    static func busyError(_ root: String) -> ProtocolError {
        ProtocolError(.batchRunning, "Another batch is being carried out on root \"\(root)\"; try again when it is done "
                      + "(batches on other roots are not held up).", root: root)
    }
}
