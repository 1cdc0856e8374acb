// SPDX-License-Identifier: GPL-2.0-or-later

@testable import CuratorCore
import CuratorProtocol
import Foundation
import Testing

@Suite struct OrderedSelectionTests {
    /// A selection of `ids`, selected one request at a time.
    private func selection(_ ids: [Int64], cap: Int? = nil) throws -> OrderedSelection {
        var selection = OrderedSelection(cap: cap)
        for id in ids { try selection.select([id]) }
        return selection
    }

    private func numbers(_ selection: OrderedSelection, _ ids: [Int64]) -> [Int?] {
        ids.map { selection.number(of: $0) }
    }

    @Test func numbersFollowTheOrderOfSelecting() throws {
        var selection = OrderedSelection()
        let change = try selection.select([30, 10, 20])
        #expect(change == SelectionChange(added: [30, 10, 20]))
        #expect(selection.items == [30, 10, 20])
        #expect(numbers(selection, [30, 10, 20, 99]) == [1, 2, 3, nil])
        #expect(selection.count == 3)
        #expect(selection.contains(10) && !selection.contains(99))
    }

    @Test func alreadySelectedKeepTheirNumbersAndNewOnesAppend() throws {
        var selection = try selection([10, 20])
        let change = try selection.select([20, 40, 10, 50])
        #expect(change.added == [40, 50])
        #expect(change.removed.isEmpty && !change.renumbered)
        #expect(selection.items == [10, 20, 40, 50])
        #expect(numbers(selection, [10, 20, 40, 50]) == [1, 2, 3, 4])
    }

    @Test func anIdNamedTwiceInOneRequestCountsOnce() throws {
        var selection = OrderedSelection()
        let change = try selection.select([5, 3, 5, 3, 7])
        #expect(change.added == [5, 3, 7])
        #expect(selection.items == [5, 3, 7])
    }

    @Test func selectThreeDeselectOneLeavesExactlyTwoNumberedOneAndTwo() throws {
        var selection = try selection([1, 2, 3])
        let change = selection.deselect([1])
        #expect(change == SelectionChange(removed: [1], renumbered: true))
        #expect(selection.count == 2)
        #expect(selection.items == [2, 3])
        #expect(numbers(selection, [1, 2, 3]) == [nil, 1, 2])
        #expect(!selection.contains(1))
    }

    @Test func deselectingFromTheMiddleRenumbersOnlyThoseAfter() throws {
        var selection = try selection([1, 2, 3, 4, 5])
        #expect(selection.deselect([2, 4]).renumbered)
        #expect(selection.items == [1, 3, 5])
        #expect(numbers(selection, [1, 3, 5]) == [1, 2, 3])
    }

    @Test func deselectingTheLastOnesRenumbersNobody() throws {
        var selection = try selection([1, 2, 3, 4])
        let change = selection.deselect([4, 3])
        #expect(change == SelectionChange(removed: [4, 3], renumbered: false))
        #expect(numbers(selection, [1, 2]) == [1, 2])
    }

    @Test func deselectingWhatIsNotSelectedChangesNothing() throws {
        var selection = try selection([1, 2])
        #expect(selection.deselect([7, 8]) == .none)
        #expect(selection.deselect([]) == .none)
        #expect(selection.items == [1, 2])
    }

    @Test func aPhotoSelectedAgainGoesToTheEnd() throws {
        var selection = try selection([1, 2, 3])
        selection.deselect([1])
        try selection.select([1])
        #expect(selection.items == [2, 3, 1])
        #expect(numbers(selection, [2, 3, 1]) == [1, 2, 3])
    }

    @Test func toggleRemovesTheSelectedAndAppendsTheOthers() throws {
        var selection = try selection([1, 2, 3])
        let change = try selection.toggle([4, 2, 5])
        #expect(change == SelectionChange(added: [4, 5], removed: [2], renumbered: true))
        #expect(selection.items == [1, 3, 4, 5])
        #expect(numbers(selection, [1, 3, 4, 5]) == [1, 2, 3, 4])
    }

    @Test func toggleTwiceRestoresMembershipButNotTheOldNumber() throws {
        var selection = try selection([1, 2, 3])
        try selection.toggle([1])
        try selection.toggle([1])
        #expect(selection.items == [2, 3, 1])
    }

    @Test func toggleCountsAnIdNamedTwiceOnce() throws {
        var selection = try selection([1])
        let change = try selection.toggle([2, 2, 1, 1])
        #expect(change.added == [2])
        #expect(change.removed == [1])
        #expect(selection.items == [2])
    }

