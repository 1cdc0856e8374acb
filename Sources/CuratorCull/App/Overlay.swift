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
}

/// A line for the status bar, and how long it stays.
struct StatusMessage {
    var text: String
    var warning: Bool
}
