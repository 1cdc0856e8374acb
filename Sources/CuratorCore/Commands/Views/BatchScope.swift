// SPDX-License-Identifier: GPL-2.0-or-later

/// What the batch commands (`delete.confirm`, `undo`, `history`, `trash.list`,
/// `trash.empty`) may do: take a plan under the lock, hand batches to the
/// `BatchCoordinator`, and read the journal; not sessions or the watcher.
protocol BatchScope: AnyObject, Sendable {
    var isStopping: Bool { get }
    var configuration: Configuration { get }
    var batches: BatchService { get }
    var batchCoordinator: BatchCoordinator { get }
    /// Runs `body` under the state lock.
    func withPlans<R, E: Error>(_ body: (any PlanTakingScope) throws(E) -> R) throws(E) -> R
}

extension Curator: BatchScope {
    var batchCoordinator: BatchCoordinator { BatchCoordinator(curator: self) }

    func withPlans<R, E: Error>(_ body: (any PlanTakingScope) throws(E) -> R) throws(E) -> R {
        try withState { (state) throws(E) -> R in try body(state) }
    }
}

extension CuratorCommand where View == any BatchScope {
    static func view(of curator: Curator) -> any BatchScope { curator }
}
