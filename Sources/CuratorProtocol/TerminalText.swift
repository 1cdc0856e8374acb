// SPDX-License-Identifier: GPL-2.0-or-later

/// Text that came from elsewhere (a file name, a root's path, a daemon's message)
/// made safe to show on a terminal. A file name may hold any byte but `/` and NUL:
/// printed raw, a user's name for a photo sets another user's terminal title (OSC),
/// clears the screen (CSI), or ends a line and fakes the next. Every control
/// character is shown instead, visibly and always the same way: C0 and DEL as
/// `\xHH` (ESC is `\x1B`, a newline `\x0A`), C1 as `\u00HH` (the one-character
/// CSI, U+009B, is `\u009B`). Everything else, the backslash and non-ASCII letters
/// included, is shown as it is: a name that spells `\x1B` with a backslash looks
/// like an escaped ESC, but what people read is the name they can type (gio's
/// restored names are such), and nothing in it acts on the terminal. The CLI and
/// the terminal view print every name through this.
public enum TerminalText {
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if value < 0x20 || value == 0x7F {
                shown.append(contentsOf: ("\\x" + hex(value, digits: 2)).unicodeScalars)
            } else if (0x80..<0xA0).contains(value) {
                shown.append(contentsOf: ("\\u" + hex(value, digits: 4)).unicodeScalars)
            } else {
                shown.append(scalar)
            }
        }
        return String(shown)
    }

    /// Like `escaped`, for a message of several lines: its line breaks stay.
    public static func escapedLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }.joined(separator: "\n")
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return value < 0x20 || (0x7F..<0xA0).contains(value)
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

extension String {
    /// This text as a terminal may show it (`TerminalText.escaped`).
    public var forTerminal: String { TerminalText.escaped(self) }
}
