// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// A line for the status bar, and how long it stays.
struct StatusMessage: Equatable {
    var text: String
    var warning: Bool
}

/// The status bar's message: set by what a key or an answer did, cleared by the next
/// key on the grid; without one, the bar shows what the keys do.
struct StatusLine {
    private(set) var message: StatusMessage?

    /// The message may name photos and quote the daemon: it is escaped for the terminal.
    mutating func say(_ text: String, warning: Bool = false) {
        message = StatusMessage(text: text.forTerminal, warning: warning)
    }

    mutating func clear() { message = nil }
}
