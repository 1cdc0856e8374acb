// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorStore
import CuratorSystem

/// Start-up recovery: for every batch a crash left unfinished, works out from the
/// disk where each photo stands (`RecoveryDecision`), repairs half-done steps, and
/// records the truth. Idempotent: a crash during recovery is recovered the same way.
final class BatchRecovery {
    private let journal: Journal
    private let failpoints: Failpoints
    private let observer = DiskObserver()
    private(set) var repairs: [String] = []
    private(set) var restored: [RestoredPhoto] = []
    /// For groups (issue 15) a crash left half in the trash: put back as an undo would.
    private let effectiveUID: UInt32
    private let helpers: WorkerPool?

    init(journal: Journal, failpoints: Failpoints, effectiveUID: UInt32 = 0, helpers: WorkerPool? = nil) {
        self.journal = journal
        self.failpoints = failpoints
        self.effectiveUID = effectiveUID
        self.helpers = helpers
    }

    func recoverAll() throws(BatchError) -> [BatchResult] {
        var results: [BatchResult] = []
        for batch in try journaling({ () throws(JournalError) in try journal.batchesNeedingRecovery() }) {
            var items = try journaling { () throws(JournalError) in try journal.items(of: batch.id) }
            for index in items.indices {
                items[index] = try settle(items[index], in: batch)
            }
            // A batch cut short between two files of a group: the group goes back whole.
            if batch.state == .running, let helpers, !GroupRollback.split(items).isEmpty {
                let requester = Requester.resolving(uid: batch.uid, gid: UserAccount.primaryGroup(uid: batch.uid) ?? batch.uid)
                let restorer = PhotoRestorer(journal: journal, failpoints: failpoints, requester: requester,
                                             effectiveUID: effectiveUID, batch: batch.id, helpers: helpers)
                let back = try GroupRollback(journal: journal, batch: batch.id, restorer: restorer).rollBack(&items)
                restored += back
                repairs += back.map { "batch \(batch.id) \($0.relativePath.lossyString): put back with its group" }
            }
            var state = batch.state == .running ? .interrupted : batch.state
            if batch.undoRunning { state = Self.stateAfterUndo(previous: state, items) }
            try journaling { () throws(SQLiteError) in try journal.setBatchState(batch.id, state, undoRunning: false) }
            log.notice("recovered batch \(batch.id): \(state.rawValue)")
            results.append(BatchRunner.batchResult(batch.id, state, items))
        }
        return results
    }

    /// The state of a batch after an undo (finished or interrupted) of it.
    static func stateAfterUndo(previous: BatchState, _ items: [JournalItem]) -> BatchState {
        let inTrash = items.contains { [.trashed, .intent, .restoring].contains($0.state) }
        let restored = items.contains { $0.state == .restored }
        if !restored { return previous }
        return inTrash ? .partlyUndone : .undone
    }

    /// Brings one photo to a settled state. Photos of a batch that was running are all
    /// looked at; in other batches only those caught mid-step.
    func settle(_ item: JournalItem, in batch: JournalBatch) throws(BatchError) -> JournalItem {
        let midStep = item.state == .intent || item.state == .restoring || item.state == .emptying
        guard midStep || (batch.state == .running && (item.state == .planned || item.state == .trashed)) else { return item }
        var item = item

        let look: DiskObserver.Observation
        do throws(SystemError) {
            look = try observer.observe(item)
        } catch {
            // Nothing can be decided now (a root offline, say): say so, and look again next time.
            log.error("recovery of batch \(batch.id) step \(item.step): \(error)")
            switch item.state {
            case .planned: return try record(&item, .skipped, .pending, "not attempted: the batch was interrupted", moved: false)
            case .trashed: return item
            default: return try record(&item, item.state, .error, "cannot be inspected: \(error.errno.name)", moved: false)
            }
        }
        // Where .trashinfo files cannot be written unnamed (no O_TMPFILE), a kill can
        // leave one under its partial name: never a .trashinfo, but clutter in info/.
        if item.state == .intent, let trash = look.trash, let name = item.trashName, (try? trash.removePartialInfo(name)) == true {
            repairs.append("batch \(batch.id) step \(item.step) \(item.relativePath.lossyString): removed a partial .trashinfo")
        }
        guard let decision = RecoveryDecision.decide(item.state, look.facts) else { return item }
        for repair in decision.repairs {
            do throws(SystemError) {
                try apply(repair, item, look, batch)
                repairs.append("batch \(batch.id) step \(item.step) \(item.relativePath.lossyString): \(repair)")
            } catch {
                log.error("recovery of batch \(batch.id) step \(item.step): \(repair): \(error)")
                return try record(&item, item.state, .error, "repair failed: \(error.errno.name)", moved: false)
            }
        }
        try failpoints.reach(.recoveryRepaired)
        if decision.state == .restored, let status = look.original {
            restored.append(item.restoredPhoto(at: status, byOtherTool: false, recreated: []))
        }
        return try record(&item, decision.state, decision.outcome, decision.detail, moved: decision.moved)
    }

    private func record(_ item: inout JournalItem, _ state: JournalItemState, _ outcome: PhotoOutcome, _ detail: String?,
                        moved: Bool) throws(BatchError) -> JournalItem {
        let current = item
        try journaling { () throws(SQLiteError) in
            try journal.recordItem(batch: current.batch, step: current.step, state: state, outcome: outcome, detail: detail, moved: moved)
        }
        item.state = state
        item.outcome = outcome
        item.detail = detail
        item.moved = item.moved || moved
        return item
    }

    private func apply(_ repair: RecoveryRepair, _ item: JournalItem, _ look: DiskObserver.Observation, _ batch: JournalBatch) throws(SystemError) {
        let missing = SystemError("recovery", path: item.relativePath.lossyString, errno: .invalid)
        switch repair {
        case .removeInfo:
            guard let trash = look.trash, let name = item.trashName else { throw missing }
            try trash.removeInfo(name)
        case .writeInfo, .replaceInfo:
            guard let trash = look.trash, let name = item.trashName, let infoPath = item.infoPath else { throw missing }
            if repair == .replaceInfo { try trash.removeInfo(name) }
            // The batch's own time: the best truth about when it was trashed.
            let date = LocalTime(epochSeconds: batch.createdNanoseconds / 1_000_000_000).trashInfoText
            _ = try trash.createInfo(name, TrashInfo(path: infoPath, deletionDate: date))
        case .unlinkOriginal:
            guard let path = item.photoPath else { throw missing }
            let (parent, _) = try path.openParent(from: try observer.roots.handle(path.root))
            // Only while it is still a second name of the photo itself.
            guard let status = try parent.status(of: path.name), item.identity.isSameFile(status) else { return }
            try parent.remove(path.name)
            try parent.sync()
        case .unlinkTrashFile:
            guard let trash = look.trash, let name = item.trashName else { throw missing }
            guard let status = try trash.files.status(of: name), item.identity.isSameFile(status) else { return }
            try trash.files.remove(name)
            try trash.files.sync()
        }
    }

    private func journaling<R, E: Error>(_ body: () throws(E) -> R) throws(BatchError) -> R {
        do {
            return try body()
        } catch {
            throw BatchError.journal(error)
        }
    }
}
