// SPDX-License-Identifier: GPL-2.0-or-later

/// What stands in for a picture that has none: a video clip (a dark frame with a
/// play mark and "VIDEO"), or a photo whose thumbnail is missing or failed. Drawn
/// by the contact sheet in its cells; `png` gives one as a file for clients (the
/// worker never writes these into the shared cache: a file manager would take a
/// placeholder for the thumbnail and never make a real one).
public enum Placeholder: Sendable {
    case video
    case missing

    /// The placeholder as a PNG, `pixels` wide and three quarters as high.
    public func png(pixels: Int) throws(VipsError) -> [UInt8] {
        let width = max(32, pixels), height = max(24, pixels * 3 / 4)
        var canvas = Canvas(width: width, height: height, background: RGB(228, 228, 226))
        let text = TextRenderer()
        try draw(on: &canvas, x: 0, y: 0, width: width, height: height, text: text)
        return try VipsImageRef.fromPixels(canvas.pixels, width: width, height: height, bands: 3).png()
    }

    func draw(on canvas: inout Canvas, x: Int, y: Int, width: Int, height: Int, text: TextRenderer) throws(VipsError) {
        let side = Double(min(width, height))
        let cx = Double(x) + Double(width) / 2, cy = Double(y) + Double(height) / 2 - side * 0.06
        switch self {
        case .video:
            canvas.fill(x: x, y: y, width: width, height: height, RGB(38, 40, 46))
            // Film perforations along both edges.
            let hole = max(3, Int(side / 22)), step = hole * 2
            var px = x + hole
            while px + hole < x + width {
                canvas.fill(x: px, y: y + hole / 2 + 1, width: hole, height: hole, RGB(70, 72, 80))
                canvas.fill(x: px, y: y + height - hole - hole / 2 - 1, width: hole, height: hole, RGB(70, 72, 80))
                px += step
            }
            let r = side * 0.2
            canvas.disc(cx: cx, cy: cy, radius: r, RGB(235, 235, 235), alpha: 230)
            canvas.triangle((cx - r * 0.35, cy - r * 0.5), (cx - r * 0.35, cy + r * 0.5), (cx + r * 0.55, cy), RGB(38, 40, 46))
            let label = try text.render("VIDEO", font: "DejaVu Sans Bold", pixels: max(9, Int(side / 11)))
            canvas.draw(mask: label.pixels, width: label.width, height: label.height,
                        x: Int(cx) - label.width / 2, y: Int(cy + r) + Int(side * 0.07), RGB(235, 235, 235))
        case .missing:
            canvas.fill(x: x, y: y, width: width, height: height, RGB(222, 222, 220))
            // A picture frame with a mountain: "no preview".
            let w = side * 0.34, h = side * 0.26
            let left = Int(cx - w / 2), top = Int(cy - h / 2)
            canvas.frame(x: left, y: top, width: Int(w), height: Int(h), thickness: max(2, Int(side / 60)), RGB(160, 160, 158))
            canvas.triangle((cx - w * 0.38, cy + h * 0.38), (cx - w * 0.05, cy - h * 0.15), (cx + w * 0.25, cy + h * 0.38), RGB(170, 170, 168))
            canvas.disc(cx: cx + w * 0.24, cy: cy - h * 0.18, radius: side * 0.03, RGB(170, 170, 168))
            let label = try text.render("no preview", font: "DejaVu Sans", pixels: max(9, Int(side / 12)))
            canvas.draw(mask: label.pixels, width: label.width, height: label.height,
                        x: Int(cx) - label.width / 2, y: top + Int(h) + Int(side * 0.06), RGB(120, 120, 118))
        }
    }
}
