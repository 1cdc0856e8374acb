// SPDX-License-Identifier: GPL-2.0-or-later

/// The numbers of a request line that are not written as integers (`1.0`, `1e2`,
/// `1e-999`, `-0.0`), by the path of their key. JSONDecoder reads any of those as
/// an integer when its value is one (`1e-999` underflows to 0, `-0.0` is 0): only the
/// line still says how a number was written, so it is read once more for that.
///
/// Paths are written as `IntegerArguments` writes a decoder's coding path: keys as
/// the request decoder names them (`timeoutMs`), joined by `.`, indices as `[2]`.
/// The scan is lenient: a line that is not JSON is the decoder's to refuse.
public struct NumberLiterals: Sendable, Equatable {
    /// Path -> the literal as written.
    public private(set) var nonIntegers: [String: String] = [:]

    public init(scanning bytes: UnsafeRawBufferPointer) {
        var scanner = Scanner(bytes: bytes)
        scanner.value(depth: 0) { "" }
        nonIntegers = scanner.found
    }

    /// How a path is written: `offset`, `filter.glob`, `ids[2]`.
    static func appending(key: String, to path: String) -> String { path.isEmpty ? key : path + "." + key }
    static func appending(index: Int, to path: String) -> String { path + "[\(index)]" }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var i = 0
        var found: [String: String] = [:]
        /// JSONDecoder refuses deeper lines; nothing is learnt past it.
        static let maxDepth = 512

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        var current: UInt8? { i < bytes.count ? bytes[i] : nil }

        mutating func skipSpace() {
            while let c = current, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { i += 1 }
        }

        /// Scans one value; stops early (leaving `i` where it was) on what is not JSON.
        /// `path` is written out only for a number not written as an integer: a path
        /// string made for every element cost a request of 10 000 ids an allocation each.
        mutating func value(depth: Int, path: () -> String) {
            skipSpace()
            guard let c = current, depth < Self.maxDepth else { return }
            switch c {
            case UInt8(ascii: "{"):
                i += 1
                skipSpace()
                if current == UInt8(ascii: "}") { i += 1; return }
                while true {
                    skipSpace()
                    guard current == UInt8(ascii: "\""), let key = string() else { return }
                    skipSpace()
                    guard current == UInt8(ascii: ":") else { return }
                    i += 1
                    value(depth: depth + 1) { NumberLiterals.appending(key: RequestKeys.decoded(key), to: path()) }
                    skipSpace()
                    guard let next = current else { return }
                    i += 1
                    if next == UInt8(ascii: "}") { return }
                    if next != UInt8(ascii: ",") { return }
                }
            case UInt8(ascii: "["):
                i += 1
                skipSpace()
                if current == UInt8(ascii: "]") { i += 1; return }
                var index = 0
                while true {
                    let before = i
                    let at = index
                    value(depth: depth + 1) { NumberLiterals.appending(index: at, to: path()) }
                    if i == before { return }
                    index += 1
                    skipSpace()
                    guard let next = current else { return }
                    i += 1
                    if next == UInt8(ascii: "]") { return }
                    if next != UInt8(ascii: ",") { return }
                }
            case UInt8(ascii: "\""):
                _ = string()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = i
                var integral = true
                while let d = current, Self.isNumberByte(d) {
                    if d == UInt8(ascii: ".") || d == UInt8(ascii: "e") || d == UInt8(ascii: "E") { integral = false }
                    i += 1
                }
                if !integral { found[path()] = String(decoding: bytes[start..<i], as: UTF8.self) }
            default:
                // true, false, null
                while let d = current, d >= UInt8(ascii: "a") && d <= UInt8(ascii: "z") { i += 1 }
            }
        }

        static func isNumberByte(_ d: UInt8) -> Bool {
            (d >= UInt8(ascii: "0") && d <= UInt8(ascii: "9")) || d == UInt8(ascii: "-") || d == UInt8(ascii: "+")
                || d == UInt8(ascii: ".") || d == UInt8(ascii: "e") || d == UInt8(ascii: "E")
        }

