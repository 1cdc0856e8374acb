// SPDX-License-Identifier: GPL-2.0-or-later

/// Reading the simple values tools write: numbers as text (`4`, `4.0`, ` 75 `) and
/// XMP booleans (`True`). Whatever does not read as one is as if absent.
enum XMPValue {
    static func trimmed(_ text: String) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else {
            return text[text.endIndex...]
        }
        return text[first...last]
    }

    /// A finite number; XMP's Real and Integer both read here.
    static func number(_ text: String?) -> Double? {
        guard let text, let value = Double(trimmed(text)), value.isFinite else { return nil }
        return value
    }

    /// A whole number within `range`; nil for a fraction or anything outside.
    static func integer(_ text: String?, in range: ClosedRange<Int>) -> Int? {
        guard let value = number(text), value == value.rounded(), value >= Double(range.lowerBound),
              value <= Double(range.upperBound) else { return nil }
        return Int(value)
    }

    /// XMP's Boolean is `True` or `False`; Photo Mechanic and others also write 1 and 0.
    static func boolean(_ text: String?) -> Bool? {
        guard let text else { return nil }
        switch trimmed(text).lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: return nil
        }
    }
}
