// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Glibc

extension CullApp {
    var geometry: CellGeometry { grid.cell }

    func currentLayout() -> GridLayout? { grid.layout(runs: data.runs, screenColumns: terminal.size().columns) }

    /// Lines between the title bar and the status bar.
    var gridLines: Int { GridGeometry.gridLines(screenRows: terminal.size().rows) }

    /// Draws what the state says, and sends the difference.
    func draw() {
        dirty = false
        let size = terminal.size()
        var screen = ScreenBuffer(width: size.columns, height: size.rows)
        switch overlay {
        case .detail: drawDetail(&screen)
        default: drawGrid(&screen)
        }
        drawTitle(&screen)
        drawStatus(&screen)
        switch overlay {
        case .confirm(let plan, _): drawConfirm(&screen, plan)
        case .progress(let title, let done, let total): drawProgress(&screen, title: title, done: done, total: total)
        case .help: drawHelp(&screen)
        case .ask(let question): drawAsk(&screen, question)
        default: break
        }
        terminal.write(writer.frame(screen, kittyImages: thumbnails.graphics == .kitty))
        for ended in frames.framed(viewIsEmpty: data.total == 0, keysAnswered: requests.isIdle && input.isEmpty) {
            FrameTiming.record(ended.name, since: ended.since)
        }
    }

    // MARK: the grid

    func drawGrid(_ screen: inout ScreenBuffer) {
        guard let layout = currentLayout(), data.total > 0 else {
            let text = data.view.hasFilter ? "No photo matches the filter (/ changes it)." : "No photos here yet."
            screen.put(2, 2, text, Palette.mutedText)
            return
        }
        let first = 1, last = first + gridLines - 1
        cursor.keepVisible(layout, lines: gridLines, cellHeight: geometry.height)
        var y = first
        var row = cursor.top
        var shownPositions: [Int] = []
        while y <= last, let gridRow = layout.row(row) {
            switch gridRow {
            case .heading(let run):
                drawHeading(&screen, layout.runs[run], y: y)
                y += 1
            case .photos(_, let firstPosition, let lastPosition):
                for position in firstPosition...lastPosition {
                    let x = 1 + (position - firstPosition) * geometry.width
                    drawCell(&screen, position: position, x: x, y: y, bottom: last)
                    shownPositions.append(position)
                }
                y += geometry.height
            }
            row += 1
        }
        requestDetails(around: shownPositions)
        let cell = geometry
        frames.screenComplete = !shownPositions.isEmpty && shownPositions.allSatisfy { position in
            guard let photo = data.photo(at: position) else { return false }
            return thumbnails.isSettled(photo, columns: cell.artColumns, rows: cell.artRows, large: false)
        }
    }

    func drawHeading(_ screen: inout ScreenBuffer, _ run: FolderRun, y: Int) {
        let name = run.path.isEmpty ? "\(run.root.forTerminal) (top folder)" : "\(run.root)/\(run.path)".forTerminal
        var count = run.count == 1 ? "1 photo" : "\(run.count) photos"
        if run.total != run.count { count += " of \(run.total) here" }
        let used = screen.put(1, y, "▍" + DisplayWidth.truncateLeft(name, to: screen.width - 24), Palette.headingText)
        screen.put(2 + used, y, "· " + count, Palette.mutedText)
    }

