// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

extension CullApp {
    /// The top line: where, how sorted and filtered, how many; the mode and the selection.
    func drawTitle(_ screen: inout ScreenBuffer) {
        screen.fill(0, 0, screen.width, 1, " ", Palette.statusBar)
        let view = data.view
        var left = " \(Self.describe(view)) · \(data.total) photo\(data.total == 1 ? "" : "s") · by \(Self.describe(view.sort ?? .name))"
            + ((view.order ?? .asc) == .desc ? " ↓" : " ↑")
        if view.hasFilter { left += " · filter \(FilterText.describe(view.filter))" }
        var right: String
        if mirror.mode == .select {
            right = " SELECT \(mirror.selection.count)" + (mirror.cap.map { " of \($0)" } ?? "") + " · \(Self.bytes(mirror.selectedBytes))"
            if mirror.hiddenSelected > 0 { right += " (\(mirror.hiddenSelected) hidden)" }
        } else {
            right = " VIEW"
        }
        if data.total > 0 { right += "  \(cursor.position)/\(data.total) " } else { right += " " }
        let modeStyle = mirror.mode == .select ? Palette.badge : Palette.statusBar
        let rightWidth = DisplayWidth.of(right)
        screen.put(0, 0, DisplayWidth.truncate(left, to: max(0, screen.width - rightWidth - 1)), Palette.statusBar)
        screen.put(max(0, screen.width - rightWidth), 0, right, modeStyle)
    }

    /// The bottom line: a message, the filter being typed, or what the keys do.
    func drawStatus(_ screen: inout ScreenBuffer) {
        let y = screen.height - 1
        guard y > 0 else { return }
        if case .prompt(let text) = overlay {
            screen.fill(0, y, screen.width, 1, " ", Palette.statusBar)
            let used = screen.put(0, y, " filter (glob, or date range 2024-05..2024-06): ", Palette.statusBar)
            screen.put(used, y, DisplayWidth.truncateLeft(text, to: screen.width - used - 2) + "█", Palette.statusBar)
            return
        }
        if let message = status.message {
            let style = message.warning ? Palette.warningBar : Palette.statusBar
            screen.fill(0, y, screen.width, 1, " ", style)
            screen.put(0, y, " " + DisplayWidth.truncate(message.text, to: screen.width - 2), style)
            return
        }
        screen.fill(0, y, screen.width, 1, " ", Palette.statusBar)
        let hints: String
        switch overlay {
        case .detail: hints = " ←/→ previous/next · Space select · Esc back to the grid"
        default:
            hints = mirror.mode == .select
                ? " Space select · d delete selected · v leave select mode · / filter · s sort · Enter open · ? keys · q quit"
                : " v select mode · Enter open · d delete this · ^Z undo · / filter · s sort · o folder page · ? keys · q quit"
        }
        screen.put(0, y, DisplayWidth.truncate(hints, to: screen.width), Palette.statusBar)
    }

    // MARK: boxes over the grid

    private func box(_ screen: inout ScreenBuffer, title: String, lines: [(String, CellStyle)], width wanted: Int) {
        let width = min(screen.width - 2, max(wanted, DisplayWidth.of(title) + 6))
        let height = lines.count + 2
        let x = max(0, (screen.width - width) / 2), y = max(1, (screen.height - height) / 2)
        let frame = CellStyle(foreground: Palette.white, background: Palette.bar, bold: true)
        let inside = CellStyle(foreground: Palette.white, background: Palette.bar)
        screen.fill(x, y, width, height, " ", inside)
        screen.put(x, y, "┌" + String(repeating: "─", count: width - 2) + "┐", frame)
        screen.put(x + 2, y, " \(title) ", frame)
        for (index, line) in lines.enumerated() {
            screen.put(x, y + 1 + index, "│", frame)
            var style = line.1
            style.background = Palette.bar
            screen.put(x + 2, y + 1 + index, DisplayWidth.truncate(line.0, to: width - 4), style)
            screen.put(x + width - 1, y + 1 + index, "│", frame)
        }
        screen.put(x, y + height - 1, "└" + String(repeating: "─", count: width - 2) + "┘", frame)
    }

    /// Seed 000's alert, with what the plan holds: photos, files, bytes, the first names.
    func drawConfirm(_ screen: inout ScreenBuffer, _ plan: DeletePlanResult) {
        let text = CellStyle(foreground: Palette.white)
        // Every file of each group the plan takes (issue 15); a daemon without groups says nothing: one each.
        let files = plan.files ?? plan.items.count
        var lines: [(String, CellStyle)] = [
            ("\(plan.count) photo\(plan.count == 1 ? "" : "s"), \(files) file\(files == 1 ? "" : "s"), \(Self.bytes(plan.bytes))", CellStyle(foreground: Palette.white, bold: true)),
            ("", text),
        ]
        let shown = plan.items.prefix(5)
        for item in shown { lines.append(("\("\(item.root)/\(item.path)".forTerminal)  \(Self.bytes(item.size))", text)) }
        if plan.items.count > shown.count { lines.append(("… and \(plan.items.count - shown.count) more", Palette.mutedText)) }
        lines.append(("", text))
        lines.append(("y: move to the trash    n: cancel", CellStyle(foreground: Palette.cursor, bold: true)))
        box(&screen, title: "Move to the trash?", lines: lines, width: 60)
    }

    /// A question: what the key would do, then what y and n do.
    func drawAsk(_ screen: inout ScreenBuffer, _ question: Question) {
        let text = CellStyle(foreground: Palette.white)
        var lines: [(String, CellStyle)] = question.lines.map { ($0, text) }
        lines.append(("", text))
        lines.append(("y: \(question.yes)    n: \(question.no)", CellStyle(foreground: Palette.cursor, bold: true)))
        let widest = lines.map { DisplayWidth.of($0.0) }.max() ?? 0
        box(&screen, title: question.title, lines: lines, width: widest + 4)
    }

