// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorImaging
import CuratorProtocol
import CuratorSystem
import CuratorThumbnails
import Foundation
import Testing
import CuratorTestSupport

struct ContactSheetLayoutTests {
    private func photos(_ range: ClosedRange<Int>) -> [ContactSheetItem] {
        range.map { .photo(ContactSheetPhoto(thumbnail: nil, position: $0, label: "IMG_\($0).JPG")) }
    }

    @Test func rowsWrapAtTheColumnCount() {
        let style = ContactSheetStyle(columns: 4, cell: 100)
        let pages = style.layout([.folder(name: "2024", count: 10)] + photos(1...10))
        #expect(pages.count == 1)
        let page = pages[0]
        #expect(page.headings.map(\.name) == ["2024"])
        #expect(page.cells.map(\.photo.position) == Array(1...10))
        #expect(Set(page.cells.prefix(4).map(\.y)).count == 1)
        #expect(page.cells[4].y == page.cells[0].y + style.row)
        #expect(page.cells[4].x == page.cells[0].x)
        #expect(page.cells.allSatisfy { $0.y > page.headings[0].y })
        #expect(page.height < style.maxPageHeight, "the last page is only as high as it needs")
    }

    /// Every photo once, in order; a heading never alone at the bottom of a page; a
    /// folder that runs on gets a continued heading at the top of the next page.
    @Test(arguments: [10, 200, 5000])
    func pagesHoldEveryPhotoOnceAndNoOrphanHeadings(count: Int) {
        var items: [ContactSheetItem] = []
        var position = 0
        var folder = 0
        while position < count {
            let size = min(count - position, [1, 7, 40, 300, 3][folder % 5])
            items.append(.folder(name: "folder \(folder)", count: size))
            items += photos((position + 1)...(position + size))
            position += size
            folder += 1
        }
        let style = ContactSheetStyle()
        let pages = style.layout(items)
        #expect(pages.flatMap { $0.cells.map(\.photo.position) } == Array(1...count))
        for (index, page) in pages.enumerated() {
            for heading in page.headings {
                #expect(page.cells.contains { $0.y > heading.y }, "page \(index + 1): \(heading.name) has a row under it")
            }
            if index > 0, let first = page.cells.first, let previous = pages[index - 1].cells.last,
               items.folder(of: first.photo.position) == items.folder(of: previous.photo.position) {
                #expect(page.headings.first?.continued == true, "page \(index + 1) continues a folder")
            }
            #expect(page.cells.allSatisfy { $0.y + style.cell + style.caption <= style.maxPageHeight - style.margin })
            #expect(page.height <= style.maxPageHeight)
        }
        if count == 5000 { #expect(pages.count > 30) }
    }

    @Test func fullPagesHoldAsManyRowsAsFit() {
        let style = ContactSheetStyle(columns: 8, cell: 180, maxPageHeight: 2600)
        let pages = style.layout([.folder(name: "all", count: 400)] + photos(1...400))
        let rows = Set(pages[0].cells.map(\.y)).count
        let room = style.contentBottom - (style.contentTop + style.heading)
        #expect(rows == (room + style.gutter) / style.row)
    }
}

extension [ContactSheetItem] {
    /// The folder heading a position falls under.
    func folder(of position: Int) -> String? {
        var current: String?
        for item in self {
            switch item {
            case .folder(let name, _): current = name
            case .photo(let photo): if photo.position == position { return current }
            }
        }
        return nil
    }
}

/// Pixels of rendered pages: the picker's crimson badge with its number, the frame,
/// protected cells dimmed with a lock, placeholders.
struct ContactSheetRenderTests {
    init() throws { try Vips.start() }

    private func within(_ a: RGB, _ b: RGB, _ tolerance: Int = 12) -> Bool {
        abs(Int(a.r) - Int(b.r)) <= tolerance && abs(Int(a.g) - Int(b.g)) <= tolerance && abs(Int(a.b) - Int(b.b)) <= tolerance
    }

    /// Each corner of a rounded rectangle is the others' mirror image, whatever its
    /// size: where it is exactly 2r high or wide (every pill of an even height), two
    /// corners' centres meet, and the bottom half was once left out (issue 48, 9).
    @Test(arguments: [(20, 20, 10), (30, 20, 10), (21, 21, 10), (31, 21, 10), (12, 24, 12), (40, 13, 6)])
    func roundedCornersMirrorEachOther(_ w: Int, _ h: Int, _ r: Int) {
        var canvas = Canvas(width: w + 4, height: h + 4, background: .white)
        canvas.roundedRect(x: 2, y: 2, width: w, height: h, radius: r, RGB(0, 0, 0))
        var unlike: [String] = []
        for y in 0..<h {
            for x in 0..<w {
                let here = canvas.pixel(2 + x, 2 + y)
                if here != canvas.pixel(2 + x, 2 + h - 1 - y) { unlike.append("(\(x),\(y)) vs its row mirror") }
                if here != canvas.pixel(2 + w - 1 - x, 2 + y) { unlike.append("(\(x),\(y)) vs its column mirror") }
            }
        }
        #expect(unlike.isEmpty, "\(w)x\(h) r\(r): \(unlike.prefix(6))")
        #expect(canvas.pixel(2 + w / 2, 2 + h / 2) == RGB(0, 0, 0) && canvas.pixel(2, 2 + h - 1) != RGB(0, 0, 0))
    }

