// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCull
import Testing

@Suite struct GridCursorTests {
    /// Two folders: 7 photos then 3, in 3 columns (rows: heading, 3 rows, heading, 1 row).
    let layout = GridLayout(runs: [FolderRun(root: "p", path: "a", start: 1, count: 7, total: 7),
                                   FolderRun(root: "p", path: "b", start: 8, count: 3, total: 3)], columns: 3)

    @Test func movesStayInTheView() {
        var cursor = GridCursor()
        cursor.move(to: 0, total: 10)
        #expect(cursor.position == 1)
        cursor.move(to: 99, total: 10)
        #expect(cursor.position == 10)
        cursor.move(to: 3, total: 0)  // an empty view: nothing to move to
        #expect(cursor.position == 10)
        cursor.moveVertically(-1, in: layout)
        #expect(cursor.position == 7)
        cursor.moveVertically(1, in: nil)
        #expect(cursor.position == 7)
    }

    @Test func aPageMovesByRowsAndStopsAtTheEnds() {
        var cursor = GridCursor()
        cursor.move(to: 2, total: 10)
        cursor.movePage(1, rows: 2, in: layout, total: 10)
        #expect(cursor.position == 7)  // two rows down, the last row has one photo
        cursor.movePage(1, rows: 5, in: layout, total: 10)
        #expect(cursor.position == 10)  // past the end: the last photo
        cursor.movePage(-1, rows: 9, in: layout, total: 10)
        #expect(cursor.position == 1)
    }

    @Test func theCursorsRowIsKeptOnScreenWithItsHeading() {
        var cursor = GridCursor()
        // 8 lines of cells 4 high: a heading and one row of photos fit, not two rows.
        cursor.move(to: 9, total: 10)
        cursor.keepVisible(layout, lines: 8, cellHeight: 4)
        #expect(cursor.top == 4)  // folder b's heading, over its one row
        cursor.move(to: 5, total: 10)
        cursor.keepVisible(layout, lines: 8, cellHeight: 4)
        #expect(cursor.top == 2)  // up: the row itself (not the first of its folder)
        cursor.move(to: 1, total: 10)
        cursor.keepVisible(layout, lines: 8, cellHeight: 4)
        #expect(cursor.top == 0)
    }

    @Test func aNewShapeKeepsThePhotoUnderTheCursor() {
        var cursor = GridCursor()
        cursor.move(to: 4, total: 10)
        cursor.follow = 77
        let first = cursor.takeFollow(current: 12)
        let second = cursor.takeFollow(current: 12)
        #expect(first == 77)
        #expect(second == 12)  // asked for once
        cursor.land(on: 9, total: 10)
        #expect(cursor.position == 9)
        cursor.land(on: nil, total: 6)  // the photo left: kept within the view
        #expect(cursor.position == 6)
        cursor.land(on: nil, total: 0)
        #expect(cursor.position == 0)
    }
}
