// SPDX-License-Identifier: GPL-2.0-or-later

/// A colour as the terminal is told it: its own default, one of the 256 indexed
/// colours, or 24-bit (written as the nearest indexed colour where the terminal has
/// no true colour).
public enum TerminalColor: Hashable, Sendable {
    case standard
    case indexed(UInt8)
    case rgb(UInt8, UInt8, UInt8)

    init(packed: UInt32) {
        self = .rgb(UInt8((packed >> 16) & 0xFF), UInt8((packed >> 8) & 0xFF), UInt8(packed & 0xFF))
    }
}

/// How a character cell looks.
public struct CellStyle: Hashable, Sendable {
    public var foreground: TerminalColor = .standard
    public var background: TerminalColor = .standard
    public var bold = false
    public var dim = false
    public var reverse = false
    public var underline = false

    public init(foreground: TerminalColor = .standard, background: TerminalColor = .standard, bold: Bool = false,
                dim: Bool = false, reverse: Bool = false, underline: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    public static let plain = CellStyle()
}

/// The grid's palette: seed 002's crimson badge, the cursor's frame, dimmed protected photos.
enum Palette {
    static let crimson = TerminalColor.rgb(162, 32, 58)
    static let white = TerminalColor.rgb(255, 255, 255)
    static let cursor = TerminalColor.rgb(250, 200, 60)
    static let heading = TerminalColor.rgb(120, 180, 255)
    static let muted = TerminalColor.rgb(140, 140, 140)
    static let bar = TerminalColor.rgb(40, 40, 48)
    static let warning = TerminalColor.rgb(255, 120, 90)
    static let stacked = TerminalColor.rgb(36, 92, 156)

    static let badge = CellStyle(foreground: white, background: crimson, bold: true)
    static let selectedFrame = CellStyle(foreground: crimson, bold: true)
    static let cursorFrame = CellStyle(foreground: cursor, bold: true)
    static let headingText = CellStyle(foreground: heading, bold: true)
    static let mutedText = CellStyle(foreground: muted)
    static let statusBar = CellStyle(foreground: white, background: bar)
    static let warningBar = CellStyle(foreground: white, background: crimson, bold: true)
    /// A stack's count, apart from the selection's crimson.
    static let stackBadge = CellStyle(foreground: white, background: stacked, bold: true)
    /// A photo's marks on its cell (`drawMarks`).
    static let stars = CellStyle(foreground: rgb(255, 205, 60), bold: true)
    static let pickMark = CellStyle(foreground: rgb(235, 235, 235), bold: true)
    static let rejectMark = CellStyle(foreground: rgb(255, 80, 80), bold: true)
    static let label: [String: TerminalColor] = [
        "red": rgb(230, 60, 60), "yellow": rgb(240, 210, 60), "green": rgb(80, 200, 90), "blue": rgb(70, 130, 240),
        "purple": rgb(170, 90, 220),
    ]
    private static func rgb(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> TerminalColor { .rgb(r, g, b) }
}
