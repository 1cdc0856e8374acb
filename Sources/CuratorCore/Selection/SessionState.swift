// SPDX-License-Identifier: GPL-2.0-or-later

import CuratorProtocol

/// A session's view, mode and ordered selection, and the rules that tie them
/// (articles 000, 001 and 003): changing the view's page (root or folder) resets to
/// view mode with nothing selected, while a filter or sort change keeps the
/// selection (a selection is a set of identities; the view only shows them);
/// leaving select mode clears the selection; the selection changes only in select
/// mode. So a view-mode session never holds a selection.
///
/// The rules return a new state rather than mutate, so that the daemon can persist
/// the result under its lock and install it only once that succeeded.
public struct SessionState: Equatable, Sendable {
    public private(set) var mode: SessionMode
    public private(set) var view: ViewSpec
    public private(set) var selection: OrderedSelection
    /// Moves on with every change to the selection's contents, so that a delete plan
    /// made at one generation is void at any other.
    public private(set) var generation: UInt64

    public init(view: ViewSpec = ViewSpec()) {
        self.mode = .view
        self.view = view
        self.selection = OrderedSelection()
        self.generation = 0
    }

    /// Another page (root or folder) resets the session (article 003). Another
    /// filter, sort, order or `recursive` on the same page only changes what is
    /// shown: mode, cap and selection stay, photos the view now hides included
    /// (article 001). The same view again changes nothing.
    public func setView(_ newView: ViewSpec) -> SessionUpdate {
        guard newView != view else { return SessionUpdate(state: self, change: .none) }
        if newView.page == view.page {
            var next = self
            next.view = newView
            return SessionUpdate(state: next, change: .none)
        }
        var next = SessionState(view: newView)
        next.generation = generation
        let change = SelectionChange(removed: selection.items)
        next.advance(by: change)
        return SessionUpdate(state: next, change: change)
    }

    /// Leaving select mode clears the selection and drops its cap (article 000).
    /// Entering it sets the cap to `cap`, or `defaultCap` (the configuration's)
    /// when nil. Already in select mode, a given `cap` replaces the current one and
    /// nil keeps it.
    public func setMode(_ newMode: SessionMode, cap: Int? = nil, defaultCap: Int? = nil) throws(SelectionError) -> SessionUpdate {
        var next = self
        switch (mode, newMode) {
        case (.view, .view):
            return SessionUpdate(state: self, change: .none)
        case (.select, .view):
            next.mode = .view
            next.selection = OrderedSelection()
            let change = SelectionChange(removed: selection.items)
            next.advance(by: change)
            return SessionUpdate(state: next, change: change)
        case (.view, .select):
            next.mode = .select
            try next.selection.setCap(cap ?? defaultCap)
        case (.select, .select):
            if let cap { try next.selection.setCap(cap) }
        }
        return SessionUpdate(state: next, change: .none)
    }

    /// Applies a selection operation, refused whole in view mode, past the cap, or
    /// past the daemon's `limit` (removing photos is never refused).
    public func apply(_ operation: SelectionOperation, limit: SelectionLimit? = nil) throws(SelectionError) -> SessionUpdate {
        guard mode == .select else { throw .notInSelectMode }
        var next = self
        let change: SelectionChange
        switch operation {
        case let .select(ids): change = try next.selection.select(ids, limit: limit)
        case let .deselect(ids): change = next.selection.deselect(ids)
        case let .toggle(ids): change = try next.selection.toggle(ids, limit: limit)
        case .clear: change = next.selection.clear()
        }
        next.advance(by: change)
        return SessionUpdate(state: next, change: change)
    }

    /// Photos that left the disk leave the selection in any mode; never refused.
    public func removingVanished(_ ids: [Int64]) -> SessionUpdate {
        var next = self
        let change = next.selection.remove(ids: ids)
        next.advance(by: change)
        return SessionUpdate(state: next, change: change)
    }

    private mutating func advance(by change: SelectionChange) {
        if !change.isEmpty { generation &+= 1 }
    }
}

/// Decoding refuses a state that breaks the rules (a selection in view mode) rather
/// than carry it on, because such a selection could later be deleted unseen.
extension SessionState: Codable {
    private enum CodingKeys: String, CodingKey { case mode, view, selection, generation }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mode = try container.decode(SessionMode.self, forKey: .mode)
        view = try container.decode(ViewSpec.self, forKey: .view)
        selection = try container.decode(OrderedSelection.self, forKey: .selection)
        generation = try container.decode(UInt64.self, forKey: .generation)
        if mode == .view && !selection.isEmpty {
            throw DecodingError.dataCorruptedError(
                forKey: .selection, in: container, debugDescription: "a session in view mode holds a selection")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mode, forKey: .mode)
        try container.encode(view, forKey: .view)
        try container.encode(selection, forKey: .selection)
        try container.encode(generation, forKey: .generation)
    }
}
