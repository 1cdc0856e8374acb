// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

extension CullApp {
    /// `d`: the plan of the selection (in select mode) or of the photo under the
    /// cursor (view mode, as a swipe deletes one), shown for a yes or no (seed 000).
    func prepareDelete() throws(CullError) {
        let fromSelection = mirror.mode == .select
        var ids: [Int64]?
        if !fromSelection {
            guard let id = data.id(at: cursor.position) else { return }
            ids = [id]
        } else if mirror.selection.count == 0 {
            say("Nothing is selected: Space selects the photo under the cursor.")
            return
        }
        try request(DeletePrepareRequest(session: session, ids: ids)) { [weak self] plan in
            guard let self else { return }
            self.overlay = .confirm(plan, fromSelection: fromSelection)
            self.writer.invalidate()
            self.dirty = true
        }
    }

    /// `y` to the plan: the batch goes, its progress shown until its answer.
    func confirmDelete(_ plan: DeletePlanResult, fromSelection: Bool) throws(CullError) {
        overlay = .progress(title: "Moving \(PhotoFileCount.plural(plan.count, "photo")) to the trash", done: 0,
                            total: plan.files ?? plan.count)
        try request(DeleteConfirmRequest(session: session, token: plan.token),
                    failed: { [weak self] in self?.closeOverlay() }) { [weak self] r in
            guard let self else { return }
            self.overlay = .none
            self.writer.invalidate()
            self.batches.moved(r.batch)
            if fromSelection { self.mirror.selectionTrashed() }
            // A group's files each have their result: photos and files counted apart, as the plan said them.
            let moved = PhotoFileCount(r.items.filter { $0.outcome == .trashed })
            let left = PhotoFileCount(r.items.filter { $0.outcome != .trashed })
            let skipped = left.files > 0 ? ", \(left.phrase) skipped (changed, gone or not yours)" : ""
            self.say("Batch \(r.batch): \(moved.phrase) moved to the trash (\(Self.bytes(r.bytes)))"
                     + skipped + ". Ctrl+Z puts them back.", warning: r.skipped > 0)
            self.scheduleShape(soon: true)
        }
    }

    /// `n` to the plan: nothing moves, and the daemon forgets the plan.
    func cancelDelete(_ plan: DeletePlanResult) throws(CullError) {
        overlay = .none
        writer.invalidate()
        try request(DeleteCancelRequest(session: session, token: plan.token)) { _ in }
        say("Nothing was moved.")
    }

    /// The yes to Ctrl+Z's question: batch `batch` back where it was.
    func undo(batch: Int64, _ asked: PhotoFileCount) throws(CullError) {
        overlay = .progress(title: "Putting \(asked.phrase) back", done: 0, total: asked.files)
        writer.invalidate()
        try request(UndoRequest(batch: batch),
                    failed: { [weak self] in self?.closeOverlay() }) { [weak self] r in
            guard let self else { return }
            self.overlay = .none
            self.writer.invalidate()
            let back = PhotoFileCount(r.items.filter { $0.outcome == .restored })
            var text = "Batch \(r.batch): \(back.phrase) put back"
            if r.conflicts > 0 { text += ", \(PhotoFileCount.plural(r.conflicts, "file")) left in the trash (a file stands at its path)" }
            if r.missing > 0 { text += ", \(PhotoFileCount.plural(r.missing, "file")) no longer in the trash" }
            self.say(text + ".", warning: r.conflicts + r.missing > 0)
            self.batches.putBack(r.batch)
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
