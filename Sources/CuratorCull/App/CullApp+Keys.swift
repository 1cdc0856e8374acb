// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

extension CullApp {
    func handle(_ key: Key) throws(CullError) {
        dirty = true
        switch overlay {
        case .none: try gridKey(key)
        case .detail: try detailKey(key)
        case .confirm(let plan, let fromSelection): try confirmKey(key, plan, fromSelection: fromSelection)
        case .progress:
            // A batch runs to its end (the daemon's journal makes it safe to quit, but
            // the grid waits for the answer to show it).
            if key == .control("c") || key == .character("q") { say("The batch is being carried out; its answer comes next.") }
        case .prompt(let text): try promptKey(key, text)
        case .help: overlay = .none; writer.invalidate()
        case .ask(let question): try askKey(key, question)
        }
    }

    private func gridKey(_ key: Key) throws(CullError) {
        status = nil
        switch key {
        case .character("q"), .control("c"): running = false
        case .control("z"): try proposeUndo()
        case .control("l"): writer.invalidate()
        case .left, .character("h"): moveCursor(to: cursor - 1)
        case .right, .character("l"): moveCursor(to: cursor + 1)
        case .up, .character("k"): moveVertically(-1)
        case .down, .character("j"): moveVertically(1)
        case .pageDown, .control("f"), .control("d"): movePage(1)
        case .pageUp, .control("b"), .control("u"): movePage(-1)
        case .home, .character("g"): moveCursor(to: 1)
        case .end, .character("G"): moveCursor(to: data.total)
        case .enter:
            if data.id(at: cursor) != nil { overlay = .detail; writer.invalidate() }
        case .character("v"): try switchMode()
        case .space: try toggleUnderCursor()
        case .character("d"): try prepareDelete()
        case .character("p"), .character("P"): try mark(.flag("pick"))
        case .character("x"), .character("X"): try mark(.flag("reject"))
        case .character("u"), .character("U"): try mark(.flag("none"))
        case .character(let c) where c.isASCII && c.isNumber: try mark(digit: c)
        case .character("a"), .character("A"): toggleAdvance()
        case .character("/"): overlay = .prompt(FilterText.describe(data.view.filter))
        case .character("s"): try cycleSort()
        case .character("r"): try reverseOrder()
        case .character("o"): try go(.openCursorFolder)
        case .character("]"): try go(.sibling(1))
        case .character("["): try go(.sibling(-1))
        case .backspace: try go(.widen)
        case .character("+"), .character("="): zoom = min(zoom + 1, CellGeometry.levels.count - 1); layoutCache = nil; writer.invalidate()
        case .character("-"), .character("_"): zoom = max(zoom - 1, 0); layoutCache = nil; writer.invalidate()
        case .character("?"): overlay = .help
        case .escape:
            if mode == .select { say("v leaves select mode (it asks before it clears the selection); q quits.") }
        default: break
        }
    }

    private func detailKey(_ key: Key) throws(CullError) {
        switch key {
        case .escape, .enter, .character("q"), .backspace: overlay = .none; writer.invalidate()
        case .control("c"): running = false
        case .left, .character("h"), .up, .character("k"): moveCursor(to: cursor - 1); writer.invalidate()
        case .right, .character("l"), .down, .character("j"): moveCursor(to: cursor + 1); writer.invalidate()
        case .space: try toggleUnderCursor()
        case .character("v"): try switchMode()
        case .character("p"), .character("P"): try mark(.flag("pick"))
        case .character("x"), .character("X"): try mark(.flag("reject"))
        case .character("u"), .character("U"): try mark(.flag("none"))
        case .character(let c) where c.isASCII && c.isNumber: try mark(digit: c)
        case .character("a"), .character("A"): toggleAdvance()
        default: break
        }
    }

    private func promptKey(_ key: Key, _ text: String) throws(CullError) {
        switch key {
        case .escape, .control("c"), .control("g"): overlay = .none
        case .enter:
            overlay = .none
            try setFilter(FilterText.parse(text))
        case .backspace: overlay = .prompt(String(text.dropLast()))
        case .control("u"): overlay = .prompt("")
        case .space: overlay = .prompt(text + " ")
        case .character(let c): overlay = .prompt(text + String(c))
        default: break
        }
    }

    // MARK: the cursor

    func moveCursor(to position: Int) {
        guard data.total > 0 else { return }
        cursor = min(max(position, 1), data.total)
    }

    func moveVertically(_ delta: Int) {
        guard let layout = currentLayout(), let target = layout.vertical(from: cursor, by: delta) else { return }
        cursor = target
    }

    /// A screenful of rows down or up; the cursor keeps its column.
    func movePage(_ direction: Int) {
        guard let layout = currentLayout() else { return }
        let rows = max(1, visiblePhotoRows())
        for _ in 0..<rows {
            guard let target = layout.vertical(from: cursor, by: direction) else {
                if direction > 0 { cursor = data.total } else { cursor = min(cursor, 1) }
                break
            }
            cursor = target
        }
    }
}
