// SPDX-License-Identifier: GPL-2.0-or-later

/// Where the grid is looked at: the position under the cursor, the row at the top of
/// the screen, and the photo the cursor goes back to when a new shape comes.
struct GridCursor {
    /// 1-based position in the view; 0 when the view is empty.
    var position = 1
    /// The grid row (heading or photos) drawn first.
    private(set) var top = 0
    /// The photo the cursor goes to when the next shape comes (after a view change).
    var follow: Int64?

    mutating func move(to target: Int, total: Int) {
        guard total > 0 else { return }
        position = min(max(target, 1), total)
    }

    mutating func moveVertically(_ delta: Int, in layout: GridLayout?) {
        guard let layout, let target = layout.vertical(from: position, by: delta) else { return }
        position = target
    }

    /// `rows` rows of photos down (1) or up (-1), keeping the column; past the end,
    /// the last photo (or the first).
    mutating func movePage(_ direction: Int, rows: Int, in layout: GridLayout?, total: Int) {
        guard let layout else { return }
        for _ in 0..<max(1, rows) {
            guard let target = layout.vertical(from: position, by: direction) else {
                if direction > 0 { position = total } else { position = min(position, 1) }
                break
            }
            position = target
        }
    }

    /// Scrolls so that the cursor's row is on screen, with its heading when it is the
    /// folder's first row, in `lines` lines of cells `cellHeight` high.
    mutating func keepVisible(_ layout: GridLayout, lines: Int, cellHeight: Int) {
        guard let place = layout.place(of: position) else { return }
        let wanted = place.row - 1 >= 0 && layout.row(place.row - 1).map { if case .heading = $0 { true } else { false } } == true
            ? place.row - 1 : place.row
        if wanted < top { top = wanted }
        // Down: the cursor's row must end above the status bar. The highest top that
        // shows it is found walking up from its row (a screenful of rows, not every
        // row from the old top: G in a large view would cross all of them).
        var lowest = place.row
        var used = cellHeight
        while lowest > 0 {
            let above: Int
            if case .heading? = layout.row(lowest - 1) { above = 1 } else { above = cellHeight }
            guard used + above <= lines else { break }
            used += above
            lowest -= 1
        }
        if top < lowest { top = lowest }
        top = min(max(0, top), max(0, layout.rowCount - 1))
    }

    /// The photo to keep under the cursor across the next listing of the shape: the
    /// one asked for, else the one there now. Asked for once.
    mutating func takeFollow(current: Int64?) -> Int64? {
        defer { follow = nil }
        return follow ?? current
    }

    /// A new shape: the cursor on `found` (where the photo it was on is now), else
    /// kept within the view; 0 in an empty view.
    mutating func land(on found: Int?, total: Int) {
        if let found {
            position = found
        } else {
            position = min(max(position, 1), total)
        }
        if total == 0 { position = 0 }
    }
}
