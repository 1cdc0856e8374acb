// SPDX-License-Identifier: GPL-2.0-or-later
import CImagingShim
import CVips

/// Text as masks, rendered by libvips (Pango with fontconfig: DejaVu Sans from
/// fonts-dejavu-core), one size in pixels per font. Numbers are composed from
/// cached digits (DejaVu's digits share one advance), so that a sheet of 200 cells
/// renders a few dozen strings rather than hundreds.
final class TextRenderer {
    struct Mask {
        var pixels: [UInt8]
        var width: Int
        var height: Int
    }

    private var cache: [String: Mask] = [:]

    /// `text` (plain, escaped here) in `font` ("DejaVu Sans Bold"), `pixels` high.
    func render(_ text: String, font: String, pixels: Int) throws(VipsError) -> Mask {
        let key = "\(font)|\(pixels)|\(text)"
        if let hit = cache[key] { return hit }
        var out: UnsafeMutablePointer<VipsImage>?
        // With 72 dpi a point is a pixel.
        guard curator_vips_text(&out, Self.escaped(text), "\(font) \(pixels)", 72) == 0, let out else {
            throw VipsError.take("text")
        }
        let image = VipsImageRef(out)
        let mask = Mask(pixels: try image.pixels(), width: image.width, height: image.height)
        if cache.count > 4096 { cache.removeAll() }
        cache[key] = mask
        return mask
    }

    /// A decimal number, digit masks side by side, bottoms aligned (libvips crops a
    /// text to its ink, so each digit comes without its side bearings: `gap` puts
    /// some back).
    func number(_ value: Int, font: String, pixels: Int) throws(VipsError) -> Mask {
        let key = "\(font)|\(pixels)|#\(value)"
        if let hit = cache[key] { return hit }
        var masks: [Mask] = []
        for digit in String(value) { masks.append(try render(String(digit), font: font, pixels: pixels)) }
        let gap = max(1, pixels / 12)
        let height = masks.map(\.height).max() ?? 0
        let width = masks.reduce(0) { $0 + $1.width } + gap * max(0, masks.count - 1)
        var joined = [UInt8](repeating: 0, count: width * height)
        var x = 0
        for mask in masks {
            let top = height - mask.height
            for row in 0..<mask.height {
                for column in 0..<mask.width { joined[(top + row) * width + x + column] = mask.pixels[row * mask.width + column] }
            }
            x += mask.width + gap
        }
        let joinedMask = Mask(pixels: joined, width: width, height: height)
        cache[key] = joinedMask
        return joinedMask
    }

    /// Pango markup treats <, > and & as markup.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            default: out.append(character)
            }
        }
        return out
    }
}
