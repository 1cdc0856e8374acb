// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// What one of Lightroom's culling keys asks of the photo under the cursor.
enum CullMark {
    case flag(String)
    case rating(Int)
    case label(String)
}

/// The culling keys, as Lightroom and Photo Mechanic have them: P pick, X reject,
/// U neither, 0-5 stars (0: none), 6-9 colour labels (red, yellow, green, blue;
/// again on a photo with that label takes it off), written into the photo's XMP
/// by `rate`. With advance on (`a`), the cursor moves to the next photo after each.
extension CullApp {
    /// Lightroom's label keys; purple has none there either.
    static let labelKeys: [Character: String] = ["6": "red", "7": "yellow", "8": "green", "9": "blue"]

    func mark(digit: Character) throws(CullError) {
        if let stars = digit.wholeNumberValue, (0...5).contains(stars) {
            try mark(.rating(stars))
        } else if let label = Self.labelKeys[digit] {
            try mark(.label(label))
        }
    }

    func mark(_ mark: CullMark) throws(CullError) {
        guard let id = data.id(at: cursor) else { return }
        var request = RateRequest(session: session, ids: [id])
        switch mark {
        case .flag(let flag): request.flag = flag
        case .rating(let stars): request.rating = stars == 0 ? .cleared : .value(stars)
        case .label(let label):
            request.label = data.details[id]?.label == label ? .cleared : .value(label)
        }
        try self.request(request) { [weak self] (result) throws(CullError) in
            guard let self, let rated = result.photos.first else { return }
            self.data.setMarks(rated.id, rating: rated.marks.rating, flag: rated.marks.flag, label: rated.marks.label)
            self.say("\(self.data.position(of: rated.id).map { "\($0)" } ?? "\(rated.id)"): \(Self.describe(rated.marks))")
        }
        if advance { moveCursor(to: cursor + 1) }
    }

    func toggleAdvance() {
        advance.toggle()
        say(advance ? "Advance on: P, X, U, 0-9 move to the next photo." : "Advance off: the cursor stays after P, X, U, 0-9.")
    }

    static func describe(_ marks: PhotoMarksValue) -> String {
        let stars = marks.rating.map { $0 == 1 ? "1 star" : "\($0) stars" } ?? "no stars"
        let flag = marks.flag == "pick" ? "picked" : marks.flag == "reject" ? "rejected" : "no flag"
        return "\(stars), \(flag), \(marks.label ?? "no label")"
    }

    /// The stars, flag and label on a cell's bottom edge: stars from the left,
    /// the flag and a dot of the label's colour at the right.
    func drawMarks(_ screen: inout ScreenBuffer, _ photo: PhotoSummary, x: Int, y: Int, width: Int) {
        if let stars = photo.rating, stars > 0 {
            screen.put(x + 1, y, String(repeating: "★", count: stars), Palette.stars, limit: max(0, width - 2))
        }
        var right = x + width - 1
        if let label = photo.label, let colour = Palette.label[label] {
            right -= 1
            screen.put(right, y, "●", CellStyle(foreground: colour, bold: true))
        }
        if let flag = photo.flag {
            right -= 1
            screen.put(right, y, flag == "reject" ? "✕" : "⚑", flag == "reject" ? Palette.rejectMark : Palette.pickMark)
        }
    }
}
