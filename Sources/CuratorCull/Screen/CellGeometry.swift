// SPDX-License-Identifier: GPL-2.0-or-later

/// The size of a photo's cell in the grid: its picture, a frame around it (the
/// cursor's, the selection's), and a caption line under it.
struct CellGeometry: Equatable {
    var artColumns: Int
    var artRows: Int

    /// `+` and `-` step through these; the second is the default (5 columns at 80).
    static let levels = [
        CellGeometry(artColumns: 8, artRows: 3),
        CellGeometry(artColumns: 12, artRows: 5),
        CellGeometry(artColumns: 18, artRows: 8),
        CellGeometry(artColumns: 26, artRows: 12),
    ]

    /// Frame on both sides and a column between cells.
    var width: Int { artColumns + 3 }
    /// Frame above and below, and the caption.
    var height: Int { artRows + 3 }

    func columns(in screenWidth: Int) -> Int { max(1, (screenWidth - 1) / width) }
}
