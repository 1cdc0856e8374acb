// SPDX-License-Identifier: GPL-2.0-or-later

/// Fills words into lines for the help, at 80 columns.
enum TextWrapper {
    static let width = 80

    /// The atoms (words, or `[--limit N]` kept whole) in lines: the first starts at
    /// column `first`, the others at `indent`; a line holds what fits in `width`
    /// (an atom longer than that has a line of its own). No indentation is added.
    static func fill(_ atoms: [String], first: Int = 0, indent: Int = 0, width: Int = width) -> [String] {
        var lines: [String] = []
        var line = ""
        var column = first
        for atom in atoms where !atom.isEmpty {
            if line.isEmpty {
                line = atom
            } else if column + line.count + 1 + atom.count <= width {
                line += " " + atom
            } else {
                lines.append(line)
                line = atom
                column = indent
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// Each line of `text` (an explicit newline is kept) filled to the width.
    static func wrap(_ text: String, first: Int = 0, indent: Int = 0, width: Int = width) -> [String] {
        var lines: [String] = []
        for (number, paragraph) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = paragraph.split(separator: " ").map(String.init)
            lines += fill(words, first: number == 0 ? first : indent, indent: indent, width: width)
        }
        return lines
    }
}
