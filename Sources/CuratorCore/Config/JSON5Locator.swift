// SPDX-License-Identifier: GPL-2.0-or-later

/// Finds where a JSON5 text first goes wrong, for the error message of a
/// configuration file that does not parse: the decoder only says "The given data
/// was not valid JSON.", and a person editing /etc/curatord/curatord.json5 needs
/// the line and column. It is a checker, not a parser: it is asked only after the
/// decoder refused the text, and says nil when it finds nothing (the decoder's
/// words are then used).
struct JSON5Locator {
    struct Problem: Equatable, CustomStringConvertible {
        var line: Int
        var column: Int
        var message: String
        var description: String { "line \(line), column \(column): \(message)" }
    }

    private let text: [UInt8]
    private var at = 0
    /// Deep nesting stops the walk rather than the stack.
    private var depth = 0

    private struct Stop: Error { let problem: Problem }

    static func firstProblem(in text: [UInt8]) -> Problem? {
        var locator = JSON5Locator(text: text)
        do {
            try locator.skipSpace()
            try locator.value()
            try locator.skipSpace()
            if locator.at < text.count { throw locator.stop("unexpected \(locator.found) after the end of the configuration") }
            return nil
        } catch {
            return (error as? Stop)?.problem
        }
    }

    private init(text: [UInt8]) { self.text = text }

    // MARK: values

    private mutating func value() throws {
        depth += 1
        defer { depth -= 1 }
        guard depth < 200 else { throw stop("nested too deeply") }
        guard let byte = peek else { throw stop("the text ends where a value should be") }
        switch byte {
        case UInt8(ascii: "{"): try object()
        case UInt8(ascii: "["): try array()
        case UInt8(ascii: "\""), UInt8(ascii: "'"): try string()
        case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default:
            for word in ["true", "false", "null", "Infinity", "NaN"] where matches(word) {
                at += word.utf8.count
                return
            }
            throw stop("expected a value (an object, array, string, number, true, false or null), found \(found)")
        }
    }

    private mutating func object() throws {
        try sequence(closing: UInt8(ascii: "}"), in: "an object") { me in
            try me.key()
            try me.skipSpace()
            guard me.peek == UInt8(ascii: ":") else { throw me.stop("expected ':' after a key, found \(me.found)") }
            me.at += 1
            try me.skipSpace()
            try me.value()
        }
    }

    private mutating func array() throws {
        try sequence(closing: UInt8(ascii: "]"), in: "an array") { me in try me.value() }
    }

    /// The elements between an opening bracket (at the current position) and
    /// `closing`, separated by commas, a trailing comma allowed.
    private mutating func sequence(closing: UInt8, in what: String, element: (inout JSON5Locator) throws -> Void) throws {
        at += 1
        try skipSpace()
        if peek == closing { at += 1; return }
        while true {
            try element(&self)
            try skipSpace()
            switch peek {
            case UInt8(ascii: ","):
                at += 1
                try skipSpace()
                if peek == closing { at += 1; return }
            case closing:
                at += 1
                return
            default:
                throw stop("expected ',' or '\(Character(UnicodeScalar(closing)))' after a value in \(what), found \(found)")
            }
        }
    }

    /// A quoted string or an identifier (letters, digits, `_`, `$`, any non-ASCII).
    private mutating func key() throws {
        guard let byte = peek else { throw stop("the text ends where a key should be") }
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { return try string() }
        guard Self.startsIdentifier(byte) else { throw stop("expected a key (a name or a quoted string), found \(found)") }
        while let next = peek, Self.continuesIdentifier(next) { at += 1 }
    }

    private mutating func string() throws {
        let quote = text[at]
        let start = at
        at += 1
        while let byte = peek {
            at += 1
            if byte == quote { return }
            if byte == UInt8(ascii: "\\") {
                guard peek != nil else { break }
                at += 1  // any escaped character, a line continuation included
            } else if byte == 0x0A || byte == 0x0D {
                at -= 1
                throw stop("a string may not go on to the next line (end it, or end the line with \\)")
            }
        }
        at = start
        throw stop("this string is never closed")
    }

    private mutating func number() throws {
        let start = at
        if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { at += 1 }
        for word in ["Infinity", "NaN"] where matches(word) {
            at += word.utf8.count
            return
        }
        if matches("0x") || matches("0X") {
            at += 2
            let digits = at
            while let byte = peek, byte.isHexDigit { at += 1 }
            if at == digits { throw stop("expected hexadecimal digits after 0x") }
            return
        }
        var digits = 0
        while let byte = peek, byte.isDigit { at += 1; digits += 1 }
        if peek == UInt8(ascii: ".") {
            at += 1
            while let byte = peek, byte.isDigit { at += 1; digits += 1 }
        }
        if digits == 0 {
            at = start
            throw stop("expected a number, found \(found)")
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            at += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { at += 1 }
            let exponent = at
            while let byte = peek, byte.isDigit { at += 1 }
            if at == exponent { throw stop("expected the digits of an exponent, found \(found)") }
        }
    }

    // MARK: space and comments

    private mutating func skipSpace() throws {
        while let byte = peek {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C:
                at += 1
            case UInt8(ascii: "/") where at + 1 < text.count && text[at + 1] == UInt8(ascii: "/"):
                while let next = peek, next != 0x0A { at += 1 }
            case UInt8(ascii: "/") where at + 1 < text.count && text[at + 1] == UInt8(ascii: "*"):
                let start = at
                at += 2
                while at + 1 < text.count && !(text[at] == UInt8(ascii: "*") && text[at + 1] == UInt8(ascii: "/")) { at += 1 }
                guard at + 1 < text.count else {
                    at = start
                    throw stop("this comment is never closed (*/)")
                }
                at += 2
            default:
                return
            }
        }
    }

    // MARK: helpers

    private var peek: UInt8? { at < text.count ? text[at] : nil }

    private func matches(_ word: String) -> Bool {
        let bytes = Array(word.utf8)
        return at + bytes.count <= text.count && Array(text[at..<at + bytes.count]) == bytes
    }

    /// What stands at the current position, for a message.
    private var found: String {
        guard let byte = peek else { return "the end of the text" }
        if byte < 0x20 { return "a control character" }
        if byte >= 0x80 { return "a non-ASCII character" }
        return "'\(Character(UnicodeScalar(byte)))'"
    }

    private func stop(_ message: String) -> Stop {
        var line = 1
        var column = 1
        for byte in text[..<min(at, text.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // count characters, not UTF-8 continuation bytes
                column += 1
            }
        }
        return Stop(problem: Problem(line: line, column: column, message: message))
    }

    private static func startsIdentifier(_ byte: UInt8) -> Bool {
        byte.isLetter || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
    }

    private static func continuesIdentifier(_ byte: UInt8) -> Bool { startsIdentifier(byte) || byte.isDigit }
}

extension UInt8 {
    fileprivate var isDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
    fileprivate var isLetter: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
    }
    fileprivate var isHexDigit: Bool {
        isDigit || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
