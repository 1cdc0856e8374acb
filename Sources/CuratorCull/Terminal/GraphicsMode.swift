// SPDX-License-Identifier: GPL-2.0-or-later
import CChafa
import CTerminalGuard
import FoundationEssentials
import Glibc

/// How the grid draws pictures: Unicode blocks with colours (any terminal, tmux
/// and plain SSH included), or the terminal's own images.
public enum GraphicsMode: String, CaseIterable, Sendable {
    case symbols, sixel, kitty, iterm2

    var chafaPixelMode: ChafaPixelMode {
        switch self {
        case .symbols: CHAFA_PIXEL_MODE_SYMBOLS
        case .sixel: CHAFA_PIXEL_MODE_SIXELS
        case .kitty: CHAFA_PIXEL_MODE_KITTY
        case .iterm2: CHAFA_PIXEL_MODE_ITERM2
        }
    }

    /// What the environment says the terminal can show. Inside tmux or screen, text:
    /// they pass no images through by default. Else libchafa's database of terminals
    /// for kitty and iTerm2 images (by TERM, TERM_PROGRAM, ...); nil when the
    /// terminal must be asked whether it has sixels (`answerListsSixels`).
    static func fromEnvironment(_ environment: [String: String]) -> GraphicsMode? {
        let term = environment["TERM"] ?? ""
        if environment["TMUX"] != nil || term.hasPrefix("screen") || term.hasPrefix("tmux") { return .symbols }
        if term == "dumb" || term.isEmpty { return .symbols }
        if environment["KITTY_WINDOW_ID"] != nil || term == "xterm-kitty" { return .kitty }
        if environment["TERM_PROGRAM"] == "iTerm.app" { return .iterm2 }
        let db = chafa_term_db_get_default()
        guard let info = chafa_term_db_detect(db, terminal_guard_environment()) else { return nil }
        defer { chafa_term_info_unref(info) }
        if chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1) != 0 { return .kitty }
        if chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_ITERM2_IMAGE) != 0 { return .iterm2 }
        // Sixels are asked of the terminal itself: xterm has them only as a VT340.
        return nil
    }

    /// Whether an answer to `ESC [ c` (primary device attributes) lists sixel graphics (4).
    static func answerListsSixels(_ answer: [UInt8]) -> Bool {
        let text = String(decoding: answer, as: UTF8.self)
        guard let start = text.firstRange(of: "\u{1B}[?"), let end = text[start.upperBound...].firstIndex(of: "c") else { return false }
        return text[start.upperBound..<end].split(separator: ";").contains("4")
    }
}
