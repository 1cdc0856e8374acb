// SPDX-License-Identifier: GPL-2.0-or-later

/// What a line from curatord is, told from its first bytes: the daemon writes an
/// answer's `id` first (`{"id":12,"ok":...`) and an event's name first
/// (`{"event":...`). A listing of 100 000 photos is a 1.5 MB line: decoding it
/// whole only to find its id cost more than the rest of the start.
enum LineKind: Equatable {
    /// An answer to the request of this id.
    case answer(Int64)
    case event
    /// Anything else (a farewell without an id, a line of another shape): decoded whole.
    case other

    init(_ line: ArraySlice<UInt8>) {
        let answer = Array(#"{"id":"#.utf8), event = Array(#"{"event":"#.utf8)
        if line.starts(with: event) {
            self = .event
            return
        }
        guard line.starts(with: answer) else {
            self = .other
            return
        }
        var value: Int64 = 0
        var digits = 0
        var index = line.startIndex + answer.count
        while index < line.endIndex, line[index] >= 0x30, line[index] <= 0x39, digits < 18 {
            value = value * 10 + Int64(line[index] - 0x30)
            digits += 1
            index += 1
        }
        // `{"id":12,` and nothing else: a string id, a float or a longer number is decoded whole.
        self = digits > 0 && index < line.endIndex && line[index] == UInt8(ascii: ",") ? .answer(value) : .other
    }
}
