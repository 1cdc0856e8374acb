// SPDX-License-Identifier: GPL-2.0-or-later

/// One character cell of the screen.
struct ScreenCell: Equatable {
    /// Empty for the right half of a wide character.
    var character: Character?
    var style: CellStyle
    /// Covered by an image (sixel, kitty, iTerm2): the writer leaves it alone.
    var image: Bool

    static let blank = ScreenCell(character: " ", style: .plain, image: false)
}

/// A picture placed over a rectangle of cells, in the terminal's own image format.
struct ImagePlacement: Equatable {
    var column: Int
    var row: Int
    var width: Int
    var height: Int
    /// What the picture is (photo and size): equal keys need not be sent again.
    var key: String
    var sequence: [UInt8]
}

/// What the screen should show, drawn anew for every frame: characters with their
/// styles, and the images over some cells. `ScreenWriter` sends the difference.
struct ScreenBuffer {
    let width: Int
    let height: Int
    private(set) var cells: [ScreenCell]
    var images: [ImagePlacement] = []

    init(width: Int, height: Int) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    func cell(_ x: Int, _ y: Int) -> ScreenCell { cells[y * width + x] }

    mutating func set(_ x: Int, _ y: Int, _ cell: ScreenCell) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        cells[y * width + x] = cell
    }

    /// Writes text from (x, y), clipped to `limit` columns (and the screen); returns
    /// the columns used. A wide character that does not fit is left out.
    @discardableResult
    mutating func put(_ x: Int, _ y: Int, _ text: String, _ style: CellStyle = .plain, limit: Int = .max) -> Int {
        guard y >= 0, y < height else { return 0 }
        var column = x
        let end = limit >= width ? width : min(width, x + max(0, limit))
        for character in text {
            let w = DisplayWidth.of(character)
            if w == 0 { continue }
            if column + w > end { break }
            set(column, y, ScreenCell(character: character, style: style, image: false))
            if w == 2 { set(column + 1, y, ScreenCell(character: nil, style: style, image: false)) }
            column += w
        }
        return column - x
    }

    mutating func fill(_ x: Int, _ y: Int, _ w: Int, _ h: Int, _ character: Character = " ", _ style: CellStyle = .plain) {
        for row in max(0, y)..<min(height, y + h) where w > 0 {
            for column in max(0, x)..<min(width, x + w) {
                set(column, row, ScreenCell(character: character, style: style, image: false))
            }
        }
    }

    /// Puts an image over cells; they are left to it.
    mutating func place(_ image: ImagePlacement) {
        for row in max(0, image.row)..<min(height, image.row + image.height) {
            for column in max(0, image.column)..<min(width, image.column + image.width) {
                cells[row * width + column] = ScreenCell(character: " ", style: .plain, image: true)
            }
        }
        images.append(image)
    }

    /// The characters of a row, as `tmux capture-pane` shows them (for tests).
    func text(row: Int) -> String {
        var line = ""
        for x in 0..<width { if let c = cell(x, row).character { line.append(c) } }
        return line
    }
}
