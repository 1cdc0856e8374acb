// SPDX-License-Identifier: GPL-2.0-or-later

/// A key as the grid reads it.
public enum Key: Equatable, Sendable {
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace, tab, space
    /// Ctrl and a letter (Ctrl-C is `.control("c")`).
    case control(Character)
}

/// Turns the bytes a terminal sends into keys: plain characters (UTF-8), control
/// characters, and the escape sequences of the arrows and paging keys in both their
/// forms (`ESC [ A` and the application mode's `ESC O A`). A sequence cut between two
/// reads is kept for the next; a lone ESC is the Escape key once `flush` says no more
/// came with it.
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// Whether bytes are held back (an ESC that may start a sequence).
    public var isHolding: Bool { !pending.isEmpty }

    public mutating func feed(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            guard let (key, length) = Self.decode(pending, at: index) else { break }
            if let key { keys.append(key) }
            index += length
        }
        pending.removeFirst(index)
        return keys
    }

    /// What is held back, as keys: an ESC alone is Escape.
    public mutating func flush() -> [Key] {
        defer { pending = [] }
        guard !pending.isEmpty else { return [] }
        var keys: [Key] = [.escape]
        var rest = KeyDecoder()
        keys += rest.feed(Array(pending.dropFirst()))
        return keys
    }

    /// The key at `index` and its length; nil when the bytes there are incomplete.
    /// A nil key with a length skips bytes that mean nothing here.
    static func decode(_ bytes: [UInt8], at index: Int) -> (Key?, Int)? {
        let byte = bytes[index]
        switch byte {
        case 0x1B:
            return escape(bytes, at: index)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x09: return (.tab, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x20: return (.space, 1)
        case 0x01...0x1A: return (.control(Character(Unicode.Scalar(byte + 0x60))), 1)
        case 0x00...0x1F: return (nil, 1)
        case 0x21...0x7E: return (.character(Character(Unicode.Scalar(byte))), 1)
        default:
            // UTF-8: the length from the lead byte; an invalid byte is skipped.
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            if length == 1 { return (nil, 1) }
            guard index + length <= bytes.count else { return nil }
            let text = String(decoding: bytes[index..<index + length], as: UTF8.self)
            guard let character = text.first, text.count == 1, character != "\u{FFFD}" else { return (nil, length) }
            return (.character(character), length)
        }
    }

    private static func escape(_ bytes: [UInt8], at index: Int) -> (Key?, Int)? {
        guard index + 1 < bytes.count else { return nil }
        let second = bytes[index + 1]
        guard second == UInt8(ascii: "[") || second == UInt8(ascii: "O") else {
            // ESC then anything else (Alt+key, ESC ESC): Escape, and the rest as it comes.
            return (.escape, 1)
        }
        // CSI: parameters and intermediates up to a final byte 0x40-0x7E.
        var end = index + 2
        while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) {
            end += 1
            if end - index > 32 { return (nil, end - index) }
        }
        guard end < bytes.count else { return nil }
        let final = bytes[end]
        let parameters = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
        let length = end - index + 1
        let key: Key? = switch (final, parameters) {
        case (UInt8(ascii: "A"), _): .up
        case (UInt8(ascii: "B"), _): .down
        case (UInt8(ascii: "C"), _): .right
        case (UInt8(ascii: "D"), _): .left
        case (UInt8(ascii: "H"), _): .home
        case (UInt8(ascii: "F"), _): .end
        case (UInt8(ascii: "~"), "5"): .pageUp
        case (UInt8(ascii: "~"), "6"): .pageDown
        case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): .home
        case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): .end
        default: nil
        }
        return (key, length)
    }
}