    /// The position pill on a cell's top-left, at the cell sizes people use: as much
    /// of it below its middle as above (the bottom half was missing at most sizes).
    @Test(arguments: [96, 128, 160, 200, 256, 320])
    func thePositionPillIsWholeAtEveryCellSize(_ cell: Int) throws {
        let style = ContactSheetStyle(columns: 1, cell: cell)
        let pages = style.layout([.photo(ContactSheetPhoto(thumbnail: nil, position: 7, label: "a.jpg"))])
        let canvas = try ContactSheet(style: style).draw(pages[0], number: 1, of: 1)
        let spot = pages[0].cells[0]
        // The pill is the dark ink in the cell's top-left corner (its digit is white).
        var dark: [(x: Int, y: Int)] = []
        for y in spot.y..<spot.y + cell / 3 {
            for x in spot.x..<spot.x + cell / 3 where canvas.pixel(x, y).r < 110 { dark.append((x, y)) }
        }
        let top = try #require(dark.map(\.y).min()), bottom = try #require(dark.map(\.y).max())
        let middle = Double(top + bottom) / 2
        let above = dark.count { Double($0.y) < middle }, below = dark.count { Double($0.y) > middle }
        #expect(abs(above - below) * 10 <= max(above, below), "cell \(cell): \(above) dark pixels above the middle, \(below) below")
        #expect(bottom - top >= 12, "cell \(cell): a pill \(bottom - top + 1) pixels high")
    }

    /// The ends of the options' ranges (`SheetLimits`) are drawn, a heading and a
    /// title included: a single column of the smallest cells once trapped on the
    /// heading's width (negative), killing the renderer.
    @Test(arguments: [(1, 48), (1, 1024), (64, 256), (16, 1024)])
    func theEndsOfTheRangesAreDrawn(_ columns: Int, _ cell: Int) throws {
        #expect(SheetLimits.problem(columns: columns, cell: cell) == nil)
        var style = ContactSheetStyle(columns: columns, cell: cell)
        style.title = "pics/2024/05 Kyoto, 3 photos"
        let items: [ContactSheetItem] = [.folder(name: "pics/2024/05 Kyoto", count: 3)]
            + (1...3).map { .photo(ContactSheetPhoto(thumbnail: nil, position: $0, badge: $0 == 2 ? 1 : nil, label: "IMG_000\($0).JPG")) }
        let pages = style.layout(items)
        let canvas = try ContactSheet(style: style).draw(pages[0], number: 1, of: pages.count)
        #expect(canvas.width == style.pageWidth)
    }

    @Test func selectedProtectedAndPlainCells() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let marker = try Samples.marker(scratch.child("m.jpg"), width: 600, height: 600)
        // A thumbnail as the worker writes it: PNG, decoded by our own PNG reader.
        let thumbnail = try scratch.write("m.png", try Pixels.png(of: marker, side: 256))
        let style = ContactSheetStyle(columns: 3, cell: 160)
        let items: [ContactSheetItem] = [
            .folder(name: "2024/05", count: 3),
            .photo(ContactSheetPhoto(thumbnail: thumbnail, position: 1, badge: 2, label: "a.jpg")),
            .photo(ContactSheetPhoto(thumbnail: thumbnail, position: 2, isProtected: true, label: "b.jpg")),
            .photo(ContactSheetPhoto(thumbnail: thumbnail, position: 3, label: "c.jpg")),
            .photo(ContactSheetPhoto(thumbnail: nil, position: 4, label: "clip.mp4", isVideo: true)),
            .photo(ContactSheetPhoto(thumbnail: scratch.child("missing.png"), position: 5, label: "d.nef")),
        ]
        let pages = style.layout(items)
        try #require(pages.count == 1)
        let canvas = try ContactSheet(style: style).draw(pages[0], number: 1, of: 1)
        let cells = pages[0].cells
        let side = style.cell

