// SPDX-License-Identifier: GPL-2.0-or-later

/// What a key asks the grid to do. Answers to what sits over the grid (`confirm`,
/// `answer`) carry no payload: the overlay holds the plan or the question.
enum CullAction: Equatable {
    case nothing
    case quit
    case redraw
    /// The photo before (-1) or after (1).
    case step(Int)
    /// In the detail view: the photo before or after, shown large.
    case flip(Int)
    case vertical(Int)
    case page(Int)
    case first
    case last
    case openDetail
    /// Back to the grid from the detail view or the keys' help.
    case closeOverlay
    case help
    case switchMode
    case toggle
    case delete
    case undo
    case mark(CullMark)
    case toggleAdvance
    case openPrompt
    case cycleSort
    case reverseOrder
    case go(PageMove)
    case zoom(Int)
    /// Escape on the grid: says how select mode is left.
    case escapeHint
    /// A key to quit while a batch runs: it says the batch goes on.
    case batchRunsHint
    case confirmDelete
    case cancelDelete
    case answerYes
    case answerNo
    /// The filter being typed, as it is now.
    case editPrompt(String)
    case cancelPrompt
    case submitFilter(String)
}

/// The keys, as each overlay reads them: the grid's (Lightroom's and vi's), the
/// detail view's, a question's yes and no, the filter being typed.
enum KeyMap {
    static func action(for key: Key, in overlay: Overlay) -> CullAction {
        switch overlay {
        case .none: grid(key)
        case .detail: detail(key)
        case .confirm: yesNo(key, yes: .confirmDelete, no: .cancelDelete, cancelKeys: [.control("c")])
        case .progress:
            // A batch runs to its end (the daemon's journal makes it safe to quit, but
            // the grid waits for the answer to show it).
            key == .control("c") || key == .character("q") ? .batchRunsHint : .nothing
        case .prompt(let text): prompt(key, text)
        case .help: .closeOverlay
        case .ask: yesNo(key, yes: .answerYes, no: .answerNo, cancelKeys: [.control("c"), .control("g")])
        }
    }

    private static func grid(_ key: Key) -> CullAction {
        switch key {
        case .character("q"), .control("c"): .quit
        case .control("z"): .undo
        case .control("l"): .redraw
        case .left, .character("h"): .step(-1)
        case .right, .character("l"): .step(1)
        case .up, .character("k"): .vertical(-1)
        case .down, .character("j"): .vertical(1)
        case .pageDown, .control("f"), .control("d"): .page(1)
        case .pageUp, .control("b"), .control("u"): .page(-1)
        case .home, .character("g"): .first
        case .end, .character("G"): .last
        case .enter: .openDetail
        case .character("v"): .switchMode
        case .space: .toggle
        case .character("d"): .delete
        case .character("/"): .openPrompt
        case .character("s"): .cycleSort
        case .character("r"): .reverseOrder
        case .character("o"): .go(.openCursorFolder)
        case .character("]"): .go(.sibling(1))
        case .character("["): .go(.sibling(-1))
        case .backspace: .go(.widen)
        case .character("+"), .character("="): .zoom(1)
        case .character("-"), .character("_"): .zoom(-1)
        case .character("?"): .help
        case .escape: .escapeHint
        default: markKey(key)
        }
    }

    private static func detail(_ key: Key) -> CullAction {
        switch key {
        case .escape, .enter, .character("q"), .backspace: .closeOverlay
        case .control("c"): .quit
        case .left, .character("h"), .up, .character("k"): .flip(-1)
        case .right, .character("l"), .down, .character("j"): .flip(1)
        case .space: .toggle
        case .character("v"): .switchMode
        default: markKey(key)
        }
    }

    /// P, X, U, 0-9 and `a`: the same on the grid and on one photo large.
    private static func markKey(_ key: Key) -> CullAction {
        switch key {
        case .character("p"), .character("P"): .mark(.flag("pick"))
        case .character("x"), .character("X"): .mark(.flag("reject"))
        case .character("u"), .character("U"): .mark(.flag("none"))
        case .character(let c) where c.isASCII && c.isNumber: MarkKeys.mark(digit: c).map(CullAction.mark) ?? .nothing
        case .character("a"), .character("A"): .toggleAdvance
        default: .nothing
        }
    }

    private static func yesNo(_ key: Key, yes: CullAction, no: CullAction, cancelKeys: [Key]) -> CullAction {
        switch key {
        case .character("y"), .character("Y"): yes
        case .character("n"), .character("N"), .escape, .character("q"): no
        default: cancelKeys.contains(key) ? no : .nothing
        }
    }

    private static func prompt(_ key: Key, _ text: String) -> CullAction {
        switch key {
        case .escape, .control("c"), .control("g"): .cancelPrompt
        case .enter: .submitFilter(text)
        case .backspace: .editPrompt(String(text.dropLast()))
        case .control("u"): .editPrompt("")
        case .space: .editPrompt(text + " ")
        case .character(let c): .editPrompt(text + String(c))
        default: .nothing
        }
    }
}
