// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

extension CullApp {
    /// A key: what it means where the screen is (`KeyMap`), then done.
    func handle(_ key: Key) throws(CullError) {
        dirty = true
        // On the grid, a key takes the last message away.
        if case .none = overlay { status.clear() }
        try perform(KeyMap.action(for: key, in: overlay))
    }

    private func perform(_ action: CullAction) throws(CullError) {
        switch action {
        case .nothing: break
        case .quit: running = false
        case .redraw: writer.invalidate()
        case .step(let delta): cursor.move(to: cursor.position + delta, total: data.total)
        case .flip(let delta):
            cursor.move(to: cursor.position + delta, total: data.total)
            writer.invalidate()
        case .vertical(let delta): cursor.moveVertically(delta, in: currentLayout())
        case .page(let direction): cursor.movePage(direction, rows: visiblePhotoRows(), in: currentLayout(), total: data.total)
        case .first: cursor.move(to: 1, total: data.total)
        case .last: cursor.move(to: data.total, total: data.total)
        case .openDetail:
            if data.id(at: cursor.position) != nil { overlay = .detail; writer.invalidate() }
        case .closeOverlay: overlay = .none; writer.invalidate()
        case .help: overlay = .help
        case .switchMode: try switchMode()
        case .toggle: try toggleUnderCursor()
        case .delete: try prepareDelete()
        case .undo: try proposeUndo()
        case .mark(let mark): try self.mark(mark)
        case .toggleAdvance: say(marks.toggleAdvance())
        case .openPrompt: overlay = .prompt(FilterText.describe(data.view.filter))
        case .cycleSort: try cycleSort()
        case .reverseOrder: try reverseOrder()
        case .go(let move): try go(move)
        case .zoom(let delta):
            grid.zoom(by: delta)
            writer.invalidate()
        case .escapeHint:
            if mirror.mode == .select { say("v leaves select mode (it asks before it clears the selection); q quits.") }
        case .batchRunsHint: say("The batch is being carried out; its answer comes next.")
        case .confirmDelete:
            if case .confirm(let plan, let fromSelection) = overlay { try confirmDelete(plan, fromSelection: fromSelection) }
        case .cancelDelete:
            if case .confirm(let plan, _) = overlay { try cancelDelete(plan) }
        case .answerYes:
            if case .ask(let question) = overlay { try answerYes(question) }
        case .answerNo:
            if case .ask(let question) = overlay { answerNo(question) }
        case .editPrompt(let text): overlay = .prompt(text)
        case .cancelPrompt: overlay = .none
        case .submitFilter(let text):
            overlay = .none
            try setFilter(FilterText.parse(text))
        }
    }

    func visiblePhotoRows() -> Int { grid.visiblePhotoRows(screenRows: terminal.size().rows) }
}
