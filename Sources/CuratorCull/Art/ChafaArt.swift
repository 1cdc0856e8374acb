// SPDX-License-Identifier: GPL-2.0-or-later
import CChafa
import CTerminalGuard

/// libchafa, turning a thumbnail into terminal art: Unicode blocks with colours, or
/// a sixel, kitty or iTerm2 image of the same cells.
struct ChafaArt {
    let graphics: GraphicsMode
    /// One character cell in pixels (for pixel images; ignored for text).
    let cellPixels: (width: Int, height: Int)
    private let termInfo: OpaquePointer?

    init(graphics: GraphicsMode, cellPixels: (width: Int, height: Int)) {
        self.graphics = graphics
        self.cellPixels = cellPixels
        // The terminal's own sequences, completed with chafa's common ones: a mode
        // forced with --graphics works where the database does not know the terminal.
        let db = chafa_term_db_get_default()
        let detected = chafa_term_db_detect(db, terminal_guard_environment())
        let fallback = chafa_term_db_get_fallback_info(db)
        if let detected, let fallback { chafa_term_info_supplement(detected, fallback) }
        if let fallback { chafa_term_info_unref(fallback) }
        termInfo = detected
    }

    func release() {
        if let termInfo { chafa_term_info_unref(termInfo) }
    }

    /// The cells an image of `width` x `height` pixels takes within `columns` x `rows`,
    /// keeping its aspect (cells are about twice as tall as wide).
    func fit(width: Int, height: Int, columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        var w = Int32(columns), h = Int32(rows)
        let ratio = Float(cellPixels.width) / Float(max(1, cellPixels.height))
        chafa_calc_canvas_geometry(Int32(width), Int32(height), &w, &h, ratio, 1, 0)
        return (max(1, Int(w)), max(1, Int(h)))
    }

    func render(_ image: RGBAImage, columns: Int, rows: Int, dim: Bool) -> ArtTile? {
        guard image.width > 0, image.height > 0, image.pixels.count >= image.width * image.height * 4 else { return nil }
        let size = fit(width: image.width, height: image.height, columns: columns, rows: rows)
        guard let config = chafa_canvas_config_new() else { return nil }
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, Int32(size.columns), Int32(size.rows))
        chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
        chafa_canvas_config_set_cell_geometry(config, Int32(cellPixels.width), Int32(cellPixels.height))
        chafa_canvas_config_set_pixel_mode(config, graphics.chafaPixelMode)
        let map = chafa_symbol_map_new()
        if let map {
            chafa_symbol_map_add_by_tags(map, ChafaSymbolTags(CHAFA_SYMBOL_TAG_BLOCK.rawValue | CHAFA_SYMBOL_TAG_SPACE.rawValue
                                                              | CHAFA_SYMBOL_TAG_HALF.rawValue))
            chafa_canvas_config_set_symbol_map(config, map)
            chafa_symbol_map_unref(map)
        }
        guard let canvas = chafa_canvas_new(config) else { return nil }
        defer { chafa_canvas_unref(canvas) }
        var pixels = image.pixels
        if dim { Self.darken(&pixels) }
        pixels.withUnsafeBufferPointer { buffer in
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, buffer.baseAddress,
                                         Int32(image.width), Int32(image.height), Int32(image.width * 4))
        }
        let offsetX = (columns - size.columns) / 2, offsetY = (rows - size.rows) / 2
        if graphics != .symbols {
            guard let printed = chafa_canvas_print(canvas, termInfo) else { return nil }
            defer { g_string_free(printed, 1) }
            let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(printed.pointee.str).assumingMemoryBound(to: UInt8.self),
                                                  count: Int(printed.pointee.len)))
            return ArtTile(columns: size.columns, rows: size.rows, offsetX: offsetX, offsetY: offsetY, cells: [], sequence: bytes)
        }
        var cells: [ScreenCell] = []
        cells.reserveCapacity(size.columns * size.rows)
        for y in 0..<size.rows {
            for x in 0..<size.columns {
                let code = chafa_canvas_get_char_at(canvas, Int32(x), Int32(y))
                var fg: Int32 = 0, bg: Int32 = 0
                chafa_canvas_get_colors_at(canvas, Int32(x), Int32(y), &fg, &bg)
                let character = Unicode.Scalar(code).map(Character.init) ?? " "
                let style = CellStyle(foreground: fg < 0 ? .standard : TerminalColor(packed: UInt32(fg)),
                                      background: bg < 0 ? .standard : TerminalColor(packed: UInt32(bg)))
                cells.append(ScreenCell(character: character, style: style, image: false))
            }
        }
        return ArtTile(columns: size.columns, rows: size.rows, offsetX: offsetX, offsetY: offsetY, cells: cells, sequence: nil)
    }

    /// Protected photos look it: greyed and darker.
    static func darken(_ pixels: inout [UInt8]) {
        var i = 0
        while i + 3 < pixels.count {
            let grey = (Int(pixels[i]) * 3 + Int(pixels[i + 1]) * 6 + Int(pixels[i + 2])) / 10
            let value = UInt8(clamping: grey * 45 / 100)
            pixels[i] = value
            pixels[i + 1] = value
            pixels[i + 2] = value
            i += 4
        }
    }
}