    func drawCell(_ screen: inout ScreenBuffer, position: Int, x: Int, y: Int, bottom: Int) {
        let cell = geometry
        guard let id = data.id(at: position) else { return }
        let photo = data.details[id]
        let isCursor = position == cursor.position
        let number = mirror.selection.number(of: id)
        let isProtected = photo?.protected == true
        // The frame: the cursor's, the selection's, a protected photo's, or none.
        let frameStyle: CellStyle? = isCursor ? Palette.cursorFrame : number != nil ? Palette.selectedFrame
            : isProtected ? Palette.mutedText : nil
        if let frameStyle, y + cell.artRows + 1 <= bottom {
            let heavy = isCursor
            let h: Character = heavy ? "━" : isProtected && number == nil ? "┄" : "─"
            let v: Character = heavy ? "┃" : isProtected && number == nil ? "┆" : "│"
            let corners: [Character] = heavy ? ["┏", "┓", "┗", "┛"] : ["┌", "┐", "└", "┘"]
            let w = cell.artColumns + 2
            screen.put(x, y, String(corners[0]) + String(repeating: h, count: w - 2) + String(corners[1]), frameStyle)
            for dy in 1...cell.artRows {
                screen.put(x, y + dy, String(v), frameStyle)
                screen.put(x + w - 1, y + dy, String(v), frameStyle)
            }
            screen.put(x, y + cell.artRows + 1, String(corners[2]) + String(repeating: h, count: w - 2) + String(corners[3]), frameStyle)
        }
        // The picture.
        let artX = x + 1, artY = y + 1
        let fits = artY + cell.artRows - 1 <= bottom
        if let photo, fits, let tile = thumbnails.tile(for: photo, columns: cell.artColumns, rows: cell.artRows, large: false) {
            put(tile, on: &screen, x: artX, y: artY, key: "\(id)")
        } else {
            drawPlaceholder(&screen, photo: photo, x: artX, y: artY, columns: cell.artColumns, rows: min(cell.artRows, bottom - artY + 1))
        }
        // Seed 002's badge: the tap-order number on the frame's corner.
        if let number, y <= bottom {
            screen.put(x + 1, y, "[\(number)]", Palette.badge)
        }
        if isProtected, y <= bottom {
            screen.put(x + cell.artColumns + 1 - 2, y, "⊘", Palette.warningBar)
        }
        // A stack's count on the frame's bottom-right corner (a view of stacks, or
        // collapsed); the marks keep to its left.
        var countWidth = 0
        if let count = photo?.stackCount, y + cell.artRows + 1 <= bottom {
            let label = "×\(count)"
            countWidth = DisplayWidth.of(label)
            screen.put(x + cell.artColumns + 1 - countWidth, y + cell.artRows + 1, label, Palette.stackBadge)
        }
        if let photo, y + cell.artRows + 1 <= bottom {
            drawMarks(&screen, photo, x: x, y: y + cell.artRows + 1, width: cell.artColumns + 2 - countWidth)
        }
        // The caption: position and name.
        let captionY = y + cell.artRows + 2
        if captionY <= bottom {
            let name = photo.map { String($0.path.split(separator: "/").last ?? Substring($0.path)).forTerminal } ?? "…"
            let label = "\(position) " + (isProtected ? "⊘" : "") + name
            let style = isCursor ? CellStyle(foreground: Palette.cursor, bold: true) : isProtected ? Palette.mutedText : .plain
            screen.put(x, captionY, DisplayWidth.truncate(label, to: cell.artColumns + 2), style)
        }
    }

    func drawPlaceholder(_ screen: inout ScreenBuffer, photo: PhotoSummary?, x: Int, y: Int, columns: Int, rows: Int) {
        guard rows > 0 else { return }
        let shade = CellStyle(foreground: .rgb(70, 70, 80), background: .rgb(30, 30, 36), dim: photo?.protected == true)
        screen.fill(x, y, columns, rows, "░", shade)
        let label = photo.map { $0.type.uppercased() } ?? "…"
        let labelStyle = CellStyle(foreground: Palette.muted, background: .rgb(30, 30, 36))
        screen.put(x + max(0, (columns - DisplayWidth.of(label)) / 2), y + rows / 2, label, labelStyle, limit: columns)
    }

    func put(_ tile: ArtTile, on screen: inout ScreenBuffer, x: Int, y: Int, key: String) {
        let left = x + tile.offsetX, upper = y + tile.offsetY
        if let sequence = tile.sequence {
            screen.place(ImagePlacement(column: left, row: upper, width: tile.columns, height: tile.rows,
                                        key: "\(key)/\(tile.columns)x\(tile.rows)", sequence: sequence))
            return
        }
        for row in 0..<tile.rows {
            for column in 0..<tile.columns {
                screen.set(left + column, upper + row, tile.cells[row * tile.columns + column])
            }
        }
    }

    /// Details (names, sizes, protection) of the photos on screen and a screenful
    /// around them, a page at a time.
    func requestDetails(around positions: [Int]) {
        guard let low = positions.min(), let high = positions.max() else { return }
        let span = max(high - low + 1, 64)
        let pages = data.missingPages(max(1, low - span)...(high + span))
        for page in pages {
            data.pagesInFlight.insert(page)
            let generation = data.generation
            let command = ListRequest(session: session, view: nil, offset: page * ViewData.pageSize,
                                      limit: ViewData.pageSize, fields: ViewData.detailFields)
            try? link.call(command) { [weak self] outcome in
                guard let self, self.data.generation == generation else { return }
                self.data.pagesInFlight.remove(page)
                if case .success(let listing) = outcome {
                    self.data.store(listing.photos)
                    self.dirty = true
                }
            }
        }
        let shown = positions.compactMap { data.photo(at: $0) }
        thumbnails.want(shown, columns: geometry.artColumns, rows: geometry.artRows, large: false)
    }
}
