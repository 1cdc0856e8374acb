// SPDX-License-Identifier: GPL-2.0-or-later

/// Whether bytes are well-formed UTF-8 (Unicode §3.9, table 3-7: no overlong
/// forms, no surrogates, nothing above U+10FFFF), exactly what
/// `String(validating:as: UTF8.self)` accepts, without making a `String`.
///
/// The one check of it: `ByteString.utf8String` (a path as clients get it, or
/// base64 in `path_raw`) and a listing, which asks it of every file name it
/// writes in place, agree by construction. Through `String(validating:)`
/// a name that is not ASCII (two in five of the benchmark tree's) cost a `String`
/// and a call into the standard library's unspecialised generic validation, which
/// looked up type metadata at run time: 9 % of a 100 000-photo listing's samples.
public enum UTF8Validation {
    @inlinable public static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var i = 0
        while i < count {
            // Eight ASCII bytes at a time: most names are ASCII, or mostly.
            if count - i >= 8, UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
                continue
            }
            let lead = base[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            // How many continuation bytes follow, and the range of the first one.
            let more: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: more = 1
            case 0xE0: more = 2; low = 0xA0          // no overlong three-byte forms
            case 0xE1...0xEC, 0xEE...0xEF: more = 2
            case 0xED: more = 2; high = 0x9F         // no surrogates
            case 0xF0: more = 3; low = 0x90          // no overlong four-byte forms
            case 0xF1...0xF3: more = 3
            case 0xF4: more = 3; high = 0x8F         // nothing above U+10FFFF
            default: return false                    // a continuation byte, C0, C1, F5-FF
            }
            guard count - i > more else { return false }
            let second = base[i + 1]
            guard second >= low, second <= high else { return false }
            var k = 2
            while k <= more {
                guard base[i + k] & 0xC0 == 0x80 else { return false }
                k += 1
            }
            i += more + 1
        }
        return true
    }

    @inlinable public static func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { isValid($0) }
    }
}
