// SPDX-License-Identifier: GPL-2.0-or-later

/// The outcome of one accepted session rule: the state to persist and install, and
/// what it did to the selection (for the reply's counts and for subscribers).
public struct SessionUpdate: Equatable, Sendable {
    public var state: SessionState
    public var change: SelectionChange

    public init(state: SessionState, change: SelectionChange) {
        self.state = state
        self.change = change
    }
}
