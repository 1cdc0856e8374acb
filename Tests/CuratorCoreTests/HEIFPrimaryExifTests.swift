// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import CuratorTestSupport
import Testing

/// HEIF files with many items (a 200-megapixel phone photo's grid has an item per
/// tile): the EXIF read is the primary image's, found through `pitm` and `iref`.
@Suite struct HEIFPrimaryExifTests {
    static let orientation: UInt16 = 0x0112

    func primaryTIFF() -> [UInt8] {
        var tiff = TestTIFF(dateTimeOriginal: "2024:07:08 09:10:11")
        tiff.primaryShorts = [(Self.orientation, 6)]
        return tiff.bytes
    }

    func thumbnailTIFF() -> [UInt8] {
        var tiff = TestTIFF(dateTimeOriginal: "1999:01:01 00:00:00")
        tiff.primaryShorts = [(Self.orientation, 1)]
        return tiff.bytes
    }

    @Test(arguments: [1, 48, 822, 1600])
    func theGridsExifIsFoundWhateverTheNumberOfTiles(tiles: Int) throws {
        let heic = TestHEIFGrid.make(tiles: tiles, primaryTIFF: primaryTIFF(), thumbnailTIFF: thumbnailTIFF())
        #expect(ExifReader.captureTime(in: heic)?.wire == "2024-07-08T09:10:11", "\(tiles) tiles")
        var source = ExifMemorySource(bytes: heic)
        #expect(try PhotoFactsReader.facts(from: &source).orientation == 6)
    }

    @Test func aFileOfMoreThan800ItemsIsReadFromDisk() throws {
        let scratch = try ScratchDirectory()
        let heic = TestHEIFGrid.make(tiles: 822, primaryTIFF: primaryTIFF(), thumbnailTIFF: thumbnailTIFF())
        let path = try scratch.write("20240708_091011.heic", heic)
        #expect(ExifReader.captureTime(path: path)?.wire == "2024-07-08T09:10:11")
        #expect(try PhotoFactsReader.read(path: path).orientation == 6)
        // One EXIF item, after 825 others: found past any count of boxes.
        let alone = try scratch.write("alone.heic", TestHEIFGrid.make(tiles: 822, primaryTIFF: primaryTIFF(), thumbnailTIFF: nil))
        #expect(ExifReader.captureTime(path: alone)?.wire == "2024-07-08T09:10:11")
    }

    @Test func withoutALinkToThePrimaryTheFirstExifItemIsRead() {
        let heic = TestHEIFGrid.make(tiles: 4, primaryTIFF: primaryTIFF(), thumbnailTIFF: thumbnailTIFF(), linkPrimaryExif: false)
        #expect(ExifReader.captureTime(in: heic)?.wire == "1999-01-01T00:00:00")
        let alone = TestHEIFGrid.make(tiles: 4, primaryTIFF: primaryTIFF(), thumbnailTIFF: nil, linkPrimaryExif: false)
        #expect(ExifReader.captureTime(in: alone)?.wire == "2024-07-08T09:10:11")
    }

    @Test func hostileItemTablesAreWalkedQuickly() {
        // 6 000 Exif items and 9 000 references, none to the primary image.
        var infes: [UInt8] = []
        for id in 0..<6_000 { infes += TestContainers.fullBox("infe", 2, TestContainers.be16(UInt16(id)) + [0, 0] + Array("Exif".utf8) + [0]) }
        let iinf = [0, 0, 0, 0] + TestContainers.be16(0xFFFF) + infes
        var refs: [UInt8] = [0, 0, 0, 0]
        for id in 0..<9_000 { refs += TestContainers.box("cdsc", TestContainers.be16(UInt16(id % 6_000)) + TestContainers.be16(0xFFFF) + TestContainers.be16(7)) }
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            let candidates = HEIFItemReferences.exifItems(iinf: iinf)
            #expect(candidates.count == 6_000)
            #expect(HEIFItemReferences.describing(1, among: candidates, iref: refs) == nil)
            #expect(HEIFItemReferences.describing(7, among: candidates, iref: refs) == 0)
        }
        #expect(elapsed < .seconds(2))
        // Boxes of size 0 (to the end), 1 (64-bit, not in these tables) and past the end stop the walk.
        #expect(HEIFItemReferences.exifItems(iinf: [0, 0, 0, 0, 0, 1] + [0, 0, 0, 1] + Array("infe".utf8)).isEmpty)
        #expect(HEIFItemReferences.exifItems(iinf: [0, 0, 0, 0, 0, 1] + [0xFF, 0, 0, 0] + Array("infe".utf8)).isEmpty)
        #expect(HEIFItemReferences.primaryItem(pitm: [1, 0, 0, 0, 0, 0]) == nil)
    }
}
