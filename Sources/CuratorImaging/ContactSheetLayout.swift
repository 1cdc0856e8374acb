// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// What a contact sheet shows, in view order: folder headings and photos.
public enum ContactSheetItem: Sendable, Equatable {
    /// A folder, and how many photos it holds in the view.
    case folder(name: String, count: Int)
    case photo(ContactSheetPhoto)
}

/// One photo's cell.
public struct ContactSheetPhoto: Sendable, Equatable {
    /// A thumbnail to show (any image libvips reads), nil when there is none yet.
    public var thumbnail: ByteString?
    /// The view position a person types (`select 3 5 9-12`).
    public var position: Int
    /// The selection's tap-order number when selected.
    public var badge: Int?
    /// In a protected folder: cannot be selected, and looks it.
    public var isProtected: Bool
    /// Usually the file name.
    public var label: String
    /// A video clip (its placeholder, when it has no thumbnail, says so).
    public var isVideo: Bool
    /// The photos of the stack or duplicate set the cell stands for, when it is in one.
    public var setCount: Int?
    /// Its stars (0 to 5), `pick` or `reject`, and colour label (docs/XMP.md), drawn on the picture.
    public var rating: Int?
    public var flag: String?
    public var colorLabel: String?

    public init(thumbnail: ByteString?, position: Int, badge: Int? = nil, isProtected: Bool = false, label: String,
                isVideo: Bool = false, setCount: Int? = nil, rating: Int? = nil, flag: String? = nil,
                colorLabel: String? = nil) {
        self.setCount = setCount
        self.rating = rating
        self.flag = flag
        self.colorLabel = colorLabel
        self.thumbnail = thumbnail
        self.position = position
        self.badge = badge
        self.isProtected = isProtected
        self.label = label
        self.isVideo = isVideo
    }
}

/// The geometry of a contact sheet, every measure derived from the cell size.
public struct ContactSheetStyle: Sendable, Equatable {
    /// Photos per row.
    public var columns: Int
    /// The side of the square each picture is fitted into, pixels.
    public var cell: Int
    /// The most a page may be high, pixels; a page holds whole rows. The last page
    /// is only as high as what it holds.
    public var maxPageHeight: Int
    /// Printed at the top of every page (the view, the selection's count...).
    public var title: String?
    /// The session is in select mode: an unselected photo shows the empty circle a
    /// tap would fill. In view mode nothing can be picked, and no circle is drawn.
    public var selecting: Bool

    public init(columns: Int = 8, cell: Int = 180, maxPageHeight: Int = 2600, title: String? = nil, selecting: Bool = false) {
        self.columns = max(1, columns)
        self.cell = max(48, cell)
        self.maxPageHeight = maxPageHeight
        self.title = title
        self.selecting = selecting
    }

    var margin: Int { max(20, cell / 6) }
    var gutter: Int { max(10, cell / 11) }
    var captionFont: Int { min(16, max(10, cell / 13)) }
    var caption: Int { captionFont + 10 }
    var headingFont: Int { min(26, max(14, cell / 9)) }
    var heading: Int { headingFont * 2 + 8 }
    var titleFont: Int { headingFont + 4 }
    var titleHeight: Int { title == nil ? 0 : titleFont * 2 + 6 }
    var footerFont: Int { captionFont }
    var footer: Int { footerFont * 2 + 6 }
    /// From one row's top to the next one's.
    var row: Int { cell + caption + gutter }
    /// What a row draws: the gutter below the last row of a page is not needed.
    var rowInk: Int { cell + caption }

    public var pageWidth: Int { 2 * margin + columns * cell + (columns - 1) * gutter }
    var contentTop: Int { margin + titleHeight }
    /// Rows always fit, however small `maxPageHeight` is set.
    var contentBottom: Int { max(maxPageHeight - margin - footer, contentTop + heading + row) }
}

/// Photos and headings placed on pages.
public struct ContactSheetPage: Sendable, Equatable {
    public struct Heading: Sendable, Equatable {
        public var name: String
        public var count: Int
        /// The folder began on an earlier page.
        public var continued: Bool
        public var y: Int
    }

    public struct Cell: Sendable, Equatable {
        public var photo: ContactSheetPhoto
        public var x: Int
        public var y: Int
    }

    public var headings: [Heading] = []
    public var cells: [Cell] = []
    public var height: Int = 0
}

extension ContactSheetStyle {
    /// Lays `items` out on pages: rows of `columns` cells, a heading before each
    /// folder's first row (repeated, marked continued, at the top of a page the
    /// folder runs on to), never a heading alone at the bottom of a page.
    public func layout(_ items: [ContactSheetItem]) -> [ContactSheetPage] {
        var pages: [ContactSheetPage] = []
        var page = ContactSheetPage()
        var y = contentTop
        var column = 0
        var folder: (name: String, count: Int)?

        func finishPage() {
            page.height = pages.isEmpty && page.cells.isEmpty && page.headings.isEmpty ? 0 : maxPageHeight
            pages.append(page)
            page = ContactSheetPage()
            y = contentTop
            column = 0
        }
        func closeRow() {
            if column > 0 { y += row }
            column = 0
        }

        for item in items {
            switch item {
            case .folder(let name, let count):
                closeRow()
                if !page.headings.isEmpty || !page.cells.isEmpty { y += gutter }
                // A heading needs a row under it on the same page.
                if y + heading + rowInk > contentBottom && (!page.cells.isEmpty || !page.headings.isEmpty) { finishPage() }
                page.headings.append(.init(name: name, count: count, continued: false, y: y))
                y += heading
                folder = (name, count)
            case .photo(let photo):
                if column == columns { closeRow() }
                if column == 0 && y + rowInk > contentBottom {
                    finishPage()
                    if let folder {
                        page.headings.append(.init(name: folder.name, count: folder.count, continued: true, y: y))
                        y += heading
                    }
                }
                page.cells.append(.init(photo: photo, x: margin + column * (cell + gutter), y: y))
                column += 1
            }
        }
        closeRow()
        if !page.cells.isEmpty || !page.headings.isEmpty || pages.isEmpty {
            page.height = max(y, contentTop) + margin + footer - (page.cells.isEmpty ? 0 : gutter)
            pages.append(page)
        }
        return pages
    }
}