        // The selected cell: a crimson frame, and the badge disc on its top-right.
        let selected = cells[0]
        #expect(within(canvas.pixel(selected.x + 1, selected.y + side / 2), ContactSheet.selected))
        let radius = min(22, max(11, side / 9))
        let badgeX = selected.x + side - radius - side / 28 - 2, badgeY = selected.y + radius + side / 28 + 2
        let badgeRing = (0..<radius).map { canvas.pixel(badgeX - radius + 2 + $0, badgeY) }
        #expect(badgeRing.contains { within($0, ContactSheet.selected) }, "crimson disc")
        let badgeCore = (-radius / 2...radius / 2).flatMap { dx in (-radius / 2...radius / 2).map { canvas.pixel(badgeX + dx, badgeY + $0) } }
        #expect(badgeCore.contains { $0.r > 230 && $0.g > 230 && $0.b > 230 }, "a white number in it")
        // The picture itself, fitted into the cell: the marker's red top-left quarter
        // (below the position pill), blue elsewhere.
        let red = canvas.pixel(selected.x + side / 5, selected.y + side * 2 / 5)
        #expect(red.r > 200 && red.g < 60 && red.b < 60, "\(red)")
        let elsewhere = canvas.pixel(selected.x + side * 3 / 4, selected.y + side * 3 / 4)
        #expect(elsewhere.b > 150 && elsewhere.r < 60, "\(elsewhere)")

        // The protected cell is dimmed: its blue is paler than the plain cell's.
        let protected = cells[1], plain = cells[2]
        let paleBlue = canvas.pixel(protected.x + side * 3 / 4, protected.y + side * 3 / 4)
        let blue = canvas.pixel(plain.x + side * 3 / 4, plain.y + side * 3 / 4)
        #expect(blue.b > 150 && blue.r < 60, "\(blue)")
        #expect(paleBlue.r > blue.r + 60, "dimmed: \(paleBlue) vs \(blue)")
        // Its lock: a dark disc (not crimson) with white in the middle.
        let lock = canvas.pixel(protected.x + side - radius - side / 28 - 2, protected.y + side / 28 + 4)
        #expect(lock.r < 120 && !within(lock, ContactSheet.selected), "\(lock)")
        // No frame on the plain cell.
        #expect(!within(canvas.pixel(plain.x + 1, plain.y + side / 2), ContactSheet.selected))

        // The video placeholder is dark; the missing thumbnail a light grey box.
        let video = cells[3], missing = cells[4]
        let dark = canvas.pixel(video.x + side / 2, video.y + side - 12)
        #expect(dark.r < 60 && dark.g < 60, "\(dark)")
        let grey = canvas.pixel(missing.x + 10, missing.y + side - 10)
        #expect(grey.r > 200 && abs(Int(grey.r) - Int(grey.b)) < 10, "\(grey)")
    }

    /// A photo's marks on its picture: gold stars at the lower left, the label's disc
    /// at the lower right and the flag beside it (a reject's red disc); nothing on an
    /// unmarked photo.
    @Test func starsFlagAndLabelAreDrawnOnTheCell() throws {
        let style = ContactSheetStyle(columns: 2, cell: 200)
        let items: [ContactSheetItem] = [
            .photo(ContactSheetPhoto(thumbnail: nil, position: 1, label: "a.jpg", rating: 5, flag: "reject", colorLabel: "green")),
            .photo(ContactSheetPhoto(thumbnail: nil, position: 2, label: "b.jpg")),
        ]
        let pages = style.layout(items)
        let canvas = try ContactSheet(style: style).draw(pages[0], number: 1, of: 1)
        let side = style.cell, inset = side / 28 + 2
        let radius = min(16, max(8, side / 12))
        func region(_ cell: ContactSheetPage.Cell, x: ClosedRange<Int>, y: ClosedRange<Int>) -> [RGB] {
            x.flatMap { dx in y.map { canvas.pixel(cell.x + dx, cell.y + $0) } }
        }
        let marked = pages[0].cells[0], plain = pages[0].cells[1]
        let lowerLeft = (inset...(side / 2)), bottom = ((side - inset - 2 * radius)...(side - inset))
        func gold(_ p: RGB) -> Bool { p.r > 220 && p.g > 160 && p.b < 90 }
        #expect(region(marked, x: lowerLeft, y: bottom).contains(where: gold), "stars")
        #expect(!region(plain, x: lowerLeft, y: bottom).contains(where: gold), "no stars on an unmarked photo")
        let label = canvas.pixel(marked.x + side - inset - radius, marked.y + side - inset - radius)
        #expect(within(label, ContactSheet.labelColours["green"] ?? .white), "\(label)")
        let flagX = side - inset - 3 * radius - 6
        let flag = region(marked, x: (flagX - radius / 2)...(flagX + radius / 2), y: (side - inset - radius - 2)...(side - inset - radius + 2))
        #expect(flag.contains { within($0, RGB(200, 30, 40)) }, "a reject's red disc")
        let plainCorner = canvas.pixel(plain.x + side - inset - radius, plain.y + side - inset - radius)
        #expect(!within(plainCorner, ContactSheet.labelColours["green"] ?? .white), "\(plainCorner)")
    }

