// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Removes the `.trashinfo` files of an undo chunk's photos as a job on a batch
/// helper, each once its photo is back at its path, while the undo thread moves the
/// next photos back: the two touch different directories (`info/` on one side, the
/// trash's `files/` and the photos' folders on the other), so on two cores they run
/// side by side. Removing an info is dearer than the move back (the file's last
/// link goes: its inode is freed and truncated, 38 % of the undo thread's time in a
/// profile of 15 001 files).
///
/// The order the journal relies on holds: an info is handed over only after its
/// photo's move back, and the chunk's sync (step 5 of an undo) starts only after
/// `finish`, once every info handed over is removed or failed. A crash in between
/// leaves photos back with their info still there, `restoring`: recovery removes
/// the info (docs/JOURNAL.md). The failpoint `undo.info_removed` is reached here,
/// after each removal; one that throws (in-process crash tests) stops the helper as
/// a kill would and is raised on the undo thread by `hand` or `finish`.
final class InfoRemoverBehind: Sendable {
    struct Removal: Sendable {
        /// The photo's index in its chunk.
        var index: Int
        var trash: TrashDirectory
        var name: ByteString
    }

    private struct Queue: Sendable {
        var waiting: [Removal] = []
        var closed = false
        var removed: [Removal] = []
        var failed: [(Removal, SystemError)] = []
        var failpoint: BatchError?
        var job: JobHandle<Void, Never>?
    }

    private let queue = Monitor(Queue())
    private let failpoints: Failpoints

    init(failpoints: Failpoints) {
        self.failpoints = failpoints
    }

    /// Starts the helper on `helpers`; false when no helper can be had (the undo
    /// thread then removes each info itself, as it always could).
    func start(on helpers: WorkerPool) -> Bool {
        let (queue, failpoints) = (queue, failpoints)
        do throws(WorkerError) {
            let job = try helpers.submit(named: "curatord-uninfo") { InfoRemoverBehind.remove(queue: queue, failpoints: failpoints) }
            queue.withLock { $0.state.job = job }
            return true
        } catch {
            log.warning("removing .trashinfo files on the undo thread: \(error)")
            return false
        }
    }

    /// The photo of `removal` is back at its path: its info may go.
    func hand(_ removal: Removal) throws(BatchError) {
        try queue.withLock { (locked) throws(BatchError) in
            if let fired = locked.state.failpoint { throw fired }
            locked.state.waiting.append(removal)
            locked.broadcast()
        }
    }

    /// Waits until every info handed over is removed (or failed to be) and says which.
    func finish() throws(BatchError) -> (removed: [Removal], failed: [(Removal, SystemError)]) {
        let job = queue.withLock { locked -> JobHandle<Void, Never>? in
            locked.state.closed = true
            locked.broadcast()
            return locked.state.job
        }
        _ = job?.wait()
        return try queue.withLock { (locked) throws(BatchError) in
            if let fired = locked.state.failpoint { throw fired }
            return (locked.state.removed, locked.state.failed)
        }
    }

    /// The helper's job: removes what is handed over, in order, until closed.
    private static func remove(queue: Monitor<Queue>, failpoints: Failpoints) {
        while true {
            let next: [Removal]? = queue.withLock { locked in
                locked.wait { $0.closed || !$0.waiting.isEmpty || $0.failpoint != nil }
                guard locked.state.failpoint == nil, !locked.state.waiting.isEmpty else { return nil }
                let taken = locked.state.waiting
                locked.state.waiting.removeAll(keepingCapacity: true)
                return taken
            }
            guard let next else { return }
            for removal in next {
                var failure: SystemError?
                do throws(SystemError) {
                    _ = try removal.trash.removeInfo(removal.name, synced: false)
                } catch {
                    failure = error
                }
                var fired: BatchError?
                if failure == nil {
                    do throws(BatchError) { try failpoints.reach(.undoInfoRemoved) } catch { fired = error }
                }
                let stop = queue.withLock { locked -> Bool in
                    if let failure { locked.state.failed.append((removal, failure)) } else { locked.state.removed.append(removal) }
                    if let fired { locked.state.failpoint = fired }
                    return fired != nil
                }
                if stop { return }
            }
        }
    }
}