        /// A string at `i` (on its opening quote), unescaped; nil when it does not end.
        mutating func string() -> String? {
            i += 1
            var out: [UInt8] = []
            var pendingHigh: UInt32?
            while let c = current {
                i += 1
                if c == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
                guard c == UInt8(ascii: "\\") else {
                    out.append(c)
                    continue
                }
                guard let e = current else { return nil }
                i += 1
                var scalar: UInt32
                switch e {
                case UInt8(ascii: "b"): scalar = 0x08
                case UInt8(ascii: "f"): scalar = 0x0C
                case UInt8(ascii: "n"): scalar = 0x0A
                case UInt8(ascii: "r"): scalar = 0x0D
                case UInt8(ascii: "t"): scalar = 0x09
                case UInt8(ascii: "u"):
                    guard i + 4 <= bytes.count, let unit = UInt32(String(decoding: bytes[i..<i + 4], as: UTF8.self), radix: 16)
                    else { return nil }
                    i += 4
                    scalar = unit
                default: scalar = UInt32(e)
                }
                if (0xD800..<0xDC00).contains(scalar) {
                    pendingHigh = scalar
                    continue
                }
                if (0xDC00..<0xE000).contains(scalar), let high = pendingHigh {
                    scalar = 0x10000 + ((high - 0xD800) << 10) + (scalar - 0xDC00)
                }
                pendingHigh = nil
                out.append(contentsOf: String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8)
            }
            return nil
        }
    }
}

/// Request keys: snake_case on the wire, camelCase in Swift. The request decoder
/// and `NumberLiterals` convert them with this one function, so that both name a
/// key alike; messages convert back to the wire's spelling.
public enum RequestKeys {
    /// `timeout_ms` -> `timeoutMs`: an underscore before a lowercase letter goes,
    /// the letter is raised. Anything else is kept as written.
    public static func decoded(_ wire: String) -> String {
        let bytes = Array(wire.utf8)
        guard bytes.contains(UInt8(ascii: "_")) else { return wire }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var k = 0
        while k < bytes.count {
            let c = bytes[k]
            if c == UInt8(ascii: "_"), k > 0, k + 1 < bytes.count, bytes[k + 1] >= UInt8(ascii: "a"), bytes[k + 1] <= UInt8(ascii: "z") {
                out.append(bytes[k + 1] - 32)
                k += 2
                continue
            }
            out.append(c)
            k += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `timeoutMs` -> `timeout_ms`, for messages that name a key as a client wrote it.
    public static func wire(_ swift: String) -> String {
        var out: [UInt8] = []
        for c in swift.utf8 {
            if c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") {
                out.append(UInt8(ascii: "_"))
                out.append(c + 32)
            } else {
                out.append(c)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(stringValue: String) { self.stringValue = stringValue }
        init(intValue: Int) {
            stringValue = String(intValue)
            self.intValue = intValue
        }
    }

    /// A coding path as `NumberLiterals` writes paths (Swift names).
    static func path(_ codingPath: [any CodingKey]) -> String {
        var path = ""
        for key in codingPath {
            if let index = key.intValue {
                path = NumberLiterals.appending(index: index, to: path)
            } else {
                path = NumberLiterals.appending(key: key.stringValue, to: path)
            }
        }
        return path
    }

    /// A coding path as a client wrote it: `timeout_ms`, `ids[2]`, `filter.glob`.
    static func wirePath(_ codingPath: [any CodingKey]) -> String {
        var path = ""
        for key in codingPath {
            if let index = key.intValue {
                path = NumberLiterals.appending(index: index, to: path)
            } else {
                path = NumberLiterals.appending(key: wire(key.stringValue), to: path)
            }
        }
        return path
    }
}
