// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCull
import CuratorProtocol
import Testing

@Suite struct ViewEditsTests {
    @Test func aTypedFilterKeepsTheTypesAndMarksOfTheCommandLine() {
        var given = ViewFilter(glob: "IMG_*", types: ["raw"], ratingMin: 2, flags: ["pick"], labels: ["red"])
        given.ratingMax = 4
        let view = ViewSpec(root: "p", folder: "a", filter: given, sort: .capture)
        let dated = ViewEdits.filtered(view, by: FilterText.parse("2024-05..2024-06"))
        #expect(dated.filter?.glob == nil)  // the glob typed before is replaced
        #expect(dated.filter?.from == "2024-05")
        #expect(dated.filter?.types == ["raw"])
        #expect(dated.filter?.ratingMin == 2)
        #expect(dated.filter?.ratingMax == 4)
        #expect(dated.filter?.flags == ["pick"])
        #expect(dated.filter?.labels == ["red"])
        #expect(dated.folder == "a")
        #expect(dated.sort == .capture)
    }

    @Test func clearingTheOnlyFilterLeavesNone() {
        let view = ViewSpec(root: "p", filter: ViewFilter(glob: "*.NEF"))
        #expect(ViewEdits.filtered(view, by: nil).filter == nil)
        #expect(ViewEdits.filtered(ViewSpec(), by: FilterText.parse("*.JPG")).filter?.glob == "*.JPG")
    }

    @Test func sortsCycleAndOrdersFlip() {
        #expect(ViewEdits.nextSort(ViewSpec()).sort == .capture)  // none is by name
        #expect(ViewEdits.nextSort(ViewSpec(sort: .custom)).sort == .rating)
        #expect(ViewEdits.nextSort(ViewSpec(sort: .label)).sort == .name)
        var view = ViewSpec(folder: "x", sort: .size)
        for _ in ViewEdits.sorts { view = ViewEdits.nextSort(view) }
        #expect(view.sort == .size)  // every sort once, then back
        #expect(view.folder == "x")
        #expect(ViewEdits.reversed(ViewSpec()).order == .desc)
        #expect(ViewEdits.reversed(ViewSpec(order: .desc)).order == .asc)
    }
}
