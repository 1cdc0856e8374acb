// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorThumbnails
import Testing

struct PNGChunksTests {
    private func metadata(_ png: [UInt8]) throws -> (width: Int, height: Int, text: [String: String]) {
        try PNGChunks.metadata(fileSize: png.count) { offset, count in
            Array(png[min(offset, png.count)..<min(offset + count, png.count)])
        }
    }

    @Test func failRecordRoundTrip() throws {
        let png = PNGChunks.emptyImage(text: [("Thumb::URI", "file:///x.jpg"), ("Thumb::MTime", "1700000000")])
        let read = try metadata(png)
        #expect(read.width == 1 && read.height == 1)
        #expect(read.text == ["Thumb::URI": "file:///x.jpg", "Thumb::MTime": "1700000000"])
    }

    @Test func insertedTextComesRightAfterIHDR() throws {
        let plain = PNGChunks.emptyImage(text: [])
        let stamped = try PNGChunks.insertingText([("Thumb::URI", "file:///a"), ("Software", "curatord")], into: plain)
        #expect(try metadata(stamped).text == ["Thumb::URI": "file:///a", "Software": "curatord"])
        // The first chunk after the signature is still IHDR, the next one tEXt.
        #expect(String(decoding: stamped[12..<16], as: UTF8.self) == "IHDR")
        #expect(String(decoding: stamped[37..<41], as: UTF8.self) == "tEXt")
        #expect(throws: PNGChunks.Malformed.self) { try PNGChunks.insertingText([], into: [1, 2, 3]) }
    }

    /// KDE (Qt) writes values of 40 characters or more as zTXt, and non-Latin-1 ones
    /// as iTXt: both must be read for its thumbnails to be reused.
    @Test func compressedAndInternationalText() throws {
        let uri = "file:///home/ann/Pictures/Holidays 2024/a very long name.jpg"
        var png = Array(PNGChunks.emptyImage(text: []).prefix(33))
        png += PNGChunks.chunk("zTXt", Array("Thumb::URI".utf8) + [0, 0] + Zlib.stored(Array(uri.utf8)))
        png += PNGChunks.chunk("iTXt", Array("Title".utf8) + [0, 0, 0] + Array("en".utf8) + [0] + [0] + Array("京都".utf8))
        png += PNGChunks.chunk("iTXt", Array("Thumb::MTime".utf8) + [0, 1, 0, 0, 0] + Zlib.stored(Array("42".utf8)))
        png += PNGChunks.chunk("IEND", [])
        let text = try metadata(png).text
        #expect(text["Thumb::URI"] == uri)
        #expect(text["Title"] == "京都")
        #expect(text["Thumb::MTime"] == "42")
    }

    @Test func aTextBombIsIgnoredNotInflated() throws {
        let huge = [UInt8](repeating: UInt8(ascii: "A"), count: PNGChunks.textLimit + 1)
        var png = Array(PNGChunks.emptyImage(text: []).prefix(33))
        png += PNGChunks.chunk("zTXt", Array("Thumb::URI".utf8) + [0, 0] + Zlib.stored(huge))
        png += PNGChunks.chunk("IEND", [])
        #expect(try metadata(png).text["Thumb::URI"] == nil)
        #expect(throws: Zlib.Failure.self) { try Zlib.inflate(Zlib.stored(huge), limit: PNGChunks.textLimit) }
    }

    @Test func aChunkWithABadCRCDoesNotCount() throws {
        var png = PNGChunks.emptyImage(text: [("Thumb::URI", "file:///a")])
        png[45] ^= 0xFF  // a byte of the tEXt chunk's data
        #expect(try metadata(png).text.isEmpty)
    }

    @Test(arguments: [
        ("empty", [UInt8]()),
        ("not PNG", Array("GIF89a and then some more bytes to pass the length check".utf8)),
    ])
    func malformed(_ label: String, _ bytes: [UInt8]) {
        #expect(throws: PNGChunks.Malformed.self, "\(label)") { try metadata(bytes) }
    }

    @Test func truncatedAndLyingLengthsAreMalformed() {
        let png = PNGChunks.emptyImage(text: [("Thumb::URI", "file:///a")])
        #expect(throws: PNGChunks.Malformed.self) { try metadata(Array(png.dropLast(6))) }
        var lying = png
        lying[33] = 0x7F  // the tEXt chunk claims ~2 GB
        #expect(throws: PNGChunks.Malformed.self) { try metadata(lying) }
    }

    @Test func crc32() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum(Array("IEND".utf8)) == 0xAE42_6082)
    }
}
