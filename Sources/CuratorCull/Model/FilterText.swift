// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// What a person types after `/`: a date range (`2024-05..2024-06-30`, `2024..`,
/// `..2023-12`, or one date `2024-05` for the whole of it) or else a glob
/// (`*.NEF`, `2024/*/IMG_*`). Empty clears the filter.
public enum FilterText {
    public static func parse(_ text: String) -> ViewFilter? {
        let trimmed = text.trimmed
        if trimmed.isEmpty { return nil }
        if let range = trimmed.firstRange(of: "..") {
            let from = String(trimmed[..<range.lowerBound]).trimmed
            let to = String(trimmed[range.upperBound...]).trimmed
            if (from.isEmpty || isDate(from)) && (to.isEmpty || isDate(to)) && !(from.isEmpty && to.isEmpty) {
                return ViewFilter(from: from.isEmpty ? nil : from, to: to.isEmpty ? nil : to)
            }
        }
        if isDate(trimmed) { return ViewFilter(from: trimmed, to: trimmed) }
        return ViewFilter(glob: trimmed)
    }

    /// The filter as it would be typed again.
    public static func describe(_ filter: ViewFilter?) -> String {
        guard let filter, !filter.isEmpty else { return "" }
        var parts: [String] = []
        if let glob = filter.glob { parts.append(glob) }
        if filter.from != nil || filter.to != nil {
            if filter.from == filter.to, let from = filter.from { parts.append(from) } else {
                parts.append("\(filter.from ?? "")..\(filter.to ?? "")")
            }
        }
        if let types = filter.types, !types.isEmpty { parts.append(types.joined(separator: ",")) }
        return parts.joined(separator: " ")
    }

    /// `YYYY`, `YYYY-MM`, `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SS`, as the protocol takes them.
    static func isDate(_ text: String) -> Bool {
        let shapes = ["dddd", "dddd-dd", "dddd-dd-dd", "dddd-dd-ddTdd:dd:dd"]
        return shapes.contains { shape in
            shape.count == text.count && zip(shape, text).allSatisfy { s, c in s == "d" ? c.isASCII && c.isNumber : s == c }
        }
    }
}

extension String {
    var trimmed: String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s = s.dropFirst() }
        while s.last?.isWhitespace == true { s = s.dropLast() }
        return String(s)
    }
}
