// SPDX-License-Identifier: GPL-2.0-or-later

/// The grid's shape on the screen: the cell size (`+` and `-` step through
/// `CellGeometry.levels`) and the layout of the view's folder runs in as many
/// columns as the terminal holds, kept until the width, the cells or the runs change.
struct GridGeometry {
    /// The index of the cell size in `CellGeometry.levels`.
    private(set) var level = 1
    private var cached: GridLayout?

    var cell: CellGeometry { CellGeometry.levels[min(max(level, 0), CellGeometry.levels.count - 1)] }

    /// `+` (1) or `-` (-1): bigger or smaller cells, within the levels there are.
    mutating func zoom(by delta: Int) {
        level = min(max(level + delta, 0), CellGeometry.levels.count - 1)
        cached = nil
    }

    /// The terminal was resized: the layout is made again.
    mutating func invalidate() { cached = nil }

    /// The layout of `runs` in a screen `screenColumns` wide; nil for an empty view.
    mutating func layout(runs: [FolderRun], screenColumns: Int) -> GridLayout? {
        let columns = cell.columns(in: screenColumns)
        if let cached, cached.columns == columns, cached.runs == runs { return cached }
        guard !runs.isEmpty else { return nil }
        let layout = GridLayout(runs: runs, columns: columns)
        cached = layout
        return layout
    }

    /// Lines between the title bar and the status bar.
    static func gridLines(screenRows: Int) -> Int { max(1, screenRows - 2) }

    /// Rows of photos a screen shows whole (what PgUp and PgDn move by).
    func visiblePhotoRows(screenRows: Int) -> Int { max(1, (Self.gridLines(screenRows: screenRows) - 1) / cell.height) }
}