    @Test func selectPastTheCapIsRefusedWholeAndChangesNothing() throws {
        var selection = try selection([1, 2, 3, 4, 5, 6, 7], cap: 8)
        let before = selection
        #expect(throws: SelectionError.selectionFull(cap: 8, requested: 3, available: 1)) {
            try selection.select([8, 9, 10])
        }
        #expect(selection == before)
        #expect(selection.items == [1, 2, 3, 4, 5, 6, 7])
        #expect(!selection.contains(8))
    }

    @Test func selectUpToTheCapIsAllowed() throws {
        var selection = try selection([1, 2, 3, 4, 5, 6], cap: 8)
        try selection.select([7, 8, 1])
        #expect(selection.count == 8)
        // Re-naming selected photos of a full selection adds nothing, so it is no refusal.
        #expect(try selection.select([8, 2]) == .none)
    }

    @Test func togglePastTheCapIsRefusedWholeAndChangesNothing() throws {
        var selection = try selection([1, 2, 3], cap: 3)
        let before = selection
        // Would remove 3 and add 4 and 5: four photos.
        #expect(throws: SelectionError.selectionFull(cap: 3, requested: 2, available: 1)) {
            try selection.toggle([3, 4, 5])
        }
        #expect(selection == before)
        #expect(numbers(selection, [1, 2, 3]) == [1, 2, 3])
    }

    @Test func toggleMayUseTheRoomItFrees() throws {
        var selection = try selection([1, 2, 3], cap: 3)
        try selection.toggle([2, 4])
        #expect(selection.items == [1, 3, 4])
    }

    @Test func clearEmptiesAndReportsWhatLeft() throws {
        var selection = try selection([3, 1, 2], cap: 5)
        selection.deselect([1])
        #expect(selection.clear() == SelectionChange(removed: [3, 2]))
        #expect(selection.isEmpty && selection.items.isEmpty)
        #expect(selection.cap == 5)
        #expect(selection.clear() == .none)
    }

    @Test func removingVanishedPhotosSaysWhetherNumberingChanged() throws {
        var selection = try selection([1, 2, 3])
        #expect(selection.remove(ids: [42]) == .none)
        #expect(selection.remove(ids: [3]) == SelectionChange(removed: [3], renumbered: false))
        #expect(selection.remove(ids: [1, 42]) == SelectionChange(removed: [1], renumbered: true))
        #expect(selection.items == [2])
        #expect(selection.number(of: 2) == 1)
    }

    @Test func aCapBelowTheSelectionIsRefused() throws {
        var selection = try selection([1, 2, 3])
        #expect(throws: SelectionError.capBelowSelection(cap: 2, count: 3)) { try selection.setCap(2) }
        #expect(throws: SelectionError.invalidCap(0)) { try selection.setCap(0) }
        #expect(selection.cap == nil)
        try selection.setCap(3)
        #expect(selection.cap == 3)
    }

    @Test func equalityIgnoresHowTheSelectionCameAbout() throws {
        var a = try selection([9, 1, 2, 3])
        a.deselect([9])
        let b = try selection([1, 2, 3])
        #expect(a == b)
        #expect(a != (try selection([1, 3, 2])))
        #expect(a != (try selection([1, 2, 3], cap: 4)))
    }

    @Test func fullMessageReadsAsASentence() {
        #expect(SelectionError.selectionFull(cap: 8, requested: 2, available: 0).message
            == "The selection is full: it holds at most 8 photos, and this would make 10.")
        #expect(SelectionError.selectionFull(cap: 8, requested: 4, available: 2).message
            == "The selection is full: it holds at most 8 photos, and this would make 10. Only 2 more photos would fit.")
        let error = SelectionError.selectionFull(cap: 1, requested: 2, available: 1).protocolError
        #expect(error.code == .selectionFull)
        #expect(error.message == "The selection is full: it holds at most 1 photo, and this would make 2. Only 1 more photo would fit.")
    }

    // MARK: Persistence

    @Test func codableRoundTripKeepsOrderNumbersAndCap() throws {
        var selection = try selection([5, 4, 3, 2, 1], cap: 9)
        selection.deselect([4, 2])
        let data = try JSONEncoder().encode(selection)
        let decoded = try JSONDecoder().decode(OrderedSelection.self, from: data)
        #expect(decoded == selection)
        #expect(decoded.items == [5, 3, 1])
        #expect(numbers(decoded, [5, 3, 1]) == [1, 2, 3])
        #expect(decoded.cap == 9)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(object?["ids"] as? [Int] == [5, 3, 1])
    }

    @Test(arguments: [
        #"{"ids": [1, 2, 1]}"#,
        #"{"cap": 2, "ids": [1, 2, 3]}"#,
        #"{"cap": 0, "ids": []}"#,
        #"{"cap": 3}"#,
    ])
    func decodingRefusesABrokenSelection(json: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(OrderedSelection.self, from: Data(json.utf8))
        }
    }

    // MARK: Against a plain model, and at scale

    /// Random requests on a small id range (so photos are often re-selected and holes
    /// pile up and get compacted), checked against an array doing the obvious thing.
    @Test(arguments: [nil, 12] as [Int?])
    func behavesLikeAPlainArray(cap: Int?) throws {
        var generator = SplitMix64(seed: 0xC0FFEE &+ UInt64(cap ?? 0))
        var selection = OrderedSelection(cap: cap)
        var model: [Int64] = []
        for _ in 0..<4_000 {
            let ids = (0..<Int.random(in: 0...4, using: &generator)).map { _ in Int64.random(in: 0..<30, using: &generator) }
            let unique = ids.reduce(into: [Int64]()) { if !$0.contains($1) { $0.append($1) } }
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<4:
                let new = unique.filter { !model.contains($0) }
                if let cap, model.count + new.count > cap {
                    #expect(throws: SelectionError.self) { try selection.select(ids) }
                } else {
                    #expect(try selection.select(ids).added == new)
                    model += new
                }
            case 4..<6:
                let wasLast = model.suffix(unique.filter(model.contains).count)
                let change = selection.deselect(ids)
                #expect(change.renumbered == !Set(change.removed).isSubset(of: wasLast))
                model.removeAll(where: unique.contains)
            case 6..<9:
                let leaving = unique.filter(model.contains)
                let joining = unique.filter { !model.contains($0) }
                if let cap, model.count - leaving.count + joining.count > cap {
                    #expect(throws: SelectionError.self) { try selection.toggle(ids) }
                } else {
                    try selection.toggle(ids)
                    model.removeAll(where: leaving.contains)
                    model += joining
                }
            default:
                if Int.random(in: 0..<4, using: &generator) == 0 {
                    selection.clear()
                    model = []
                } else {
                    selection.remove(ids: ids)
                    model.removeAll(where: unique.contains)
                }
            }
            #expect(selection.items == model)
            #expect(selection.count == model.count)
            for id in Int64(0)..<30 {
                #expect(selection.number(of: id) == model.firstIndex(of: id).map { $0 + 1 })
            }
        }
    }

    @Test func oneHundredThousandSelectsAndFiftyThousandDeselectsAreFast() throws {
        let clock = ContinuousClock()
        var selection = OrderedSelection()
        let elapsed = try clock.measure {
            for id in Int64(0)..<100_000 { try selection.select([id]) }
            // Every other one from the front: the worst case for shifting an array.
            for id in stride(from: Int64(0), to: 100_000, by: 2) {
                selection.deselect([id])
                _ = selection.number(of: 99_999)
            }
        }
        #expect(selection.count == 50_000)
        #expect(selection.number(of: 1) == 1)
        #expect(selection.number(of: 99_999) == 50_000)
        #expect(selection.items == Array(stride(from: Int64(1), to: 100_000, by: 2)))
        // A generous bound for loaded CI machines; it takes a small fraction of this.
        #expect(elapsed < .seconds(10))
        print("100 000 selects + 50 000 deselects: \(elapsed)")
    }

    /// The hole counter under `OrderedSelection`, against plain flags: its `total` drives
    /// the O(1) fast path and compaction, which no result of the selection shows.
    @Test func slotCounterMatchesPlainFlags() {
        var generator = SplitMix64(seed: 7)
        var counter = SlotCounter()
        var flags: [Bool] = []
        for _ in 0..<3_000 {
            switch Int.random(in: 0..<5, using: &generator) {
            case 0, 1:
                counter.appendSlot()
                flags.append(false)
            case 2, 3:
                guard let slot = flags.indices.filter({ !flags[$0] }).randomElement(using: &generator) else { continue }
                counter.mark(slot)
                flags[slot] = true
            default:
                guard !flags.isEmpty else { continue }
                counter.removeLastSlot()
                flags.removeLast()
            }
            #expect(counter.total == flags.filter { $0 }.count)
            #expect(counter.slotCount == flags.count)
            let slot = Int.random(in: 0...flags.count, using: &generator)
            #expect(counter.marked(before: slot) == flags[..<slot].filter { $0 }.count)
        }
    }
}
