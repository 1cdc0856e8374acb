// SPDX-License-Identifier: GPL-2.0-or-later

/// MD5 (RFC 1321), for the one thing the thumbnail standard uses it for: naming a
/// thumbnail after its file's URI. Not for anything that needs a secure hash.
public struct MD5 {
    private var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476)
    private var pending: [UInt8] = []
    /// Bytes fed so far.
    private var length: UInt64 = 0

    public init() { pending.reserveCapacity(64) }

    /// The digest of `bytes`, 16 bytes.
    public static func digest<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var md5 = MD5()
        md5.update(bytes)
        return md5.finish()
    }

    /// The digest as 32 lowercase hex digits, as thumbnail file names spell it.
    public static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(32)
        for byte in digest(bytes) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    public mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes {
            length &+= 1
            pending.append(byte)
            if pending.count == 64 {
                compress(pending)
                pending.removeAll(keepingCapacity: true)
            }
        }
    }

    public mutating func finish() -> [UInt8] {
        let bitLength = length &* 8
        pending.append(0x80)
        while pending.count % 64 != 56 { pending.append(0) }
        for shift in stride(from: 0, to: 64, by: 8) { pending.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        var offset = 0
        while offset < pending.count {
            compress(pending[offset..<offset + 64])
            offset += 64
        }
        pending.removeAll()
        var out: [UInt8] = []
        out.reserveCapacity(16)
        for word in [state.0, state.1, state.2, state.3] {
            for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
        }
        return out
    }

    /// Per-round left-rotation amounts (RFC 1321, 3.4).
    private static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ]

    /// T[i] = floor(abs(sin(i + 1)) * 2^32), written out rather than computed so
    /// that no floating-point library decides the digest.
    private static let sines: [UInt32] = [
        0xD76A_A478, 0xE8C7_B756, 0x2420_70DB, 0xC1BD_CEEE, 0xF57C_0FAF, 0x4787_C62A, 0xA830_4613, 0xFD46_9501,
        0x6980_98D8, 0x8B44_F7AF, 0xFFFF_5BB1, 0x895C_D7BE, 0x6B90_1122, 0xFD98_7193, 0xA679_438E, 0x49B4_0821,
        0xF61E_2562, 0xC040_B340, 0x265E_5A51, 0xE9B6_C7AA, 0xD62F_105D, 0x0244_1453, 0xD8A1_E681, 0xE7D3_FBC8,
        0x21E1_CDE6, 0xC337_07D6, 0xF4D5_0D87, 0x455A_14ED, 0xA9E3_E905, 0xFCEF_A3F8, 0x676F_02D9, 0x8D2A_4C8A,
        0xFFFA_3942, 0x8771_F681, 0x6D9D_6122, 0xFDE5_380C, 0xA4BE_EA44, 0x4BDE_CFA9, 0xF6BB_4B60, 0xBEBF_BC70,
        0x289B_7EC6, 0xEAA1_27FA, 0xD4EF_3085, 0x0488_1D05, 0xD9D4_D039, 0xE6DB_99E5, 0x1FA2_7CF8, 0xC4AC_5665,
        0xF429_2244, 0x432A_FF97, 0xAB94_23A7, 0xFC93_A039, 0x655B_59C3, 0x8F0C_CC92, 0xFFEF_F47D, 0x8584_5DD1,
        0x6FA8_7E4F, 0xFE2C_E6E0, 0xA301_4314, 0x4E08_11A1, 0xF753_7E82, 0xBD3A_F235, 0x2AD7_D2BB, 0xEB86_D391,
    ]

    private mutating func compress(_ block: some Collection<UInt8>) {
        var words = [UInt32](repeating: 0, count: 16)
        var index = block.startIndex
        for i in 0..<16 {
            var word: UInt32 = 0
            for shift in stride(from: 0, to: 32, by: 8) {
                word |= UInt32(block[index]) << UInt32(shift)
                index = block.index(after: index)
            }
            words[i] = word
        }
        var (a, b, c, d) = state
        for i in 0..<64 {
            var f: UInt32
            let g: Int
            switch i {
            case 0..<16: f = (b & c) | (~b & d); g = i
            case 16..<32: f = (d & b) | (~d & c); g = (5 &* i &+ 1) % 16
            case 32..<48: f = b ^ c ^ d; g = (3 &* i &+ 5) % 16
            default: f = c ^ (b | ~d); g = (7 &* i) % 16
            }
            f = f &+ a &+ Self.sines[i] &+ words[g]
            a = d
            d = c
            c = b
            b = b &+ ((f << Self.shifts[i]) | (f >> (32 - Self.shifts[i])))
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }
}