    func drawProgress(_ screen: inout ScreenBuffer, title: String, done: Int, total: Int) {
        let width = min(screen.width - 2, 60)
        let barWidth = max(10, width - 16)
        let filled = total > 0 ? min(barWidth, done * barWidth / total) : 0
        let bar = "[" + String(repeating: "█", count: filled) + String(repeating: "·", count: barWidth - filled) + "] \(done)/\(total)"
        box(&screen, title: title, lines: [("", .plain), (bar, CellStyle(foreground: Palette.white)), ("", .plain)], width: width)
    }

    func drawHelp(_ screen: inout ScreenBuffer) {
        // At most 72 columns: whole in an 80-column terminal.
        let keys = [
            "arrows, hjkl  move the cursor     PgUp/PgDn, g/G  page, first/last",
            "Enter         the photo large     + / -           bigger / smaller cells",
            "v             view / select mode (leaving it clears the selection: asks)",
            "Space         select or deselect the photo under the cursor",
            "d             trash the selection (view mode: this photo): asks",
            "Ctrl-Z        undo: says which batch (photos, root) it puts back; asks",
            "p, x, u       pick, reject, neither   0-5  stars (0: none), in the XMP",
            "6, 7, 8, 9    label red, yellow, green, blue (again: off)   a  advance",
            "/             filter: a glob (*.NEF) or dates (2024-05..2024-06)",
            "s, r          next sort; reverse the order (both keep the selection)",
            "o, [ ], Bksp  folder under the cursor as a page; beside it; back",
            "              (another page clears the selection: asks)",
            "q, Ctrl-C     quit                Ctrl-L          redraw",
        ]
        box(&screen, title: "Keys (any key closes)", lines: keys.map { ($0, CellStyle(foreground: Palette.white)) }, width: 76)
    }

    // MARK: one photo large

    func drawDetail(_ screen: inout ScreenBuffer) {
        guard let id = data.id(at: cursor.position) else { return }
        let photo = data.details[id]
        let infoLines = 6
        let artRows = max(3, screen.height - 3 - infoLines)
        let artColumns = max(10, screen.width - 4)
        if let photo, let tile = thumbnails.tile(for: photo, columns: artColumns, rows: artRows, large: true) {
            put(tile, on: &screen, x: 2, y: 1, key: "\(id)L")
        } else {
            drawPlaceholder(&screen, photo: photo, x: 2, y: 1, columns: artColumns, rows: artRows)
        }
        if let photo { thumbnails.want([photo], columns: artColumns, rows: artRows, large: true) } else { requestDetails(around: [cursor.position]) }
        var y = artRows + 2
        let label = Palette.mutedText
        // Values are names and what a file's EXIF says: shown escaped, whatever they hold.
        func line(_ name: String, _ value: String, _ style: CellStyle = .plain) {
            let used = screen.put(2, y, Self.pad(name, 10), label)
            screen.put(2 + used, y, DisplayWidth.truncateLeft(value.forTerminal, to: screen.width - 14), style)
            y += 1
        }
        guard let photo else {
            line("photo", "\(cursor.position) of \(data.total)…")
            return
        }
        var mark = ""
        if let number = mirror.selection.number(of: id) { mark = "   selected #\(number)" }
        if photo.protected == true { mark += "   protected: cannot be selected" }
        line("path", "\(photo.root)/\(photo.path)", CellStyle(bold: true))
        line("size", "\(Self.bytes(photo.size)) (\(photo.size) bytes), \(photo.type.uppercased())" + mark)
        line("captured", photo.captureTime.map { $0.replacingFirst("T", with: " ") } ?? "unknown")
        switch fileFacts(of: photo) {
        case .asked:
            line("camera", "…")
            line("pixels", "…")
        case .known(let info) where info.unreadable != nil:
            line("camera", info.unreadable ?? "", Palette.mutedText)
            line("pixels", "unknown")
        case .known(let info):
            line("camera", [info.camera, info.lens].compactMap { $0 }.joined(separator: " · ").nonEmpty ?? "unknown")
            line("pixels", Self.pixels(info) ?? "unknown")
        case .refused(let message):
            line("camera", message, Palette.mutedText)
            line("pixels", "unknown")
        }
        line("position", "\(cursor.position) of \(data.total) · id \(photo.id)")
    }

    /// What the daemon read from the photo's file (`photo.info`), asked once per
    /// photo shown large: the camera and the pixel size, with the daemon's checks of
    /// who may read it, wherever the photos are.
    func fileFacts(of photo: PhotoSummary) -> FileFacts {
        let (facts, isNew) = fileFacts.lookup(photo.id)
        guard isNew else { return facts }
        let id = photo.id
        do {
            try link.call(PhotoInfoRequest(photo: id)) { [weak self] outcome in
                guard let self, self.fileFacts.answer(id, outcome) else { return }
                self.dirty = true
            }
        } catch {
            requests.carry(error)
        }
        return facts
    }

    /// "8192 × 5464", and "(shown upright: 5464 × 8192)" when EXIF turns it a quarter.
    static func pixels(_ info: PhotoInfoResult) -> String? {
        guard let width = info.width, let height = info.height else { return nil }
        let turned = (info.orientation ?? 1) >= 5
        return "\(width) × \(height)" + (turned ? " (shown turned: \(height) × \(width))" : "")
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - DisplayWidth.of(text)))
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }

    func replacingFirst(_ target: Character, with replacement: String) -> String {
        guard let index = firstIndex(of: target) else { return self }
        return String(self[..<index]) + replacement + String(self[self.index(after: index)...])
    }
}
