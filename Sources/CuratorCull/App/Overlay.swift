// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// What sits over the grid, and takes the keys while it is there.
enum Overlay {
    case none
    /// Enter: one photo large, with its details.
    case detail
    /// `d`: seed 000's "Delete?", with the plan.
    case confirm(DeletePlanResult, fromSelection: Bool)
    /// A batch or undo under way.
    case progress(title: String, done: Int, total: Int)
    /// `/`: the filter being typed.
    case prompt(String)
    /// `?`: the keys.
    case help
    /// What a key would do that clears the selection or moves files, for a yes or no.
    case ask(Question)
}

/// A question over the grid: what is about to happen, and what `y` does.
struct Question {
    var title: String
    var lines: [String]
    /// What `y` says it does, and `n`.
    var yes: String
    var no: String
    var action: AskedAction
}

/// What a question's `y` carries out, with nothing asked again.
enum AskedAction {
    /// `v` in select mode: leave it, which clears the selection.
    case leaveSelectMode
    /// Another page (Backspace, `o`, `[`, `]`), which clears the selection.
    case page(PageMove)
    /// Ctrl+Z: put this batch back.
    case undo(batch: Int64, count: PhotoFileCount)
}

/// The keys that go to another page.
enum PageMove: Equatable {
    case widen
    case openCursorFolder
    case sibling(Int)
}
