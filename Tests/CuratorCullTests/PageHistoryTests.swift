// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCull
import CuratorProtocol
import Testing

@Suite struct PageHistoryTests {
    /// A wider view sorted by time: folder b's photos come in two runs.
    static let runs = [
        FolderRun(root: "p", path: "a", start: 1, count: 2, total: 2),
        FolderRun(root: "p", path: "b", start: 3, count: 1, total: 3),
        FolderRun(root: "p", path: "c", start: 4, count: 1, total: 1),
        FolderRun(root: "p", path: "b", start: 5, count: 2, total: 3),
    ]

    static func history() -> PageHistory {
        var history = PageHistory()
        history.push(PageMemory(view: ViewSpec(root: "p"), runs: runs, cursorID: 42))
        return history
    }

    @Test func siblingsAreEachFolderOnceInTheWiderViewsOrder() {
        let history = Self.history()
        let onB = ViewSpec(root: "p", folder: "b", recursive: false)
        #expect(history.sibling(1, of: onB) == .folder(root: "p", path: "c"))
        #expect(history.sibling(-1, of: onB) == .folder(root: "p", path: "a"))
        let onC = ViewSpec(root: "p", folder: "c", recursive: false)
        #expect(history.sibling(1, of: onC) == .edge)
        #expect(history.sibling(-1, of: ViewSpec(root: "p", folder: "a")) == .edge)
        #expect(PageHistory().sibling(1, of: onB) == .noWiderView)
    }

    @Test func backspaceGoesBackToTheWiderViewThenUp() {
        var history = Self.history()
        let back = history.pop()
        let further = history.pop()
        #expect(back?.cursorID == 42)
        #expect(further == nil)
        let deep = ViewSpec(root: "p", folder: "2024/05", recursive: false)
        #expect(PageHistory.parent(of: deep)?.folder == "2024")
        #expect(PageHistory.parent(of: deep)?.recursive == nil)
        #expect(PageHistory.parent(of: ViewSpec(root: "p", folder: "2024"))?.folder == nil)
        #expect(PageHistory.parent(of: ViewSpec(root: "p")) == nil)
    }

    @Test func aFolderPageKeepsFilterAndSort() {
        var filter = ViewFilter()
        filter.glob = "*.NEF"
        let wide = ViewSpec(root: "p", folderRaw: "b64", recursive: true, filter: filter, sort: .capture)
        let page = PageHistory.page(of: wide, root: "q", folder: "x/y")
        #expect(page.root == "q")
        #expect(page.folder == "x/y")
        #expect(page.folderRaw == nil)
        #expect(page.recursive == false)
        #expect(page.filter?.glob == "*.NEF")
        #expect(page.sort == .capture)
        #expect(PageHistory.page(of: wide, root: "q", folder: "").folder == nil)
    }
}
