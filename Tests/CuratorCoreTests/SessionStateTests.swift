// SPDX-License-Identifier: GPL-2.0-or-later

import CuratorCore
import CuratorProtocol
import Foundation
import Testing

@Suite struct SessionStateTests {
    private let pictures = ViewSpec(root: "pictures", sort: .capture)
    private let holiday = ViewSpec(root: "pictures", folder: "2024/holiday", sort: .name)

    /// A session in select mode holding `ids`.
    private func selecting(_ ids: [Int64], cap: Int? = nil) throws -> SessionState {
        let state = try SessionState(view: pictures).setMode(.select, cap: cap).state
        return try state.apply(.select(ids)).state
    }

    @Test func aNewSessionViewsWithNothingSelected() {
        let state = SessionState(view: pictures)
        #expect(state.mode == .view)
        #expect(state.view == pictures)
        #expect(state.selection.isEmpty)
        #expect(state.generation == 0)
    }

    @Test(arguments: [
        SelectionOperation.select([1]), .deselect([1]), .toggle([1]), .clear,
    ])
    func selectionOperationsAreRefusedInViewMode(operation: SelectionOperation) {
        #expect(throws: SelectionError.notInSelectMode) { try SessionState(view: pictures).apply(operation) }
        let error = SelectionError.notInSelectMode.protocolError
        #expect(error.code == .notInSelectMode)
        #expect(error.message == "The session is in view mode; switch it to select mode to change its selection.")
    }

    @Test func selectionOperationsApplyInSelectMode() throws {
        var state = try selecting([1, 2, 3])
        var update = try state.apply(.deselect([1]))
        #expect(update.change == SelectionChange(removed: [1], renumbered: true))
        state = update.state
        #expect(state.selection.items == [2, 3])
        update = try state.apply(.toggle([2, 4]))
        #expect(update.state.selection.items == [3, 4])
        update = try update.state.apply(.clear)
        #expect(update.state.selection.isEmpty)
        #expect(update.change.removed == [3, 4])
        #expect(update.state.mode == .select)
    }

    @Test func leavingSelectModeClearsTheSelection() throws {
        let state = try selecting([5, 6], cap: 4)
        let update = try state.setMode(.view)
        #expect(update.state.mode == .view)
        #expect(update.state.selection.isEmpty)
        #expect(update.state.selection.cap == nil)
        #expect(update.change == SelectionChange(removed: [5, 6]))
        #expect(update.state.generation == state.generation + 1)
        #expect(update.state.view == pictures)
    }

    @Test func enteringSelectModeTakesTheCapOrTheDefault() throws {
        let state = SessionState(view: pictures)
        #expect(try state.setMode(.select, cap: 3, defaultCap: 8).state.selection.cap == 3)
        #expect(try state.setMode(.select, defaultCap: 8).state.selection.cap == 8)
        #expect(try state.setMode(.select).state.selection.cap == nil)
        let update = try state.setMode(.select, cap: 3)
        #expect(update.state.mode == .select)
        #expect(update.change == .none)
        #expect(update.state.generation == 0)
    }

    @Test func aCapBelowOneIsRefused() {
        let state = SessionState(view: pictures)
        #expect(throws: SelectionError.invalidCap(0)) { try state.setMode(.select, cap: 0) }
        #expect(throws: SelectionError.invalidCap(-2)) { try state.setMode(.select, defaultCap: -2) }
        let error = SelectionError.invalidCap(0).protocolError
        #expect(error.code == .invalidArgument)
        #expect(error.argument == "cap")
    }

