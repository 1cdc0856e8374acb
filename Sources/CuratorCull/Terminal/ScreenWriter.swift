// SPDX-License-Identifier: GPL-2.0-or-later

/// Sends a frame as the difference from the one before: the rows that changed,
/// each written whole from its first changed cell, and the images whose place or
/// picture changed. A frame is one write(2), so the terminal never shows half of it.
struct ScreenWriter {
    var trueColor: Bool
    private var previous: ScreenBuffer?

    init(trueColor: Bool) { self.trueColor = trueColor }

    /// Forget what the terminal shows (after a resize, a suspension, an overlay of
    /// images): the next frame is sent whole.
    mutating func invalidate() { previous = nil }

    mutating func frame(_ buffer: ScreenBuffer, kittyImages: Bool) -> [UInt8] {
        var out: [UInt8] = []
        let whole = previous == nil || previous?.width != buffer.width || previous?.height != buffer.height
        if whole { out += Array("\u{1B}[0m\u{1B}[2J".utf8) }
        var style: CellStyle?
        for y in 0..<buffer.height {
            var x = 0
            while x < buffer.width {
                let cell = buffer.cell(x, y)
                if cell.image || (!whole && previous?.cell(x, y) == cell) {
                    x += 1
                    continue
                }
                // Changed: write from here to the end of the changed stretch.
                out += Array("\u{1B}[\(y + 1);\(x + 1)H".utf8)
                while x < buffer.width {
                    let c = buffer.cell(x, y)
                    if c.image { break }
                    if !whole, previous?.cell(x, y) == c, Self.unchangedAhead(buffer, previous, x, y) { break }
                    if let character = c.character {
                        if style != c.style {
                            out += sgr(c.style)
                            style = c.style
                        }
                        out += Array(String(character).utf8)
                    }
                    x += 1
                }
            }
        }
        let images = buffer.images
        let before = whole ? [] : (previous?.images ?? [])
        if kittyImages, images != before {
            // Kitty keeps placements over the text: clear them all, place them again.
            out += Array(Terminal.kittyDeleteAll.utf8)
            for image in images { out += place(image) }
        } else {
            for image in images where !before.contains(image) { out += place(image) }
        }
        out += Array("\u{1B}[0m".utf8)
        previous = buffer
        return out
    }

    /// Whether the next few cells are unchanged too (then the run stops here rather
    /// than rewrite them; a single unchanged cell is cheaper to write than to skip).
    private static func unchangedAhead(_ buffer: ScreenBuffer, _ previous: ScreenBuffer?, _ x: Int, _ y: Int) -> Bool {
        guard let previous else { return false }
        for dx in 0..<4 where x + dx < buffer.width {
            if previous.cell(x + dx, y) != buffer.cell(x + dx, y) { return false }
        }
        return true
    }

    private func place(_ image: ImagePlacement) -> [UInt8] {
        Array("\u{1B}[0m\u{1B}[\(image.row + 1);\(image.column + 1)H".utf8) + image.sequence
    }

    func sgr(_ style: CellStyle) -> [UInt8] {
        var codes = ["0"]
        if style.bold { codes.append("1") }
        if style.dim { codes.append("2") }
        if style.underline { codes.append("4") }
        if style.reverse { codes.append("7") }
        codes += color(style.foreground, base: 38)
        codes += color(style.background, base: 48)
        return Array("\u{1B}[\(codes.joined(separator: ";"))m".utf8)
    }

    private func color(_ color: TerminalColor, base: Int) -> [String] {
        switch color {
        case .standard: []
        case .indexed(let n): ["\(base)", "5", "\(n)"]
        case .rgb(let r, let g, let b):
            trueColor ? ["\(base)", "2", "\(r)", "\(g)", "\(b)"] : ["\(base)", "5", "\(Self.nearestIndexed(r, g, b))"]
        }
    }

    /// The xterm 256-colour index nearest an RGB colour (the 6x6x6 cube or the grey ramp).
    static func nearestIndexed(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> UInt8 {
        func level(_ v: UInt8) -> Int { v < 48 ? 0 : v < 115 ? 1 : (Int(v) - 35) / 40 }
        let levels = [0, 95, 135, 175, 215, 255]
        let (lr, lg, lb) = (level(r), level(g), level(b))
        let cube = 16 + 36 * lr + 6 * lg + lb
        let cubeDistance = [(Int(r), levels[lr]), (Int(g), levels[lg]), (Int(b), levels[lb])].reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }
        let average = (Int(r) + Int(g) + Int(b)) / 3
        let greyIndex = average > 238 ? 23 : max(0, (average - 3) / 10)
        let grey = 8 + 10 * greyIndex
        let greyDistance = [Int(r), Int(g), Int(b)].reduce(0) { $0 + ($1 - grey) * ($1 - grey) }
        return UInt8(greyDistance < cubeDistance ? 232 + greyIndex : cube)
    }
}
