// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// The session as the daemon last said it: its mode and cap, the selection in tap
/// order and what it weighs. Answers and events replace it; the grid changes it
/// itself only where the daemon sends nothing for its own request (a toggle, a
/// confirmed batch).
struct SessionMirror {
    var mode = SessionMode.view
    var cap: Int?
    var selectedBytes: Int64 = 0
    /// Of the selection, the photos the view does not show.
    var hiddenSelected = 0
    var selection = OrderedSelection()

    mutating func apply(_ result: SelectionResult) {
        mode = result.mode
        cap = result.cap
        selectedBytes = result.bytes
        hiddenSelected = result.hidden ?? 0
        selection.replace(with: Self.tapOrder(result.items))
    }

    mutating func apply(_ result: SessionResult) {
        mode = result.mode
        cap = result.cap
        selectedBytes = result.bytes
        hiddenSelected = result.hidden ?? 0
    }

    /// A session answer; true when its count says the selection moved otherwise than
    /// the grid knows, and its numbers are to be fetched again.
    mutating func settle(_ result: SessionResult) -> Bool {
        apply(result)
        if result.count == 0 { selection.replace(with: []) }
        return result.count != selection.count
    }

    /// This session's `selection` event: what it leaves out stays as it was.
    mutating func apply(event: Event) {
        mode = event.mode ?? mode
        if let newCap = event.cap { cap = newCap }
        selectedBytes = event.bytes ?? selectedBytes
        hiddenSelected = event.hidden ?? hiddenSelected
        selection.replace(with: Self.tapOrder(event.items ?? []))
    }

    /// A confirmed delete of the selection leaves select mode with nothing selected;
    /// the daemon sends no event for the session's own request.
    mutating func selectionTrashed() {
        mode = .view
        selection.replace(with: [])
        selectedBytes = 0
        hiddenSelected = 0
    }

    static func tapOrder(_ items: [SelectionItem]) -> [Int64] {
        items.sorted { $0.number < $1.number }.map(\.id)
    }
}