    @Test func selectModeAgainKeepsTheSelectionAndMayChangeTheCap() throws {
        let state = try selecting([1, 2, 3], cap: 5)
        let same = try state.setMode(.select, defaultCap: 8)
        #expect(same.state == state)
        let lowered = try state.setMode(.select, cap: 3)
        #expect(lowered.state.selection.cap == 3)
        #expect(lowered.state.selection.items == [1, 2, 3])
        #expect(lowered.state.generation == state.generation)
        #expect(throws: SelectionError.capBelowSelection(cap: 2, count: 3)) { try state.setMode(.select, cap: 2) }
        #expect(SelectionError.capBelowSelection(cap: 2, count: 3).message
            == "The selection already holds 3 photos, more than a cap of 2; deselect some first.")
    }

    @Test func viewModeAgainChangesNothing() throws {
        let state = SessionState(view: pictures)
        #expect(try state.setMode(.view) == SessionUpdate(state: state, change: .none))
    }

    @Test func changingTheViewResetsToViewModeWithNothingSelected() throws {
        let state = try selecting([1, 2], cap: 4)
        let update = state.setView(holiday)
        #expect(update.state.view == holiday)
        #expect(update.state.mode == .view)
        #expect(update.state.selection.isEmpty)
        #expect(update.state.selection.cap == nil)
        #expect(update.change == SelectionChange(removed: [1, 2]))
        #expect(update.state.generation == state.generation + 1)
    }

    /// Article 001: the checkmarks stay while the search text changes. A filter,
    /// sort, order or sub-folder change of the same page keeps mode, cap and
    /// selection, and does not void a delete plan (the generation stays).
    @Test func aFilterOrSortOfTheSamePageKeepsTheSelection() throws {
        let state = try selecting([3, 1, 2], cap: 5)
        var filtered = pictures
        filtered.filter = ViewFilter(glob: "*.CR2", types: ["cr2"], from: "2024")
        var resorted = pictures
        resorted.sort = .size
        resorted.order = .desc
        var flat = pictures
        flat.recursive = false
        for view in [filtered, resorted, flat] {
            let update = state.setView(view)
            #expect(update.state.view == view)
            #expect(update.state.mode == .select)
            #expect(update.state.selection == state.selection)
            #expect(update.state.selection.cap == 5)
            #expect(update.state.generation == state.generation)
            #expect(update.change == .none)
        }
        // And back: still the same selection, in the same order.
        #expect(state.setView(filtered).state.setView(pictures).state == state)
    }

    /// Article 003: another page (root or folder) resets the session.
    @Test func anotherRootOrFolderResetsTheSession() throws {
        let inFolder = try SessionState(view: holiday).setMode(.select).state.apply(.select([1, 2])).state
        for page in [ViewSpec(root: "pictures", folder: "2024/other", sort: .name), ViewSpec(root: "pictures", sort: .name),
                     ViewSpec(root: "phone", folder: "2024/holiday", sort: .name), ViewSpec(folder: "2024/holiday", sort: .name),
                     ViewSpec(root: "pictures", folder: "2024", sort: .name)] {
            let update = inFolder.setView(page)
            #expect(update.state.mode == .view, "\(page)")
            #expect(update.state.selection.isEmpty)
            #expect(update.change.removed == [1, 2])
        }
        // One folder, however it is spelled, is one page.
        var spelled = holiday
        spelled.folder = "/2024//holiday/"
        spelled.filter = ViewFilter(glob: "*.jpg")
        #expect(inFolder.setView(spelled).state.selection.items == [1, 2])
        var raw = holiday
        raw.folder = nil
        raw.folderRaw = Data("2024/holiday".utf8).base64EncodedString()
        #expect(inFolder.setView(raw).state.selection.items == [1, 2])
        // The root itself: no folder, "" and "/" are the same page.
        let top = try selecting([4])
        var empty = pictures
        empty.folder = ""
        empty.sort = .name
        #expect(top.setView(empty).state.selection.items == [4])
    }

    @Test func theSameViewAgainKeepsTheSelection() throws {
        let state = try selecting([1, 2])
        #expect(state.setView(pictures) == SessionUpdate(state: state, change: .none))
    }

    @Test func theCapRefusesWholeThroughTheSession() throws {
        let state = try selecting([1, 2, 3, 4, 5, 6, 7, 8], cap: 8)
        let expected = SelectionError.selectionFull(cap: 8, requested: 2, available: 0)
        #expect(throws: expected) { try state.apply(.select([9, 10])) }
        #expect(throws: expected) { try state.apply(.toggle([9, 10])) }
        #expect(expected.protocolError == ProtocolError(
            .selectionFull, "The selection is full: it holds at most 8 photos, and this would make 10."))
    }

    @Test func generationMovesExactlyWhenTheSelectionChanges() throws {
        var state = try SessionState(view: pictures).setMode(.select, cap: 3).state
        var expected: UInt64 = 0
        func step(_ operation: SelectionOperation, changes: Bool) throws {
            state = try state.apply(operation).state
            if changes { expected += 1 }
            #expect(state.generation == expected, "after \(operation)")
        }
        try step(.select([1, 2]), changes: true)
        try step(.select([1]), changes: false)
        try step(.select([]), changes: false)
        try step(.deselect([9]), changes: false)
        try step(.toggle([2]), changes: true)
        try step(.toggle([2, 3]), changes: true)
        #expect(throws: SelectionError.self) { try state.apply(.select([4, 5])) }
        #expect(state.generation == expected)
        try step(.clear, changes: true)
        try step(.clear, changes: false)

        try step(.select([7, 8]), changes: true)
        state = state.removingVanished([99]).state
        #expect(state.generation == expected)
        let vanished = state.removingVanished([7])
        #expect(vanished.change == SelectionChange(removed: [7], renumbered: true))
        #expect(vanished.state.selection.number(of: 8) == 1)
        #expect(vanished.state.generation == expected + 1)

        // Mode and cap changes that leave the selection as it is do not move it.
        state = try vanished.state.setMode(.select, cap: 2).state
        #expect(state.generation == expected + 1)
    }

    @Test func resettingAnEmptySelectionDoesNotMoveTheGeneration() throws {
        let state = try SessionState(view: pictures).setMode(.select).state
        #expect(try state.setMode(.view).state.generation == 0)
        #expect(state.setView(holiday).state.generation == 0)
    }

    @Test func vanishedPhotosLeaveInAnyModeWithoutRefusal() {
        let state = SessionState(view: pictures)
        #expect(state.removingVanished([1]) == SessionUpdate(state: state, change: .none))
    }

    // MARK: Persistence

    @Test func codableRoundTrip() throws {
        var view = holiday
        view.filter = ViewFilter(glob: "*.jpg", from: "2024-07-01")
        var state = try SessionState(view: view).setMode(.select, cap: 5).state
        state = try state.apply(.select([4, 2, 9])).state
        state = try state.apply(.deselect([2])).state
        let decoded = try JSONDecoder().decode(SessionState.self, from: JSONEncoder().encode(state))
        #expect(decoded == state)
        #expect(decoded.mode == .select)
        #expect(decoded.view == view)
        #expect(decoded.selection.items == [4, 9])
        #expect(decoded.selection.cap == 5)
        #expect(decoded.generation == 2)
    }

    @Test func decodingRefusesASelectionInViewMode() {
        let json = #"{"mode": "view", "view": {}, "selection": {"ids": [1]}, "generation": 3}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SessionState.self, from: Data(json.utf8)) }
        let fine = #"{"mode": "select", "view": {}, "selection": {"ids": [1]}, "generation": 3}"#
        #expect((try? JSONDecoder().decode(SessionState.self, from: Data(fine.utf8)))?.selection.items == [1])
    }
}
