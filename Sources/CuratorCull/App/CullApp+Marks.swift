// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// The culling keys on the photo under the cursor (`MarkKeys`), and the marks on a cell.
extension CullApp {
    func mark(_ mark: CullMark) throws(CullError) {
        guard let id = data.id(at: cursor.position) else { return }
        let request = MarkKeys.request(mark, photo: id, label: data.details[id]?.label, session: session)
        try self.request(request) { [weak self] (result) throws(CullError) in
            guard let self, let rated = result.photos.first else { return }
            self.data.setMarks(rated.id, rating: rated.marks.rating, flag: rated.marks.flag, label: rated.marks.label)
            self.say("\(self.data.position(of: rated.id).map { "\($0)" } ?? "\(rated.id)"): \(MarkKeys.describe(rated.marks))")
        }
        if marks.advance { cursor.move(to: cursor.position + 1, total: data.total) }
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
