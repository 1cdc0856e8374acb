// SPDX-License-Identifier: GPL-2.0-or-later

extension CaptureTime {
    /// A filter bound typed by a person: `2024`, `2024-05`, `2024-05-17` or
    /// `2024-05-17T10:30:00` (a space also separates date and time). The result
    /// spans the whole period named, both ends included: `2024-05` is
    /// 2024-05-01T00:00:00 through 2024-05-31T23:59:59.
    public static func parse(userInput: String) throws(CaptureTimeInputError) -> ClosedRange<CaptureTime> {
        let text = userInput.trimmingASCIIWhitespace()
        let invalid = CaptureTimeInputError(input: userInput)
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) throws(CaptureTimeInputError) -> Int {
            guard range.upperBound <= bytes.count else { throw invalid }
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { throw invalid }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        func expect(_ character: Unicode.Scalar, at index: Int) throws(CaptureTimeInputError) {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { throw invalid }
        }

        let year = try number(0..<4)
        var month: Int?
        var day: Int?
        var time: (hour: Int, minute: Int, second: Int)?
        switch bytes.count {
        case 4:
            break
        case 7:
            try expect("-", at: 4)
            month = try number(5..<7)
        case 10:
            try expect("-", at: 4)
            try expect("-", at: 7)
            month = try number(5..<7)
            day = try number(8..<10)
        case 19:
            try expect("-", at: 4)
            try expect("-", at: 7)
            guard bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " ") else { throw invalid }
            try expect(":", at: 13)
            try expect(":", at: 16)
            month = try number(5..<7)
            day = try number(8..<10)
            time = (try number(11..<13), try number(14..<16), try number(17..<19))
        default:
            throw invalid
        }

        let firstMonth = month ?? 1
        let lastMonth = month ?? 12
        guard (1...12).contains(firstMonth) else { throw invalid }
        let firstDay = day ?? 1
        let lastDay = day ?? daysIn(month: lastMonth, year: year)
        let start: CaptureTime?
        let end: CaptureTime?
        if let time {
            start = CaptureTime(year: year, month: firstMonth, day: firstDay,
                                hour: time.hour, minute: time.minute, second: time.second)
            end = start
        } else {
            start = CaptureTime(year: year, month: firstMonth, day: firstDay)
            end = CaptureTime(year: year, month: lastMonth, day: lastDay, hour: 23, minute: 59, second: 59)
        }
        guard let start, let end else { throw invalid }
        return start...end
    }
}

public struct CaptureTimeInputError: Error, Hashable, Sendable, CustomStringConvertible {
    public let input: String

    public init(input: String) { self.input = input }

    public var description: String {
        "invalid date '\(input)': expected YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS (years 1800 to 9999)"
    }
}

extension String {
    fileprivate func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
