// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCull
import Testing

@Suite struct GridGeometryTests {
    static let runs = [FolderRun(root: "p", path: "a", start: 1, count: 20, total: 20)]

    @Test func zoomStaysWithinTheLevels() {
        var grid = GridGeometry()
        #expect(grid.cell == CellGeometry.levels[1])
        for _ in 0..<10 { grid.zoom(by: 1) }
        #expect(grid.cell == CellGeometry.levels.last)
        for _ in 0..<10 { grid.zoom(by: -1) }
        #expect(grid.cell == CellGeometry.levels[0])
    }

    @Test func theLayoutFollowsTheWidthTheCellsAndTheRuns() {
        var grid = GridGeometry()
        let none = grid.layout(runs: [], screenColumns: 80)
        #expect(none == nil)
        let narrow = grid.layout(runs: Self.runs, screenColumns: 80)
        #expect(narrow?.columns == 5)  // the default cells: 5 at 80 columns
        let wide = grid.layout(runs: Self.runs, screenColumns: 120)
        #expect(wide?.columns == 7)
        grid.zoom(by: 1)
        let bigger = grid.layout(runs: Self.runs, screenColumns: 120)
        #expect(bigger?.columns == 5)
        let other = [FolderRun(root: "p", path: "b", start: 1, count: 3, total: 3)]
        let moved = grid.layout(runs: other, screenColumns: 120)
        #expect(moved?.runs == other)
    }

    @Test func aScreenfulOfRows() {
        var grid = GridGeometry()
        // 24 rows: 22 lines for the grid, the first a heading's, cells 8 high.
        #expect(GridGeometry.gridLines(screenRows: 24) == 22)
        #expect(grid.visiblePhotoRows(screenRows: 24) == 2)
        grid.zoom(by: -1)
        #expect(grid.visiblePhotoRows(screenRows: 24) == 3)
        #expect(grid.visiblePhotoRows(screenRows: 3) == 1)
        #expect(GridGeometry.gridLines(screenRows: 1) == 1)
    }
}
