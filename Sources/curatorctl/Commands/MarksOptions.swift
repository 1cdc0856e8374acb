// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol

/// Narrowing by marks (stars, flag, colour label: docs/XMP.md), shared by the
/// views (`ls`, `view`, `cull`, `sheet`) and `select`.
struct MarksOptions: ParsableArguments {
    @Option("--rating", value: "STARS", help: """
        Only photos with these stars: 3 (exactly), >=3, >3, <=2, <2 or 2-4 (a photo nothing rates has 0).
        """, expecting: "stars like >=3, 3 or 2-4", transform: RatingRange.init)
    var rating: RatingRange?

    @Flag("--picked", help: "Only photos flagged as picks.")
    var picked: Bool

    @Flag("--rejected", help: "Only photos flagged as rejects.")
    var rejected: Bool

    @Flag("--unflagged", help: "Only photos neither picked nor rejected.")
    var unflagged: Bool

    @Option("--label", value: "COLOURS", help: "Only photos with one of these colour labels, comma-separated: red,green (none: no label).",
            expecting: "colours like red,green", transform: { $0.split(separator: ",").map(String.init) })
    var labels: [String]?

    var flags: [String]? {
        let chosen = [(picked, "pick"), (rejected, "reject"), (unflagged, "none")].filter(\.0).map(\.1)
        return chosen.isEmpty ? nil : chosen
    }

    var isEmpty: Bool { rating == nil && flags == nil && labels == nil }

    /// Into a view's filter.
    func apply(to filter: inout ViewFilter) {
        filter.ratingMin = rating?.lowest
        filter.ratingMax = rating?.highest
        filter.flags = flags
        filter.labels = labels
    }

    /// Into a selector (`select --rejected`).
    func apply(to selector: inout PhotoSelector) {
        selector.ratingMin = rating?.lowest
        selector.ratingMax = rating?.highest
        selector.flags = flags
        selector.labels = labels
    }
}

/// `--rating`'s stars: a bound either side, nil where open.
struct RatingRange: Sendable, Equatable {
    var lowest: Int?
    var highest: Int?

    init?(_ text: String) {
        let t = text.filter { $0 != " " }
        func stars(_ s: Substring) -> Int? { Int(s).flatMap { (0...5).contains($0) ? $0 : nil } }
        if t.hasPrefix(">=") {
            guard let n = stars(t.dropFirst(2)) else { return nil }
            lowest = n
        } else if t.hasPrefix("<=") {
            guard let n = stars(t.dropFirst(2)) else { return nil }
            highest = n
        } else if t.hasPrefix(">") {
            guard let n = stars(t.dropFirst()), n < 5 else { return nil }
            lowest = n + 1
        } else if t.hasPrefix("<") {
            guard let n = stars(t.dropFirst()), n > 0 else { return nil }
            highest = n - 1
        } else if let dash = t.firstIndex(of: "-"), dash != t.startIndex {
            guard let low = stars(t[..<dash]), let high = stars(t[t.index(after: dash)...]), low <= high else { return nil }
            lowest = low
            highest = high
        } else {
            guard let n = stars(t.hasPrefix("=") ? t.dropFirst() : Substring(t)) else { return nil }
            lowest = n
            highest = n
        }
    }
}