    /// The empty circle on an unselected photo says "tap to pick": drawn in select
    /// mode only. In view mode the corner shows the picture itself.
    @Test(arguments: [false, true])
    func anEmptySelectionCircleOnlyInSelectMode(selecting: Bool) throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let marker = try Samples.marker(scratch.child("m.jpg"), width: 600, height: 600)
        let thumbnail = try scratch.write("m.png", try Pixels.png(of: marker, side: 256))
        let style = ContactSheetStyle(columns: 2, cell: 160, selecting: selecting)
        let pages = style.layout([.photo(ContactSheetPhoto(thumbnail: thumbnail, position: 1, label: "a.jpg"))])
        let canvas = try ContactSheet(style: style).draw(pages[0], number: 1, of: 1)
        let cell = pages[0].cells[0], side = style.cell
        let radius = min(22, max(11, side / 9))
        let cx = cell.x + side - radius - side / 28 - 2, cy = cell.y + radius + side / 28 + 2
        // The ring's right edge, just inside the radius: white when the circle is
        // drawn, the marker's blue (its top-right quarter) when not.
        let ring = canvas.pixel(cx + radius - 2, cy)
        if selecting {
            #expect(ring.r > 200 && ring.g > 200 && ring.b > 200, "a white ring: \(ring)")
        } else {
            #expect(ring.b > 150 && ring.r < 60 && ring.g < 100, "the picture, no ring: \(ring)")
            let centre = canvas.pixel(cx, cy)
            #expect(centre.b > 150 && centre.r < 60, "no shade in the middle: \(centre)")
        }
    }

    /// A thumbnail our PNG reader does not take (a JPEG, a palette PNG) goes through
    /// libvips; one that is not a photo format at all gets the placeholder.
    @Test func otherThumbnailsThroughLibvips() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let marker = try Samples.marker(scratch.child("m.jpg"), width: 600, height: 600)
        let jpeg = scratch.child("t.jpg")
        _ = try Tool.run("/usr/bin/vipsthumbnail", [marker.lossyString, "-s", "256", "-o", jpeg.lossyString])
        let palette = scratch.child("palette.png")
        _ = try Tool.run("/usr/bin/vips", ["pngsave", jpeg.lossyString, palette.lossyString, "--palette"])
        #expect(throws: PNGImage.Failure.self) { try PNGImage(decoding: try scratch.read(palette)) }
        let pdf = try scratch.write("t.png", Array("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n".utf8))
        let style = ContactSheetStyle(columns: 3, cell: 120)
        let pages = style.layout([jpeg, palette, pdf].enumerated().map {
            .photo(ContactSheetPhoto(thumbnail: $0.element, position: $0.offset + 1, label: "x"))
        })
        let canvas = try ContactSheet(style: style).draw(pages[0], number: 1, of: 1)
        for cell in pages[0].cells.prefix(2) {
            let red = canvas.pixel(cell.x + 20, cell.y + 45)
            #expect(red.r > 200 && red.g < 60, "\(red)")
        }
        let placeholder = canvas.pixel(pages[0].cells[2].x + 5, pages[0].cells[2].y + 115)
        #expect(placeholder.r > 200 && abs(Int(placeholder.r) - Int(placeholder.b)) < 10, "\(placeholder)")
    }

    /// Real pages: 10, 200 and 5 000 photos (of the 5 000, the first and the last
    /// page), encoded as PNG and JPEG, decoded back by libvips.
    @Test(arguments: [10, 200, 5000])
    func pagesEncode(count: Int) throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let thumbnail = try scratch.write("t.png", try Pixels.png(of: try Samples.marker(scratch.child("m.jpg")), side: 256))
        var items: [ContactSheetItem] = [.folder(name: "Kyoto 京都", count: count)]
        for position in 1...count {
            items.append(.photo(ContactSheetPhoto(
                thumbnail: position % 7 == 0 ? nil : thumbnail, position: position, badge: position % 5 == 0 ? position / 5 : nil,
                isProtected: position % 11 == 0, label: "IMG_\(position).JPG", isVideo: position % 14 == 0)))
        }
        let style = ContactSheetStyle(title: "pictures, \(count) photos")
        let sheet = ContactSheet(style: style)
        let pages = style.layout(items)
        for index in Set([0, pages.count - 1]) {
            for format in [ContactSheet.Format.png, .jpeg(quality: 85)] {
                let bytes = try sheet.render(pages[index], number: index + 1, of: pages.count, format: format)
                let file = try scratch.write(ByteString("page-\(index).\(format == .png ? "png" : "jpg")"), bytes)
                let size = try Pixels.size(file)
                #expect(size.width == style.pageWidth && size.height == max(pages[index].height, 1), "\(file)")
            }
        }
    }
}
