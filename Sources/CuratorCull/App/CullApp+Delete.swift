// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

extension CullApp {
    /// `d`: the plan of the selection (in select mode) or of the photo under the
    /// cursor (view mode, as a swipe deletes one), shown for a yes or no (seed 000).
    func prepareDelete() throws(CullError) {
        let fromSelection = mode == .select
        var ids: [Int64]?
        if !fromSelection {
            guard let id = data.id(at: cursor) else { return }
            ids = [id]
        } else if selection.count == 0 {
            say("Nothing is selected: Space selects the photo under the cursor.")
            return
        }
        try request(.deletePrepare(DeletePrepareRequest(session: session, ids: ids)), as: DeletePlanResult.self) { [weak self] plan in
            guard let self else { return }
            self.overlay = .confirm(plan, fromSelection: fromSelection)
            self.writer.invalidate()
            self.dirty = true
        }
    }

    func confirmKey(_ key: Key, _ plan: DeletePlanResult, fromSelection: Bool) throws(CullError) {
        switch key {
        case .character("y"), .character("Y"):
            overlay = .progress(title: "Moving \(plan.count) photo\(plan.count == 1 ? "" : "s") to the trash", done: 0, total: plan.count)
            try request(.deleteConfirm(DeleteConfirmRequest(session: session, token: plan.token)), as: BatchResult.self,
                        failed: { [weak self] in self?.closeOverlay() }) { [weak self] r in
                guard let self else { return }
                self.overlay = .none
                self.writer.invalidate()
                self.lastBatch = r.batch
                if fromSelection {
                    // The confirm leaves select mode with an empty selection (no event for our own).
                    self.mode = .view
                    self.selection.replace(with: [])
                    self.selectedBytes = 0
                    self.hiddenSelected = 0
                }
                let skipped = r.skipped > 0 ? ", \(r.skipped) skipped (changed, gone or not yours)" : ""
                self.say("Batch \(r.batch): \(r.trashed) photo\(r.trashed == 1 ? "" : "s") moved to the trash (\(Self.bytes(r.bytes)))"
                         + skipped + ". u puts them back.", warning: r.skipped > 0)
                self.scheduleShape(soon: true)
            }
        case .character("n"), .character("N"), .escape, .character("q"), .control("c"):
            overlay = .none
            writer.invalidate()
            try request(.deleteCancel(DeleteCancelRequest(session: session, token: plan.token)), as: DeleteCancelResult.self) { _ in }
            say("Nothing was moved.")
        default:
            break
        }
    }

    /// `u`: the last batch of this grid back where it was (else the user's latest).
    func undoLastBatch() throws(CullError) {
        overlay = .progress(title: "Putting photos back", done: 0, total: 0)
        writer.invalidate()
        try request(.undo(UndoRequest(batch: lastBatch)), as: UndoResult.self,
                    failed: { [weak self] in self?.closeOverlay() }) { [weak self] r in
            guard let self else { return }
            self.overlay = .none
            self.writer.invalidate()
            var text = "Batch \(r.batch): \(r.restored) photo\(r.restored == 1 ? "" : "s") put back"
            if r.conflicts > 0 { text += ", \(r.conflicts) left in the trash (a file stands at its path)" }
            if r.missing > 0 { text += ", \(r.missing) no longer in the trash" }
            self.say(text + ".", warning: r.conflicts + r.missing > 0)
            self.lastBatch = nil
            self.scheduleShape(soon: true)
        }
    }

    func closeOverlay() {
        overlay = .none
        writer.invalidate()
        dirty = true
    }

    /// 12.4 MB, as people read sizes.
    static func bytes(_ n: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(n)
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        if unit == 0 { return "\(n) B" }
        let tenths = Int((value * 10).rounded())
        return value < 10 ? "\(tenths / 10).\(tenths % 10) \(units[unit])" : "\(Int(value.rounded())) \(units[unit])"
    }
}
