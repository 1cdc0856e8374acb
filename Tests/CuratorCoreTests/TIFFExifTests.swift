// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import CuratorTestSupport
import Testing

/// TIFF and TIFF-based RAW files whose IFDs lie after the image data, as libtiff
/// writers and Photoshop save them: the capture time is read wherever the IFDs
/// are, and agrees with exiftool's.
@Suite struct TIFFExifTests {
    let scratch: ScratchDirectory
    init() throws { scratch = try ScratchDirectory() }

    /// A 200 x 200 RGB TIFF (a 120 000-byte strip first), IFD0 after it with the
    /// last save's DateTime, and the EXIF IFD with the capture time at the very end.
    func photoshopTIFF(bigEndian: Bool = false) -> TIFFFileBuilder {
        var tiff = TIFFFileBuilder.rgbImage(width: 200, height: 200, bigEndian: bigEndian)
        tiff.ifd0 += [(0x010F, .ascii("NIKON CORPORATION")), (0x0112, .shorts([6])),
                      (0x0131, .ascii("Adobe Photoshop CS6 (Windows)")), (0x0132, .ascii("2016:01:02 03:04:05"))]
        tiff.exif = [(0x9003, .ascii("2004:03:05 06:07:08")), (0x9004, .ascii("2004:03:05 06:07:09")),
                     (0x9291, .ascii("25")), (0x9011, .ascii("+02:00"))]
        return tiff
    }

    @Test(arguments: [false, true])
    func aPhotoshopTIFFGivesItsCaptureTimeNotItsSaveTime(bigEndian: Bool) throws {
        let bytes = photoshopTIFF(bigEndian: bigEndian).bytes
        #expect(bytes.count > ExifReader.headSize, "the IFDs lie beyond the first read")
        let path = try scratch.write("scan.tif", bytes)
        // A real TIFF: libvips opens it, exiftool reads the dates from it.
        #expect(try Tool.run("/usr/bin/vipsheader", [path.lossyString], timeout: 60).status == 0)
        let exiftool = try ExifTool.tags(["DateTimeOriginal", "ModifyDate"], of: path.lossyString)
        #expect(exiftool["DateTimeOriginal"] == "2004:03:05 06:07:08")
        #expect(ExifReader.captureTime(path: path)?.wire == ExifTool.wire(exiftool["DateTimeOriginal"]))
        let facts = try PhotoFactsReader.read(path: path)
        #expect(facts.make == "NIKON CORPORATION" && facts.orientation == 6)
    }

    @Test func aTIFFWithOnlyASaveTimeAfterItsImageGivesThatTime() throws {
        var tiff = TIFFFileBuilder.rgbImage(width: 200, height: 200)
        tiff.ifd0.append((0x0132, .ascii("2016:01:02 03:04:05")))
        let path = try scratch.write("plain.tiff", tiff.bytes)
        let exiftool = try ExifTool.tags(["ModifyDate"], of: path.lossyString)
        #expect(ExifReader.captureTime(path: path)?.wire == ExifTool.wire(exiftool["ModifyDate"]))
        #expect(ExifReader.captureTime(path: path)?.wire == "2016-01-02T03:04:05")
    }

    @Test(arguments: ["DSC_0001.NEF", "IMG_0001.CR2", "P0000001.ORF"])
    func aTIFFBasedRawWithItsExifAtTheEnd(name: String) throws {
        var tiff = photoshopTIFF()
        if name.hasSuffix(".ORF") { tiff.magic = Array("RO".utf8) }
        let path = try scratch.write(ByteString(name), tiff.bytes)
        #expect(ExifReader.captureTime(path: path)?.wire == "2004-03-05T06:07:08")
    }

    @Test func hostileTablesAreBoundedAndNeverTrap() throws {
        // IFD0 with 65 535 entries claiming huge values at every offset, and an EXIF
        // pointer back at IFD0 itself.
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0, 0xFF, 0xFF]
        for i in 0..<65_535 {
            let tag = i == 0 ? UInt16(0x8769) : UInt16(truncatingIfNeeded: i)
            let type: UInt16 = i == 0 ? 4 : UInt16(i % 14)
            bytes += [UInt8(tag & 0xFF), UInt8(tag >> 8), UInt8(type & 0xFF), UInt8(type >> 8)]
            bytes += i == 0 ? [1, 0, 0, 0, 8, 0, 0, 0] : [0xFF, 0xFF, 0xFF, 0x7F, 0xF0, 0xFF, 0xFF, 0xFF]
        }
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(ExifReader.captureTime(in: bytes) == nil)
            var source = ExifMemorySource(bytes: bytes)
            let block = try? TIFFExifBlock.gather(&source)
            #expect((block?.count ?? 0) <= ExifLocator.maximumTIFFSize)
        }
        #expect(elapsed < .seconds(2))
        // IFD0's offset past the end, at the header, or at an odd place: no capture time.
        for offset: UInt8 in [0, 4, 0xF0] {
            #expect(ExifReader.captureTime(in: [0x49, 0x49, 0x2A, 0x00, offset, 0, 0, 0]) == nil)
        }
    }

    @Test func everyTruncationOfAPhotoshopTIFFIsHandled() throws {
        let bytes = photoshopTIFF().bytes
        let exifEnd = bytes.count
        for length in stride(from: 0, through: exifEnd, by: 7) {
            let time = ExifReader.captureTime(in: Array(bytes.prefix(length)))?.wire
            #expect(time == nil || time == "2004-03-05T06:07:08" || time == "2016-01-02T03:04:05")
        }
        #expect(ExifReader.captureTime(in: bytes)?.wire == "2004-03-05T06:07:08")
    }
}
