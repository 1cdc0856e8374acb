// SPDX-License-Identifier: GPL-2.0-or-later
import CImagingShim
import CuratorSystem
import CuratorThumbnails
import CVips
import Dispatch
import Glibc
import Synchronization

/// Renders contact sheets: pages of thumbnails in rows under folder headings, each
/// photo with its view position (top-left), selected ones framed and numbered in
/// tap order in a filled circle on their top-right corner (the picker of seed 002),
/// unselected ones with an empty circle there in select mode (`style.selecting`;
/// nothing in view mode), protected ones dimmed with a lock.
/// `curatorctl sheet` uses it (or runs `curatord-thumbnailer sheet`, which keeps
/// libvips out of the CLI); thumbnails are read as PNG, or by libvips in a photo
/// format, and a missing one gets a placeholder.
///
/// Not Sendable: it keeps rendered text between pages. One per thread.
public final class ContactSheet {
    public enum Format: Sendable, Equatable {
        case png
        case jpeg(quality: Int)
    }

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
        public init(description: String) { self.description = description }
    }

    public let style: ContactSheetStyle
    private let text = TextRenderer()

    // Colours: the picker's crimson (seed 002's UIColor(162, 32, 58)), and greys.
    static let selected = RGB(162, 32, 58)
    static let paper = RGB(246, 246, 244)
    static let box = RGB(226, 226, 224)
    static let ink = RGB(34, 34, 38)
    static let muted = RGB(118, 118, 122)
    /// A stack's or duplicate set's count: a blue apart from the selection's crimson.
    static let stacked = RGB(36, 92, 156)

    public init(style: ContactSheetStyle) {
        self.style = style
    }

    /// Every page, encoded.
    public func render(_ items: [ContactSheetItem], format: Format = .png) throws(Failure) -> [[UInt8]] {
        var out: [[UInt8]] = []
        try render(style.layout(items), format: format) { _, bytes in out.append(bytes) }
        return out
    }

    /// Renders `pages` one after the other, handing each, encoded, to `deliver` as
    /// soon as it is ready (the first page need not wait for the last).
    public func render(_ pages: [ContactSheetPage], format: Format = .png,
                       deliver: (_ index: Int, _ bytes: [UInt8]) throws(Failure) -> Void) throws(Failure) {
        for (index, page) in pages.enumerated() {
            try deliver(index, try render(page, number: index + 1, of: pages.count, format: format))
        }
    }

    /// Renders `pages` a page per core (each with a `ContactSheet` of its own: the
    /// text cache is per thread), handing each, encoded, to `deliver` as soon as it is
    /// ready, on the thread that drew it, in whatever order they finish. The first
    /// error stops the pages not yet begun and is thrown.
    public static func renderConcurrently(
        _ pages: [ContactSheetPage], style: ContactSheetStyle, format: Format = .png,
        deliver: @Sendable (_ index: Int, _ bytes: [UInt8]) throws(Failure) -> Void
    ) throws(Failure) {
        let failure = Mutex<Failure?>(nil)
        DispatchQueue.concurrentPerform(iterations: pages.count) { index in
            guard failure.withLock({ $0 == nil }) else { return }
            do throws(Failure) {
                let bytes = try ContactSheet(style: style).render(pages[index], number: index + 1, of: pages.count, format: format)
                try deliver(index, bytes)
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// One laid-out page, encoded.
    public func render(_ page: ContactSheetPage, number: Int, of count: Int, format: Format = .png) throws(Failure) -> [UInt8] {
        do {
            try Vips.start()
            return try Self.encode(try draw(page, number: number, of: count), format: format, number: number)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "contact sheet page \(number): \(error)")
        }
    }

    static func encode(_ canvas: Canvas, format: Format, number: Int) throws(Failure) -> [UInt8] {
        do {
            switch format {
            // Rows filtered "up" (the flat paper, boxes and letterboxes become runs of
            // zeros), deflated by runs (`PNGWriter`): the quickest of the PNG settings
            // tried on a page, and the smallest at level 1.
            case .png:
                return try PNGWriter.encode(canvas.pixels, width: canvas.width, height: canvas.height, bands: 3)
            case .jpeg(let quality):
                let image = try VipsImageRef.fromPixels(canvas.pixels, width: canvas.width, height: canvas.height, bands: 3)
                return try image.jpeg(quality: quality)
            }
        } catch {
            throw Failure(description: "contact sheet page \(number): \(error)")
        }
    }

    /// The page drawn, not encoded (for tests that look at pixels).
    func draw(_ page: ContactSheetPage, number: Int, of count: Int) throws(VipsError) -> Canvas {
        var canvas = Canvas(width: style.pageWidth, height: max(page.height, style.contentTop + style.footer + style.margin),
                            background: Self.paper)
        if let title = style.title {
            let mask = try text.render(title, font: "DejaVu Sans Bold", pixels: style.titleFont)
            canvas.draw(mask: mask.pixels, width: min(mask.width, style.pageWidth - 2 * style.margin), height: mask.height,
                        x: style.margin, y: style.margin + style.titleFont - mask.height, Self.ink, stride: mask.width)
        }
        for heading in page.headings { try drawHeading(heading, on: &canvas) }
        let pictures = Self.load(page.cells.map(\.photo.thumbnail), fittedWithin: style.cell)
        for (cell, picture) in zip(page.cells, pictures) { try drawCell(cell, picture: picture, on: &canvas) }
        let footer = try text.render("page \(number) of \(count)", font: "DejaVu Sans", pixels: style.footerFont)
        canvas.draw(mask: footer.pixels, width: footer.width, height: footer.height,
                    x: style.pageWidth - style.margin - footer.width, y: canvas.height - style.margin - footer.height, Self.muted)
        return canvas
    }

    private func drawHeading(_ heading: ContactSheetPage.Heading, on canvas: inout Canvas) throws(VipsError) {
        let font = style.headingFont
        let name = try text.render(heading.name, font: "DejaVu Sans Bold", pixels: font)
        let baseline = heading.y + font + font / 2
        // Room for the count after the name, except on a page too narrow for both:
        // there the name takes half and the count is cut at the page's edge.
        let width = style.pageWidth - 2 * style.margin
        let maxName = max(width - 8 * font, width / 2)
        canvas.draw(mask: name.pixels, width: min(name.width, maxName), height: name.height,
                    x: style.margin, y: baseline - name.height, Self.ink, stride: name.width)
        let what = heading.count == 1 ? "1 photo" : "\(heading.count) photos"
        let count = try text.render(heading.continued ? "\(what), continued" : what, font: "DejaVu Sans", pixels: font * 3 / 4)
        canvas.draw(mask: count.pixels, width: count.width, height: count.height,
                    x: style.margin + min(name.width, maxName) + font, y: baseline - count.height, Self.muted)
        canvas.fill(x: style.margin, y: baseline + font / 2, width: style.pageWidth - 2 * style.margin, height: 1, RGB(200, 200, 198))
    }

    private func drawCell(_ cell: ContactSheetPage.Cell, picture: PNGImage?, on canvas: inout Canvas) throws(VipsError) {
        let side = style.cell
        let photo = cell.photo
        canvas.fill(x: cell.x, y: cell.y, width: side, height: side, Self.box)
        if let picture {
            canvas.draw(picture.pixels, width: picture.width, height: picture.height, bands: picture.bands,
                        x: cell.x + (side - picture.width) / 2, y: cell.y + (side - picture.height) / 2)
        } else {
            try (photo.isVideo ? Placeholder.video : Placeholder.missing)
                .draw(on: &canvas, x: cell.x, y: cell.y, width: side, height: side, text: text)
        }
        if photo.isProtected {
            canvas.wash(x: cell.x, y: cell.y, width: side, height: side, Self.paper, amount: 150)
        }
        if photo.badge != nil {
            canvas.frame(x: cell.x, y: cell.y, width: side, height: side, thickness: max(3, side / 45), Self.selected)
        }

        // Position, top-left: a dark pill.
        let font = style.captionFont
        let position = try text.number(photo.position, font: "DejaVu Sans Bold", pixels: font)
        let padX = max(4, font / 2), pillHeight = position.height + 2 * max(3, font / 3)
        let pillX = cell.x + side / 28 + 2, pillY = cell.y + side / 28 + 2
        canvas.roundedRect(x: pillX, y: pillY, width: position.width + 2 * padX, height: pillHeight, radius: pillHeight / 2,
                           RGB(20, 20, 24), alpha: 190)
        canvas.draw(mask: position.pixels, width: position.width, height: position.height,
                    x: pillX + padX, y: pillY + (pillHeight - position.height) / 2, .white)

        // Top-right: the tap-order badge, an empty circle (select mode), or a lock.
        let radius = Double(min(22, max(11, side / 9)))
        let cx = Double(cell.x + side) - radius - Double(side) / 28 - 2, cy = Double(cell.y) + radius + Double(side) / 28 + 2
        if photo.isProtected {
            canvas.disc(cx: cx, cy: cy, radius: radius, RGB(60, 60, 66), alpha: 225)
            drawLock(on: &canvas, cx: cx, cy: cy, size: radius)
        } else if let badge = photo.badge {
            canvas.disc(cx: cx, cy: cy, radius: radius + 1.5, .white)
            canvas.disc(cx: cx, cy: cy, radius: radius, Self.selected)
            let digits = try text.number(badge, font: "DejaVu Sans Bold", pixels: Int(radius * (badge < 10 ? 1.05 : 0.85)))
            canvas.draw(mask: digits.pixels, width: digits.width, height: digits.height,
                        x: Int(cx.rounded()) - digits.width / 2, y: Int(cy.rounded()) - digits.height / 2, .white)
        } else if style.selecting {
            canvas.disc(cx: cx, cy: cy, radius: radius, RGB(0, 0, 0), alpha: 60)
            canvas.disc(cx: cx, cy: cy, radius: radius, inner: radius - max(2, radius / 6), .white, alpha: 235)
        }

        // Bottom-right: a stack's or duplicate set's count, as a pile of frames in a
        // pill; the marks' discs keep to its left.
        var pillRoom = 0
        if let count = photo.setCount {
            let digits = try text.render("×\(count)", font: "DejaVu Sans Bold", pixels: font)
            let padX = max(4, font / 2), height = digits.height + 2 * max(3, font / 3)
            let width = digits.width + 2 * padX
            let x = cell.x + side - width - side / 28 - 2, y = cell.y + side - height - side / 28 - 2
            canvas.roundedRect(x: x + 3, y: y - 3, width: width, height: height, radius: height / 2, .white, alpha: 200)
            canvas.roundedRect(x: x, y: y, width: width, height: height, radius: height / 2, Self.stacked, alpha: 235)
            canvas.draw(mask: digits.pixels, width: digits.width, height: digits.height,
                        x: x + padX, y: y + (height - digits.height) / 2, .white, stride: digits.width)
            pillRoom = width + 6
        }
        try drawMarks(photo, cell: cell, font: font, rightRoom: pillRoom, on: &canvas)

        // Caption: the label, shortened in the middle to fit.
        let label = try text.render(fitted(photo.label, width: side, font: font), font: "DejaVu Sans", pixels: font)
        canvas.draw(mask: label.pixels, width: min(label.width, side), height: label.height,
                    x: cell.x + max(0, (side - label.width) / 2), y: cell.y + side + (style.caption - label.height) / 2 + 1,
                    photo.isProtected ? Self.muted : Self.ink, stride: label.width)
    }

    /// The thumbnails of a page, read and fitted into `side` on every core (pure work,
    /// a tenth of a second for a page of 80), nil where there is none or it cannot be
    /// read (the cell then shows a placeholder).
    static func load(_ paths: [ByteString?], fittedWithin side: Int) -> [PNGImage?] {
        let pictures = Pictures(count: paths.count)
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            let loaded = paths[index].flatMap { Self.picture(at: $0, fittedWithin: side) }
            pictures.slots.withLock { $0[index] = loaded }
        }
        return pictures.slots.withLock { $0 }
    }

    private final class Pictures: Sendable {
        let slots: Mutex<[PNGImage?]>
        init(count: Int) { slots = Mutex([PNGImage?](repeating: nil, count: count)) }
    }

    /// A thumbnail as file managers write it is decoded by `PNGImage`; anything else
    /// (a JPEG, a palette PNG) by libvips, photo formats only.
    static func picture(at path: ByteString, fittedWithin side: Int) -> PNGImage? {
        guard !path.containsNUL, let fd = try? FileDescriptor.open(path, O_RDONLY | O_NONBLOCK) else { return nil }
        defer { try? fd.close() }  // read only
        if let bytes = try? fd.readAll(limit: 16 << 20), let image = try? PNGImage(decoding: bytes) {
            return image.fitted(within: side)
        }
        guard SystemCalls.lseek(fd.rawValue, 0, SEEK_SET) == 0 else { return nil }
        var out: UnsafeMutablePointer<VipsImage>?
        guard let source = try? VipsSourceRef.descriptor(fd.rawValue), (try? ThumbnailMaker.checkLoader(source)) != nil,
              curator_vips_thumbnail_source(source.pointer, &out, Int32(side), Int32(side), 1,
                                            Int32(VIPS_FAIL_ON_TRUNCATED.rawValue)) == 0, let out
        else {
            vips_error_clear()
            return nil
        }
        guard let image = try? VipsImageRef(out).srgb8(), let pixels = try? image.pixels() else {
            vips_error_clear()
            return nil
        }
        return PNGImage(width: image.width, height: image.height, bands: image.bands, pixels: pixels)
    }

    /// The colour labels' colours, as the tools that show them draw them.
    static let labelColours: [String: RGB] = [
        "red": RGB(220, 50, 50), "yellow": RGB(240, 200, 40), "green": RGB(60, 170, 80), "blue": RGB(50, 110, 220),
        "purple": RGB(150, 70, 200),
    ]

    /// Bottom-left: the stars on a dark pill. Bottom-right: the colour label's disc,
    /// and beside it the flag (a red disc with a cross for a reject, a white one
    /// with a flag for a pick), left of `rightRoom` (the set's pill).
    private func drawMarks(_ photo: ContactSheetPhoto, cell: ContactSheetPage.Cell, font: Int, rightRoom: Int = 0,
                           on canvas: inout Canvas)
        throws(VipsError) {
        let side = style.cell
        let inset = side / 28 + 2
        if let stars = photo.rating, stars > 0 {
            let glyphs = try text.render(String(repeating: "★", count: stars), font: "DejaVu Sans", pixels: font)
            let padX = max(4, font / 2), pillHeight = glyphs.height + 2 * max(3, font / 4)
            let pillY = cell.y + side - inset - pillHeight
            canvas.roundedRect(x: cell.x + inset, y: pillY, width: glyphs.width + 2 * padX, height: pillHeight,
                               radius: pillHeight / 2, RGB(20, 20, 24), alpha: 190)
            canvas.draw(mask: glyphs.pixels, width: glyphs.width, height: glyphs.height, x: cell.x + inset + padX,
                        y: pillY + (pillHeight - glyphs.height) / 2, RGB(255, 200, 40))
        }
        let radius = Double(min(16, max(8, side / 12)))
        var cx = Double(cell.x + side - inset - rightRoom) - radius
        let cy = Double(cell.y + side - inset) - radius
        if let label = photo.colorLabel, let colour = Self.labelColours[label] {
            canvas.disc(cx: cx, cy: cy, radius: radius + 1.5, .white)
            canvas.disc(cx: cx, cy: cy, radius: radius, colour)
            cx -= 2 * radius + 6
        }
        guard let flag = photo.flag, flag == "pick" || flag == "reject" else { return }
        let reject = flag == "reject"
        canvas.disc(cx: cx, cy: cy, radius: radius + 1.5, reject ? .white : RGB(20, 20, 24))
        canvas.disc(cx: cx, cy: cy, radius: radius, reject ? RGB(200, 30, 40) : .white)
        let glyph = try text.render(reject ? "✕" : "⚑", font: "DejaVu Sans Bold", pixels: Int(radius * 1.3))
        canvas.draw(mask: glyph.pixels, width: glyph.width, height: glyph.height,
                    x: Int(cx.rounded()) - glyph.width / 2, y: Int(cy.rounded()) - glyph.height / 2,
                    reject ? .white : RGB(20, 20, 24))
    }

    /// A padlock: a body and a shackle, white, `size` the radius of its disc.
    private func drawLock(on canvas: inout Canvas, cx: Double, cy: Double, size: Double) {
        let bodyW = size * 0.95, bodyH = size * 0.72
        let bodyX = cx - bodyW / 2, bodyY = cy - bodyH * 0.15
        canvas.roundedRect(x: Int(bodyX.rounded()), y: Int(bodyY.rounded()), width: Int(bodyW.rounded()), height: Int(bodyH.rounded()),
                           radius: max(1, Int(size / 8)), .white)
        let shackle = bodyW * 0.34, thickness = max(1.5, size / 7)
        canvas.disc(cx: cx, cy: bodyY, radius: shackle, inner: shackle - thickness, .white, upperHalfOnly: true)
        canvas.fill(x: Int((cx - shackle).rounded()), y: Int(bodyY.rounded()) - 1, width: Int(thickness.rounded()), height: 2, .white)
        canvas.fill(x: Int((cx + shackle - thickness).rounded()), y: Int(bodyY.rounded()) - 1, width: Int(thickness.rounded()), height: 2, .white)
        canvas.disc(cx: cx, cy: bodyY + bodyH * 0.45, radius: max(1.2, size / 9), RGB(60, 60, 66))
    }

    /// `label` shortened in the middle ("IMG_20240…0042.JPG") to about what fits.
    private func fitted(_ label: String, width: Int, font: Int) -> String {
        let fits = max(6, width * 16 / (font * 10))
        guard label.count > fits else { return label }
        let tail = fits / 2, head = fits - tail - 1
        return String(label.prefix(head)) + "…" + String(label.suffix(tail))
    }
}
