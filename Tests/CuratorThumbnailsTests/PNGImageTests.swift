// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import CuratorThumbnails
import Foundation
import Testing
import CuratorTestSupport

/// Our thumbnail-sized PNG decoder against libvips's (the `vips` tool): every row
/// filter (libpng's adaptive choice uses all five), grey, grey+alpha, RGB, RGBA.
struct PNGImageTests {
    @Test(arguments: [("srgb", 3), ("b-w", 1)])
    func decodesAsLibvipsDoes(interpretation: String, bands: Int) throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let base = scratch.child("base.v").lossyString
        // Noise and gradients make libpng pick every filter somewhere.
        _ = try Tool.run("/usr/bin/vips", ["gaussnoise", scratch.child("n.v").lossyString, "97", "61", "--sigma", "40"])
        _ = try Tool.run("/usr/bin/vips", ["cast", scratch.child("n.v").lossyString, scratch.child("g.v").lossyString, "uchar"])
        let source = bands == 1 ? scratch.child("g.v").lossyString : base
        if bands == 3 {
            _ = try Tool.run("/usr/bin/vips", ["bandjoin", "\(scratch.child("g.v").lossyString) \(scratch.child("g.v").lossyString) \(scratch.child("g.v").lossyString)", base])
        }
        for alpha in [false, true] {
            var input = source
            if alpha {
                input = scratch.child("a.v").lossyString
                _ = try Tool.run("/usr/bin/vips", ["bandjoin_const", source, input, "200"])
            }
            let png = scratch.child("x.png").lossyString
            let made = try Tool.run("/usr/bin/vips", ["pngsave", input, png, "--filter", "all", "--compression", "6"])
            try #require(made.status == 0, "\(made.stderr)")
            _ = try Tool.run("/usr/bin/vips", ["rawsave", png, scratch.child("x.raw").lossyString])
            let expected = try scratch.read(scratch.child("x.raw"))
            let image = try PNGImage(decoding: try scratch.read(ByteString(png)))
            #expect(image.width == 97 && image.height == 61 && image.bands == bands + (alpha ? 1 : 0))
            #expect(image.pixels == expected, "\(interpretation) alpha \(alpha)")
        }
    }

    @Test func refusesWhatItDoesNotHandle() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        _ = try Tool.run("/usr/bin/vips", ["black", scratch.child("b.v").lossyString, "8", "8"])
        let sixteen = scratch.child("16.png").lossyString
        _ = try Tool.run("/usr/bin/vips", ["pngsave", scratch.child("b.v").lossyString, sixteen, "--bitdepth", "16"])
        #expect(throws: PNGImage.Failure.self) { try PNGImage(decoding: try scratch.read(ByteString(sixteen))) }
        let interlaced = scratch.child("i.png").lossyString
        _ = try Tool.run("/usr/bin/vips", ["pngsave", scratch.child("b.v").lossyString, interlaced, "--interlace"])
        #expect(throws: PNGImage.Failure.self) { try PNGImage(decoding: try scratch.read(ByteString(interlaced))) }
        #expect(throws: PNGImage.Failure.self) { try PNGImage(decoding: Array("not a png at all, not at all, no".utf8)) }
        // A fail record is a valid 1x1 RGBA PNG.
        let empty = try PNGImage(decoding: PNGChunks.emptyImage(text: []))
        #expect(empty.width == 1 && empty.bands == 4 && empty.pixels == [0, 0, 0, 0])
    }

    @Test func fittedAveragesWhatEachPixelCovers() {
        // 4x2 -> 2x1: each output pixel averages a 2x2 block.
        let image = PNGImage(width: 4, height: 2, bands: 1, pixels: [0, 100, 200, 255, 100, 100, 0, 45])
        let small = image.fitted(within: 2)
        #expect(small.width == 2 && small.height == 1)
        #expect(small.pixels == [75, 125])
        // Never enlarged.
        #expect(image.fitted(within: 10) == image)
        // 3 -> 2: thirds and two-thirds weighed.
        let three = PNGImage(width: 3, height: 1, bands: 1, pixels: [0, 90, 180]).fitted(within: 2)
        #expect(three.pixels == [30, 150])
    }
}
