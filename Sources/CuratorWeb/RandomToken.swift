// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorSystem
import Glibc

/// 256 bits from the kernel (getrandom): the one-time secret of the personal URL and
/// the session cookie. Written as 64 lowercase hex digits; never logged.
struct RandomToken: Sendable {
    static let byteCount = 32
    let bytes: [UInt8]

    static func generate() throws(SystemError) -> RandomToken {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        let rc = bytes.withUnsafeMutableBytes { curator_random_bytes($0.baseAddress, $0.count) }
        guard rc == 0 else { throw SystemError("getrandom", errno: Errno(errno)) }
        return RandomToken(bytes: bytes)
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// Reads what a client presented; nil unless it is exactly 64 hex digits.
    init?(hex text: String) {
        let digits = Array(text.utf8)
        guard digits.count == Self.byteCount * 2 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Self.byteCount)
        for i in 0..<Self.byteCount {
            guard let high = Self.nibble(digits[2 * i]), let low = Self.nibble(digits[2 * i + 1]) else { return nil }
            bytes[i] = high << 4 | low
        }
        self.bytes = bytes
    }

    var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xf)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Every byte is looked at whatever the first difference: how long the comparison
    /// takes says nothing about how much of a guess was right.
    func matches(_ other: RandomToken) -> Bool {
        var difference: UInt8 = 0
        for i in 0..<Self.byteCount { difference |= bytes[i] ^ other.bytes[i] }
        return difference == 0
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
