// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// The `Path=` escaping of the trash spec (RFC 2396 style): every byte outside
/// `A-Za-z0-9-._~/` becomes `%XX`. Works on bytes, so names that are not UTF-8
/// survive the round trip.
public enum PercentEncoding {
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    public static func encode(_ path: ByteString) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(path.count)
        for byte in path.bytes {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `%XX` (either case); nil for a malformed escape. Other bytes pass
    /// through unchanged, as tolerant readers of other tools' files should.
    public static func decode<S: Collection>(_ text: S) -> ByteString? where S.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var index = text.startIndex
        while index != text.endIndex {
            let byte = text[index]
            index = text.index(after: index)
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                continue
            }
            guard index != text.endIndex, let high = hexValue(text[index]) else { return nil }
            index = text.index(after: index)
            guard index != text.endIndex, let low = hexValue(text[index]) else { return nil }
            index = text.index(after: index)
            out.append(high << 4 | low)
        }
        return ByteString(out)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
