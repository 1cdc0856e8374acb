// SPDX-License-Identifier: GPL-2.0-or-later

/// Names in the order file managers show them: ASCII letters without case
/// (`img_0002.jpg` beside `IMG_0002.JPG`, not after every capital), runs of digits
/// by their value (`IMG_2` before `IMG_10`), `/` before any other byte (a folder's
/// path before its neighbours' with a longer name); names equal so far are told
/// apart by their bytes, so that the order is total and the same on every run.
public enum NaturalOrder {
    /// Negative, zero or positive, as `a` comes before, is, or comes after `b`.
    public static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        var i = 0, j = 0
        while i < a.count && j < b.count {
            let x = a[i], y = b[j]
            if isDigit(x) && isDigit(y) {
                // Value first: significant digits (how many, then which), leading zeros skipped.
                var si = i, sj = j
                while si < a.count && a[si] == zero { si += 1 }
                while sj < b.count && b[sj] == zero { sj += 1 }
                var ei = si, ej = sj
                while ei < a.count && isDigit(a[ei]) { ei += 1 }
                while ej < b.count && isDigit(b[ej]) { ej += 1 }
                if ei - si != ej - sj { return (ei - si) - (ej - sj) }
                for k in 0..<(ei - si) where a[si + k] != b[sj + k] { return Int(a[si + k]) - Int(b[sj + k]) }
                (i, j) = (ei, ej)
                continue
            }
            let fx = fold(x), fy = fold(y)
            if fx != fy { return fx - fy }
            i += 1
            j += 1
        }
        let rest = (a.count - i) - (b.count - j)
        if rest != 0 { return rest }
        return ByteString.order(a, b)
    }

    public static func compare(_ a: ByteString, _ b: ByteString) -> Int {
        a.bytes.withUnsafeBufferPointer { pa in b.bytes.withUnsafeBufferPointer { pb in compare(pa, pb) } }
    }

    private static let zero = UInt8(ascii: "0")

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= zero && byte <= UInt8(ascii: "9") }

    /// A byte's rank: `/` lowest, ASCII capitals as their small letters.
    private static func fold(_ byte: UInt8) -> Int {
        if byte == UInt8(ascii: "/") { return -1 }
        if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { return Int(byte) + 32 }
        return Int(byte)
    }
}
