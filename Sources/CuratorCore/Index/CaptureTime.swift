// SPDX-License-Identifier: GPL-2.0-or-later

/// When a photo was taken, as the camera's clock said. EXIF dates carry no time
/// zone, so the wall-clock time is kept as if it were UTC: `seconds` orders and
/// filters photos, it is not an instant. `wire` is `YYYY-MM-DDTHH:MM:SS`.
public struct CaptureTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let seconds: Int64

    public init(seconds: Int64) { self.seconds = seconds }

    /// From calendar fields; nil unless each is in range (years 1800 to 9999).
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        guard (1800...9999).contains(year), (1...12).contains(month),
              (1...CaptureTime.daysIn(month: month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        let days = CaptureTime.daysSinceEpoch(year: year, month: month, day: day)
        seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    public struct Fields: Hashable, Sendable {
        public var year, month, day, hour, minute, second: Int
    }

    public var fields: Fields {
        // Floor division, written so that no stored value can overflow.
        let remainder = seconds % 86_400
        let days = seconds / 86_400 - (remainder < 0 ? 1 : 0)
        let secondOfDay = Int(remainder < 0 ? remainder + 86_400 : remainder)
        let (year, month, day) = CaptureTime.civil(daysSinceEpoch: days)
        return Fields(year: year, month: month, day: day,
                      hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60, second: secondOfDay % 60)
    }

    public var wire: String {
        let f = fields
        return dateTimeText(year: f.year, month: f.month, day: f.day, hour: f.hour, minute: f.minute, second: f.second)
    }

    /// The longest `wire` can be (a corrupt index's out-of-range year included).
    public static let maxWireCount = 40

    /// Writes `wire` at `out` (room for `maxWireCount` bytes) and returns its length,
    /// without building a String: a listing writes 100 000 of these.
    public func writeWire(to out: UnsafeMutablePointer<UInt8>) -> Int {
        // The fast path for the years a camera writes: fixed-width digits in place.
        let f = fields
        if (0...9999).contains(f.year) {
            func two(_ value: Int, _ at: Int) {
                out[at] = UInt8(ascii: "0") + UInt8(value / 10)
                out[at + 1] = UInt8(ascii: "0") + UInt8(value % 10)
            }
            two(f.year / 100, 0)
            two(f.year % 100, 2)
            out[4] = UInt8(ascii: "-")
            two(f.month, 5)
            out[7] = UInt8(ascii: "-")
            two(f.day, 8)
            out[10] = UInt8(ascii: "T")
            two(f.hour, 11)
            out[13] = UInt8(ascii: ":")
            two(f.minute, 14)
            out[16] = UInt8(ascii: ":")
            two(f.second, 17)
            return 19
        }
        let bytes = Array(wire.utf8)
        let n = min(bytes.count, Self.maxWireCount)
        for i in 0..<n { out[i] = bytes[i] }
        return n
    }

    public var description: String { wire }

    public static func < (lhs: CaptureTime, rhs: CaptureTime) -> Bool { lhs.seconds < rhs.seconds }

    /// Parses the wire form back (`YYYY-MM-DDTHH:MM:SS`).
    public init?(wire: String) {
        let bytes = Array(wire.utf8)
        guard bytes.count == 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
        else { return nil }
        self.init(digitsAt: bytes)
    }

    /// Parses an EXIF date (`YYYY:MM:DD HH:MM:SS`). Cameras with an unset clock
    /// write zeros or blanks, and broken writers truncate; all of those are nil.
    /// Tolerated: `-` in the date, `T` between date and time, trailing NULs and
    /// spaces, and anything after the seconds (sub-seconds or a zone some tools append).
    public init?(exif raw: some Collection<UInt8>) {
        let bytes = Array(raw.prefix(19))
        guard bytes.count == 19,
              bytes[4] == bytes[7], bytes[4] == UInt8(ascii: ":") || bytes[4] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
        else { return nil }
        self.init(digitsAt: bytes)
    }

    /// The fixed-position fields of a 19-byte date; the separators are checked by the caller.
    private init?(digitsAt bytes: [UInt8]) {
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    // MARK: calendar arithmetic (proleptic Gregorian)

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01, counting March as the first month of a 400-year era
    /// so that leap days fall at the end of each year.
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(daysSinceEpoch days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }
}
