// SPDX-License-Identifier: GPL-2.0-or-later

/// What a contact sheet's options may be, checked alike by `curatorctl sheet` and
/// `curatord-thumbnailer sheet` before anything is drawn: a page is one image in
/// memory, so its size is bounded, and a person who typed a value out of range is
/// told which and why (exit status 2) rather than meeting a crash.
public enum SheetLimits {
    /// A cell's side, pixels: below, a caption no longer fits; above, the largest
    /// thumbnail (xx-large) would be blown up.
    public static let cell = 48...1024
    public static let columns = 1...64
    /// The most columns times the cell may be, pixels: about a page's width, which
    /// times its height is what one page takes in memory.
    public static let rowPixels = 16384
    public static let maxPageHeight = 200...16384
    /// How long `curatorctl sheet` waits for thumbnails still being made, seconds.
    public static let wait = 0...3600

    /// What is wrong with these options, in a sentence naming the option; nil when
    /// they may be drawn.
    public static func problem(columns: Int, cell: Int, maxPageHeight: Int? = nil) -> String? {
        if !Self.columns.contains(columns) {
            return "--columns must be \(Self.columns.lowerBound) to \(Self.columns.upperBound), not \(columns)"
        }
        if !Self.cell.contains(cell) {
            return "--cell must be \(Self.cell.lowerBound) to \(Self.cell.upperBound) pixels, not \(cell)"
        }
        if columns * cell > rowPixels {
            return "\(columns) columns of \(cell)-pixel cells make a row of \(columns * cell) pixels, more than \(rowPixels): "
                + "fewer --columns or a smaller --cell"
        }
        if let maxPageHeight, !Self.maxPageHeight.contains(maxPageHeight) {
            return "--max-page-height must be \(Self.maxPageHeight.lowerBound) to \(Self.maxPageHeight.upperBound) pixels, "
                + "not \(maxPageHeight)"
        }
        return nil
    }
}
