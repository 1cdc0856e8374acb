// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorImaging
import CuratorSystem
import CuratorThumbnails
import Foundation
import Testing
import CuratorTestSupport

/// The contact sheet's PNG encoder, read back by our decoder and by libvips
/// (libpng): every band count, rows that repeat and rows that do not.
struct PNGWriterTests {
    static func picture(width: Int, height: Int, bands: Int) -> [UInt8] {
        var rng = SystemRandomNumberGenerator()
        var pixels = [UInt8](repeating: 0, count: width * height * bands)
        for y in 0..<height {
            for x in 0..<width * bands {
                // Flat paper above, a gradient, then noise: runs, small and large differences.
                pixels[y * width * bands + x] = y < height / 3 ? 240 : y < 2 * height / 3 ? UInt8((x + y) & 0xFF) : UInt8.random(in: 0...255, using: &rng)
            }
        }
        return pixels
    }

    @Test(arguments: [1, 2, 3, 4])
    func readsBackAsWritten(bands: Int) throws {
        let (width, height) = (97, 61)
        let pixels = Self.picture(width: width, height: height, bands: bands)
        let png = try PNGWriter.encode(pixels, width: width, height: height, bands: bands)
        let ours = try PNGImage(decoding: png)
        #expect(ours.width == width && ours.height == height && ours.bands == bands)
        #expect(ours.pixels == pixels)

        let scratch = try ScratchDirectory(label: "thumbs")
        let file = try scratch.write("w.png", png)
        let raw = scratch.child("w.raw").lossyString
        let read = try Tool.run("/usr/bin/vips", ["rawsave", file.lossyString, raw])
        try #require(read.status == 0, "libvips reads it: \(read.stderr)")
        #expect(try scratch.read(ByteString(raw)) == pixels, "libvips decodes the same pixels")
    }

    @Test func refusesPixelsThatDoNotFit() {
        #expect(throws: PNGWriter.Failure.self) { try PNGWriter.encode([1, 2, 3], width: 2, height: 1, bands: 3) }
        #expect(throws: PNGWriter.Failure.self) { try PNGWriter.encode([1, 2, 3, 4, 5], width: 1, height: 1, bands: 5) }
    }
}
