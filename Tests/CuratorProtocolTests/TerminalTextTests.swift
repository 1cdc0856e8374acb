// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import Testing

/// Names are shown on a terminal escaped (issue 54, item 8): no control character
/// of a name ever reaches the terminal, and each is shown the same visible way.
struct TerminalTextTests {
    static let hostile = "IMG\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[H\nroot/fake.jpg  1.0 kB\r\u{9B}2J\u{7F}\\x1B.jpg"

    @Test func controlCharactersAreShownNotObeyed() {
        let shown = TerminalText.escaped(Self.hostile)
        #expect(shown == #"IMG\x1B]0;pwned\x07\x1B[2J\x1B[H\x0Aroot/fake.jpg  1.0 kB\x0D\u009B2J\x7F\x1B.jpg"#)
        #expect(!shown.unicodeScalars.contains { $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) })
        #expect(Self.hostile.forTerminal == shown)
    }

    @Test func ordinaryNamesAreShownAsTheyAre() {
        for name in ["IMG_0001.JPG", "2024 été/Photo (1).heic", "写真.jpg", "\u{FFFD}bad.jpg", #"\xc3\xa9t\xc3\xa9.jpg"#, ""] {
            #expect(TerminalText.escaped(name) == name)
        }
    }

    @Test func everyC0AndC1CharacterIsEscaped() {
        for value in Array(0x00..<0x20) + [0x7F] + Array(0x80..<0xA0) {
            let scalar = Unicode.Scalar(UInt32(value))!
            let shown = TerminalText.escaped("a" + String(scalar) + "b")
            #expect(shown.hasPrefix("a\\") && shown.hasSuffix("b") && shown.count > 3, "U+\(String(value, radix: 16))")
        }
    }

    @Test func aMessageKeepsItsLineBreaksOnly() {
        #expect(TerminalText.escapedLines("one \u{1B}[2J\ntwo") == "one \\x1B[2J\ntwo")
    }
}
