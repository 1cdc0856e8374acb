// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Glibc
import Testing

/// `photo.info`'s reading of a file: the camera, lens and orientation from EXIF, the
/// pixel size from the image's own header, else from EXIF.
@Suite struct PhotoFactsTests {
    static let model: UInt16 = 0x0110
    static let orientation: UInt16 = 0x0112
    static let lensModel: UInt16 = 0xA434
    static let pixelX: UInt16 = 0xA002
    static let pixelY: UInt16 = 0xA003

    func facts(_ bytes: [UInt8]) throws -> PhotoFacts {
        var source = ExifMemorySource(bytes: bytes)
        return try PhotoFactsReader.facts(from: &source)
    }

    func cameraTIFF(bigEndian: Bool = false) -> TestTIFF {
        var tiff = TestTIFF(bigEndian: bigEndian, dateTimeOriginal: "2024:05:01 10:12:44")
        tiff.primary = [(TestTIFF.make, Array("Canon ".utf8)), (Self.model, Array("Canon EOS R5".utf8))]
        tiff.primaryShorts = [(Self.orientation, 6)]
        tiff.exif.append((Self.lensModel, Array("RF24-105mm F4 L IS USM".utf8)))
        tiff.exifLongs = [(Self.pixelX, 8192), (Self.pixelY, 5464)]
        return tiff
    }

    @Test(arguments: [false, true])
    func aJPEGGivesItsCameraLensOrientationAndItsFramesSize(bigEndian: Bool) throws {
        // The EXIF says 8192 x 5464; the frame (TestJPEG's 8 x 8 block) is what the file holds.
        let facts = try facts(TestJPEG.make(exifTIFF: cameraTIFF(bigEndian: bigEndian).bytes))
        #expect(facts == PhotoFacts(make: "Canon", model: "Canon EOS R5", lens: "RF24-105mm F4 L IS USM",
                                    width: 8, height: 8, orientation: 6))
    }

    @Test func aTIFFBasedRawGivesTheSizeItsEXIFRecords() throws {
        let facts = try facts(cameraTIFF().bytes)
        #expect(facts.width == 8192 && facts.height == 5464 && facts.model == "Canon EOS R5")
    }

    @Test func aJPEGWithoutEXIFStillHasItsSize() throws {
        let facts = try facts(TestJPEG.make(exifTIFF: nil))
        #expect(facts == PhotoFacts(width: 8, height: 8))
    }

    @Test func pngAndGIFHeadersGiveTheirSize() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
            + [0, 0, 0x0F, 0xA0, 0, 0, 0x0B, 0xB8, 8, 2, 0, 0, 0]
        #expect(try facts(png) == PhotoFacts(width: 4000, height: 3000))
        let gif: [UInt8] = Array("GIF89a".utf8) + [0x40, 0x01, 0xF0, 0x00, 0, 0, 0]
        #expect(try facts(gif) == PhotoFacts(width: 320, height: 240))
    }

    @Test func anOrientationOutOfRangeIsDropped() throws {
        var tiff = cameraTIFF()
        tiff.primaryShorts = [(Self.orientation, 9)]
        #expect(try facts(tiff.bytes).orientation == nil)
    }

    @Test func truncatedFilesGiveWhatTheirBytesHoldAndNeverTrap() throws {
        let full = TestJPEG.make(exifTIFF: cameraTIFF().bytes)
        for length in 0..<full.count {
            _ = try facts(Array(full.prefix(length)))
        }
        #expect(try facts(Array(full.prefix(3))) == PhotoFacts())
    }

    @Test func aSymlinkIsNotFollowed() throws {
        let dir = try ScratchDirectory()
        let target = try dir.write("real.jpg", TestJPEG.make(exifTIFF: cameraTIFF().bytes))
        let photo = try #require(try? PhotoReadAccess.open(root: dir.path, relative: "real.jpg", for: nil))
        defer { try? photo.descriptor.close() }
        #expect(try PhotoFactsReader.read(photo, path: target).model == "Canon EOS R5")
        let link = dir.child("link.jpg")
        #expect(target.withCString { t in link.withCString { symlink(t, $0) } } == 0)
        #expect(throws: PhotoReadFailure.self) { try PhotoReadAccess.open(root: dir.path, relative: "link.jpg", for: nil) }
    }
}
