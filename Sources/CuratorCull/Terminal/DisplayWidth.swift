// SPDX-License-Identifier: GPL-2.0-or-later

/// How many columns a terminal gives a character: 2 for East Asian wide and emoji
/// presentation characters, 0 for controls, else 1 (what wcwidth says for the cases
/// file names hold).
enum DisplayWidth {
    static func of(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        let v = scalar.value
        if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
        if v < 0x1100 { return 1 }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
        ]
        return wide.contains { $0.contains(v) } ? 2 : 1
    }

    static func of(_ text: String) -> Int { text.reduce(0) { $0 + of($1) } }

    /// The text cut to `width` columns, with an ellipsis when something was cut.
    static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        var result = ""
        var used = 0
        for character in text {
            let w = of(character)
            if used + w > width - 1 { break }
            result.append(character)
            used += w
        }
        return result + "…"
    }

    /// The end of the text, cut from the left to `width` columns (paths: the file name matters).
    static func truncateLeft(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        var result = ""
        var used = 0
        for character in text.reversed() {
            let w = of(character)
            if used + w > width - 1 { break }
            result.insert(character, at: result.startIndex)
            used += w
        }
        return "…" + result
    }
}
