// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCull
import CuratorProtocol
import Testing

@Suite struct SessionMirrorTests {
    static func item(_ number: Int, _ id: Int64) -> SelectionItem {
        SelectionItem(number: number, id: id, root: "p", path: "IMG_\(id).JPG", size: 10)
    }

    static func session(_ mode: SessionMode, count: Int, bytes: Int64 = 0, cap: Int? = nil, hidden: Int? = nil) -> SessionResult {
        SessionResult(session: "s", mode: mode, view: ViewSpec(), cap: cap, count: count, bytes: bytes, hidden: hidden)
    }

    @Test func aSelectionAnswerIsTakenInTapOrder() {
        var mirror = SessionMirror()
        mirror.apply(SelectionResult(session: "s", mode: .select, cap: 5, items: [Self.item(2, 30), Self.item(1, 40), Self.item(3, 10)],
                                     count: 3, bytes: 1200, hidden: 1))
        #expect(mirror.mode == .select)
        #expect(mirror.cap == 5)
        #expect(mirror.selectedBytes == 1200)
        #expect(mirror.hiddenSelected == 1)
        #expect(mirror.selection.ids == [40, 30, 10])
        #expect(mirror.selection.number(of: 10) == 3)
    }

    @Test func aSessionAnswerAsksForTheNumbersOnlyWhenItsCountDisagrees() {
        var mirror = SessionMirror()
        mirror.selection.toggle(7)
        // The toggle the grid made itself: one selected, the daemon says one.
        let agrees = mirror.settle(Self.session(.select, count: 1, bytes: 99))
        #expect(!agrees)
        #expect(mirror.selectedBytes == 99)
        #expect(mirror.selection.ids == [7])
        // Another client selected a second: the grid does not know which.
        let disagrees = mirror.settle(Self.session(.select, count: 2))
        #expect(disagrees)
        // Nothing selected: no question, and the selection the grid held is gone.
        let emptied = mirror.settle(Self.session(.view, count: 0))
        #expect(!emptied)
        #expect(mirror.selection.count == 0)
        #expect(mirror.mode == .view)
    }

    @Test func anEventKeepsWhatItLeavesOut() {
        var mirror = SessionMirror()
        mirror.apply(Self.session(.select, count: 0, bytes: 500, cap: 3, hidden: 2))
        mirror.apply(event: Event(event: .selection, session: "s", items: [Self.item(1, 9)]))
        #expect(mirror.mode == .select)
        #expect(mirror.cap == 3)
        #expect(mirror.selectedBytes == 500)
        #expect(mirror.hiddenSelected == 2)
        #expect(mirror.selection.ids == [9])
        // A cap written as null lifts it; an event without items empties the selection.
        mirror.apply(event: Event(event: .selection, session: "s", mode: .view, cap: .some(nil), bytes: 0))
        #expect(mirror.cap == nil)
        #expect(mirror.mode == .view)
        #expect(mirror.selection.count == 0)
    }

    @Test func aTrashedSelectionLeavesSelectModeEmpty() {
        var mirror = SessionMirror()
        mirror.apply(SelectionResult(session: "s", mode: .select, cap: nil, items: [Self.item(1, 4)], count: 1, bytes: 80, hidden: 1))
        mirror.selectionTrashed()
        #expect(mirror.mode == .view)
        #expect(mirror.selection.count == 0)
        #expect(mirror.selectedBytes == 0)
        #expect(mirror.hiddenSelected == 0)
    }
}
