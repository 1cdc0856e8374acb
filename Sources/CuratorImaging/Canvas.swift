// SPDX-License-Identifier: GPL-2.0-or-later

/// An 8-bit RGB colour.
public struct RGB: Equatable, Sendable {
    public var r: UInt8, g: UInt8, b: UInt8
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) { (self.r, self.g, self.b) = (r, g, b) }

    public static let white = RGB(255, 255, 255)
    public static let black = RGB(0, 0, 0)
}

/// A picture being drawn: packed 8-bit RGB rows. What a contact sheet needs and no
/// more: rectangles, antialiased discs and rings, images, and masks (rendered text)
/// blended in a colour. Everything is clipped to the canvas.
struct Canvas {
    let width: Int
    let height: Int
    private(set) var pixels: [UInt8]

    init(width: Int, height: Int, background: RGB) {
        self.width = width
        self.height = height
        var row = [UInt8](repeating: 0, count: width * 3)
        for x in 0..<width { (row[3 * x], row[3 * x + 1], row[3 * x + 2]) = (background.r, background.g, background.b) }
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 3)
        for _ in 0..<height { pixels += row }
        self.pixels = pixels
    }

    /// Copies `count` bytes of `source` from `offset` into the pixels at `start` (a row
    /// segment at a time: these are the canvas's bulk moves).
    private mutating func copy(_ source: [UInt8], from offset: Int, count: Int, to start: Int) {
        precondition(offset + count <= source.count && start + count <= pixels.count, "copy within bounds")
        pixels.withUnsafeMutableBytes { canvas in
            source.withUnsafeBytes { bytes in
                guard let to = canvas.baseAddress, let from = bytes.baseAddress else { return }
                (to + start).copyMemory(from: from + offset, byteCount: count)
            }
        }
    }

    /// Blends `colour` over one pixel with `alpha` (0-255).
    @inline(__always)
    private mutating func blend(_ x: Int, _ y: Int, _ colour: RGB, _ alpha: Int) {
        guard alpha > 0, x >= 0, y >= 0, x < width, y < height else { return }
        let i = (y * width + x) * 3
        if alpha >= 255 {
            (pixels[i], pixels[i + 1], pixels[i + 2]) = (colour.r, colour.g, colour.b)
            return
        }
        pixels[i] = UInt8((Int(pixels[i]) * (255 - alpha) + Int(colour.r) * alpha + 127) / 255)
        pixels[i + 1] = UInt8((Int(pixels[i + 1]) * (255 - alpha) + Int(colour.g) * alpha + 127) / 255)
        pixels[i + 2] = UInt8((Int(pixels[i + 2]) * (255 - alpha) + Int(colour.b) * alpha + 127) / 255)
    }

    mutating func fill(x: Int, y: Int, width w: Int, height h: Int, _ colour: RGB, alpha: Int = 255) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        if alpha >= 255 {
            var row = [UInt8](repeating: 0, count: (x1 - x0) * 3)
            for i in 0..<(x1 - x0) { (row[3 * i], row[3 * i + 1], row[3 * i + 2]) = (colour.r, colour.g, colour.b) }
            for yy in y0..<y1 { copy(row, from: 0, count: row.count, to: (yy * width + x0) * 3) }
            return
        }
        for yy in y0..<y1 { for xx in x0..<x1 { blend(xx, yy, colour, alpha) } }
    }

    /// A frame `thickness` pixels wide inside the rectangle.
    mutating func frame(x: Int, y: Int, width w: Int, height h: Int, thickness t: Int, _ colour: RGB) {
        fill(x: x, y: y, width: w, height: t, colour)
        fill(x: x, y: y + h - t, width: w, height: t, colour)
        fill(x: x, y: y + t, width: t, height: h - 2 * t, colour)
        fill(x: x + w - t, y: y + t, width: t, height: h - 2 * t, colour)
    }

    /// A disc (or, with `inner` > 0, a ring) centred at (cx, cy), edges antialiased by
    /// coverage sampled on a 4x4 grid per pixel.
    mutating func disc(cx: Double, cy: Double, radius: Double, inner: Double = 0, _ colour: RGB, alpha: Int = 255,
                       upperHalfOnly: Bool = false) {
        let x0 = Int((cx - radius).rounded(.down)), x1 = Int((cx + radius).rounded(.up))
        let y0 = Int((cy - radius).rounded(.down)), y1 = upperHalfOnly ? Int(cy.rounded(.up)) : Int((cy + radius).rounded(.up))
        let outer2 = radius * radius, inner2 = inner * inner
        for y in y0...y1 {
            for x in x0...x1 {
                var covered = 0
                for sy in 0..<4 {
                    let py = Double(y) + (Double(sy) + 0.5) / 4 - cy
                    if upperHalfOnly && py > 0 { continue }
                    for sx in 0..<4 {
                        let px = Double(x) + (Double(sx) + 0.5) / 4 - cx
                        let d = px * px + py * py
                        if d <= outer2 && d >= inner2 { covered += 1 }
                    }
                }
                if covered > 0 { blend(x, y, colour, alpha * covered / 16) }
            }
        }
    }

    /// A filled triangle, edges antialiased (4x4 samples per pixel).
    mutating func triangle(_ a: (Double, Double), _ b: (Double, Double), _ c: (Double, Double), _ colour: RGB, alpha: Int = 255) {
        func side(_ p: (Double, Double), _ q: (Double, Double), _ x: Double, _ y: Double) -> Double {
            (q.0 - p.0) * (y - p.1) - (q.1 - p.1) * (x - p.0)
        }
        let x0 = Int(min(a.0, b.0, c.0).rounded(.down)), x1 = Int(max(a.0, b.0, c.0).rounded(.up))
        let y0 = Int(min(a.1, b.1, c.1).rounded(.down)), y1 = Int(max(a.1, b.1, c.1).rounded(.up))
        let clockwise = side(a, b, c.0, c.1) > 0
        for y in y0...y1 {
            for x in x0...x1 {
                var covered = 0
                for s in 0..<16 {
                    let px = Double(x) + (Double(s % 4) + 0.5) / 4, py = Double(y) + (Double(s / 4) + 0.5) / 4
                    let d = [side(a, b, px, py), side(b, c, px, py), side(c, a, px, py)]
                    if d.allSatisfy({ clockwise ? $0 >= 0 : $0 <= 0 }) { covered += 1 }
                }
                if covered > 0 { blend(x, y, colour, alpha * covered / 16) }
            }
        }
    }

    /// A rectangle with rounded corners.
    mutating func roundedRect(x: Int, y: Int, width w: Int, height h: Int, radius r: Int, _ colour: RGB, alpha: Int = 255) {
        let r = min(r, w / 2, h / 2)
        fill(x: x + r, y: y, width: w - 2 * r, height: h, colour, alpha: alpha)
        fill(x: x, y: y + r, width: r, height: h - 2 * r, colour, alpha: alpha)
        fill(x: x + w - r, y: y + r, width: r, height: h - 2 * r, colour, alpha: alpha)
        // One quarter of a disc in each corner square, told apart by side and not by
        // position: where the rectangle is 2r high (or wide) two corners' centres meet.
        for (left, top) in [(true, true), (false, true), (true, false), (false, false)] {
            let cx = left ? x + r : x + w - r, cy = top ? y + r : y + h - r
            let qx = left ? x : x + w - r, qy = top ? y : y + h - r
            for yy in qy..<qy + r {
                for xx in qx..<qx + r {
                    var covered = 0
                    for s in 0..<16 {
                        let px = Double(xx) + (Double(s % 4) + 0.5) / 4 - Double(cx)
                        let py = Double(yy) + (Double(s / 4) + 0.5) / 4 - Double(cy)
                        if px * px + py * py <= Double(r * r) { covered += 1 }
                    }
                    blend(xx, yy, colour, alpha * covered / 16)
                }
            }
        }
    }

    /// Copies packed RGB pixels (`bands` 3, or 4 with alpha blended over the canvas).
    mutating func draw(_ source: [UInt8], width w: Int, height h: Int, bands: Int, x: Int, y: Int) {
        for row in 0..<h where y + row >= 0 && y + row < height {
            if bands == 3, x >= 0, x + w <= width {
                copy(source, from: row * w * 3, count: w * 3, to: ((y + row) * width + x) * 3)
                continue
            }
            for column in 0..<w {
                let i = (row * w + column) * bands
                let colour = bands >= 3 ? RGB(source[i], source[i + 1], source[i + 2]) : RGB(source[i], source[i], source[i])
                blend(x + column, y + row, colour, bands == 4 || bands == 2 ? Int(source[i + bands - 1]) : 255)
            }
        }
    }

    /// Blends `colour` through a one-band mask (255 = full colour), as text is drawn;
    /// `stride` is the mask's row length when only its left `w` columns are drawn.
    mutating func draw(mask: [UInt8], width w: Int, height h: Int, x: Int, y: Int, _ colour: RGB, alpha: Int = 255, stride: Int? = nil) {
        let stride = stride ?? w
        guard w > 0, h > 0 else { return }  // cut away entirely
        for row in 0..<h {
            for column in 0..<w {
                let coverage = Int(mask[row * stride + column])
                if coverage > 0 { blend(x + column, y + row, colour, coverage * alpha / 255) }
            }
        }
    }

    /// Pulls the rectangle towards `colour` by `amount` (0-255): a dimmed photo.
    mutating func wash(x: Int, y: Int, width w: Int, height h: Int, _ colour: RGB, amount: Int) {
        fill(x: x, y: y, width: w, height: h, colour, alpha: amount)
    }

    /// The pixel at (x, y), for tests.
    func pixel(_ x: Int, _ y: Int) -> RGB {
        let i = (y * width + x) * 3
        return RGB(pixels[i], pixels[i + 1], pixels[i + 2])
    }
}
