// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// What EXIF records beside a capture time's seconds: the fraction of the second
/// (SubSecTimeOriginal and its kin, kept to the millisecond) and the offset from
/// UTC of the camera's clock (OffsetTimeOriginal and its kin). Either may be
/// absent. Kept in 32 bits (`raw`): the index stores it in one column, the photo
/// table in a column of its own beside the rows.
public struct CaptureDetail: Hashable, Sendable {
    /// Bits 0-10: milliseconds + 1; bits 11-22: offset minutes + `offsetBias` + 1; 0: absent.
    public let raw: UInt32

    public static let none = CaptureDetail(raw: 0)
    /// Offsets within ±18 hours, as ISO 8601 and exiftool allow.
    static let offsetBias = 18 * 60

    public init(raw: UInt32) {
        let milliseconds = raw & 0x7FF, offset = raw >> 11 & 0xFFF
        // A stored value out of range (a corrupt index) counts as absent.
        self.raw = (milliseconds <= 1000 ? milliseconds : 0)
            | (offset <= UInt32(2 * Self.offsetBias + 1) ? offset : 0) << 11
    }

    public init(milliseconds: Int?, offsetMinutes: Int?) {
        var raw: UInt32 = 0
        if let milliseconds, (0...999).contains(milliseconds) { raw |= UInt32(milliseconds + 1) }
        if let offsetMinutes, (-Self.offsetBias...Self.offsetBias).contains(offsetMinutes) {
            raw |= UInt32(offsetMinutes + Self.offsetBias + 1) << 11
        }
        self.raw = raw
    }

    public var milliseconds: Int? {
        let stored = Int(raw & 0x7FF)
        return stored == 0 ? nil : stored - 1
    }

    public var offsetMinutes: Int? {
        let stored = Int(raw >> 11 & 0xFFF)
        return stored == 0 ? nil : stored - 1 - Self.offsetBias
    }

    /// The offset as the wire says it: `+02:00`, `-05:30`.
    public var offsetWire: String? {
        guard let minutes = offsetMinutes else { return nil }
        let magnitude = abs(minutes)
        return (minutes < 0 ? "-" : "+") + zeroPadded(magnitude / 60, width: 2) + ":" + zeroPadded(magnitude % 60, width: 2)
    }

    /// From the EXIF texts: sub-seconds are the digits of a decimal fraction
    /// ("25" is 250 ms; digits past the third are dropped), an offset is
    /// `±HH:MM`. Anything else (blanks, garbage) is absent.
    public init(subSeconds: [UInt8]?, offset: [UInt8]?) {
        self.init(milliseconds: subSeconds.flatMap(Self.milliseconds), offsetMinutes: offset.flatMap(Self.minutes))
    }

    static func milliseconds(_ text: [UInt8]) -> Int? {
        let digits = Array(text.prefix { $0 != 0 }.drop { $0 == 0x20 }.prefix { $0 != 0x20 })
        guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        var value = 0
        for index in 0..<3 { value = value * 10 + (index < digits.count ? Int(digits[index] - 0x30) : 0) }
        return value
    }

    static func minutes(_ text: [UInt8]) -> Int? {
        let bytes = Array(text.prefix { $0 != 0 })
        guard bytes.count >= 6, bytes[0] == 0x2B || bytes[0] == 0x2D, bytes[3] == 0x3A,
              bytes[6...].allSatisfy({ $0 == 0x20 }) else { return nil }
        let digits = [bytes[1], bytes[2], bytes[4], bytes[5]]
        guard digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let hours = Int(digits[0] - 0x30) * 10 + Int(digits[1] - 0x30)
        let minutes = Int(digits[2] - 0x30) * 10 + Int(digits[3] - 0x30)
        guard minutes < 60, hours * 60 + minutes <= offsetBias else { return nil }
        return (bytes[0] == 0x2D ? -1 : 1) * (hours * 60 + minutes)
    }
}
