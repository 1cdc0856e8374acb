// SPDX-License-Identifier: GPL-2.0-or-later
import FoundationEssentials
import Glibc

/// A file name or path as the kernel sees it: bytes, not necessarily UTF-8.
/// Every path in the index, the journal and the trash is one of these; text
/// conversion happens only at the edges (display, JSON).
public struct ByteString: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public init<S: Sequence>(bytes: S) where S.Element == UInt8 { self.bytes = Array(bytes) }
    public init(_ string: String) { self.bytes = Array(string.utf8) }

    public static let empty = ByteString([])

    public var isEmpty: Bool { bytes.isEmpty }
    public var count: Int { bytes.count }

    /// The UTF-8 text, or nil when the bytes are not valid UTF-8.
    public var utf8String: String? { UTF8Validation.isValid(bytes) ? String(decoding: bytes, as: UTF8.self) : nil }

    /// Text for people: invalid sequences become U+FFFD.
    public var lossyString: String { String(decoding: bytes, as: UTF8.self) }

    public var description: String { lossyString }

    public var base64: String { Data(bytes).base64EncodedString() }

    public init?(base64: String) {
        guard let data = Data(base64Encoded: base64) else { return nil }
        self.bytes = [UInt8](data)
    }

    // Comparison and hashing by whole byte ranges: names are compared in every
    // folder lookup and hashed into every scan's sets, and the element-wise
    // versions (one Hasher.combine per byte) were a tenth of a warm restart.

    public static func < (lhs: ByteString, rhs: ByteString) -> Bool {
        lhs.bytes.withUnsafeBufferPointer { a in rhs.bytes.withUnsafeBufferPointer { b in order(a, b) < 0 } }
    }

    /// How `<` orders two names read in place (bytes, then length): negative, zero
    /// or positive.
    public static func order(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let pa = a.baseAddress, let pb = b.baseAddress {
            let order = memcmp(pa, pb, common)
            if order != 0 { return Int(order) }
        }
        return a.count - b.count
    }

    public static func == (lhs: ByteString, rhs: ByteString) -> Bool {
        guard lhs.bytes.count == rhs.bytes.count else { return false }
        return lhs.bytes.withUnsafeBufferPointer { a in
            rhs.bytes.withUnsafeBufferPointer { b in
                guard let pa = a.baseAddress, let pb = b.baseAddress else { return true }
                return memcmp(pa, pb, a.count) == 0
            }
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.count)
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// Calls `body` with a NUL-terminated copy. Returns nil-path errors as EINVAL
    /// when the bytes contain a NUL (never a valid file name).
    public func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        var terminated = bytes
        terminated.append(0)
        return try terminated.withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    public var containsNUL: Bool { bytes.contains(0) }

    // MARK: paths

    /// `self/component`, without doubling a slash.
    public func appending(_ component: ByteString) -> ByteString {
        if bytes.isEmpty { return component }
        if component.bytes.isEmpty { return self }
        var result = bytes
        if result.last != UInt8(ascii: "/") { result.append(UInt8(ascii: "/")) }
        result.append(contentsOf: component.bytes)
        return ByteString(result)
    }

    public var lastComponent: ByteString {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return self }
        return ByteString(Array(bytes[(slash + 1)...]))
    }

    /// The parent path, or empty for a single component.
    public var parent: ByteString {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return .empty }
        return ByteString(Array(bytes[..<slash]))
    }

    public var components: [ByteString] {
        bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map { ByteString(Array($0)) }
    }

    /// True when `self` equals `prefix` or lies below it.
    public func isWithin(_ prefix: ByteString) -> Bool {
        if prefix.isEmpty { return true }
        guard bytes.count >= prefix.bytes.count, bytes.starts(with: prefix.bytes) else { return false }
        return bytes.count == prefix.bytes.count || bytes[prefix.bytes.count] == UInt8(ascii: "/")
    }

    /// The part of `self` below `prefix` (which it must lie within).
    public func relative(to prefix: ByteString) -> ByteString {
        if prefix.isEmpty { return self }
        if bytes.count == prefix.bytes.count { return .empty }
        return ByteString(Array(bytes[(prefix.bytes.count + 1)...]))
    }

    /// The extension after the last dot of the last component, lowercased ASCII.
    public var lowercasedExtension: String? {
        let name = lastComponent.bytes
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0, dot < name.count - 1 else { return nil }
        let ext = name[(dot + 1)...]
        guard ext.count <= 8 else { return nil }
        return String(decoding: ext.map { ($0 >= 65 && $0 <= 90) ? $0 + 32 : $0 }, as: UTF8.self)
    }
}

extension ByteString: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self.init(value) }
}
