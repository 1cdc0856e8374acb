// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// What one of Lightroom's culling keys asks of the photo under the cursor.
enum CullMark: Equatable {
    case flag(String)
    case rating(Int)
    case label(String)
}

/// The culling keys, as Lightroom and Photo Mechanic have them: P pick, X reject,
/// U neither, 0-5 stars (0: none), 6-9 colour labels (red, yellow, green, blue;
/// again on a photo with that label takes it off), written into the photo's XMP
/// by `rate`. With advance on (`a`), the cursor moves to the next photo after each.
struct MarkKeys {
    /// A mark moves the cursor on.
    private(set) var advance: Bool

    init(advance: Bool) { self.advance = advance }

    /// Lightroom's label keys; purple has none there either.
    static let labelKeys: [Character: String] = ["6": "red", "7": "yellow", "8": "green", "9": "blue"]

    static func mark(digit: Character) -> CullMark? {
        if let stars = digit.wholeNumberValue, (0...5).contains(stars) { return .rating(stars) }
        return labelKeys[digit].map(CullMark.label)
    }

    /// The `rate` request for a mark on photo `id`, whose label is `label` now.
    static func request(_ mark: CullMark, photo id: Int64, label: String?, session: String) -> RateRequest {
        var request = RateRequest(session: session, ids: [id])
        switch mark {
        case .flag(let flag): request.flag = flag
        case .rating(let stars): request.rating = stars == 0 ? .cleared : .value(stars)
        case .label(let wanted): request.label = label == wanted ? .cleared : .value(wanted)
        }
        return request
    }

    /// `a`: what the status line says of it.
    mutating func toggleAdvance() -> String {
        advance.toggle()
        return advance ? "Advance on: P, X, U, 0-9 move to the next photo." : "Advance off: the cursor stays after P, X, U, 0-9."
    }

    static func describe(_ marks: PhotoMarksValue) -> String {
        let stars = marks.rating.map { $0 == 1 ? "1 star" : "\($0) stars" } ?? "no stars"
        let flag = marks.flag == "pick" ? "picked" : marks.flag == "reject" ? "rejected" : "no flag"
        return "\(stars), \(flag), \(marks.label ?? "no label")"
    }
}
