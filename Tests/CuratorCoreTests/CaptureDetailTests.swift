// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import CuratorTestSupport
import Testing

/// The sub-seconds and offset beside a capture time: parsed as EXIF writes them,
/// taken from the tag the time came from, packed in 32 bits, stored in the index.
@Suite struct CaptureDetailTests {
    @Test func subSecondsAreADecimalFraction() {
        func ms(_ text: String) -> Int? { CaptureDetail.milliseconds(Array(text.utf8)) }
        #expect(ms("25") == 250 && ms("1") == 100 && ms("123456") == 123 && ms("007") == 7 && ms("900\0") == 900)
        #expect(ms(" 42 ") == 420, "cameras pad with spaces")
        for garbage in ["", "   ", "1a", "-5", "\0", "1.5"] { #expect(ms(garbage) == nil, "\(garbage)") }
    }

    @Test func offsetsAreSignedHoursAndMinutes() {
        func minutes(_ text: String) -> Int? { CaptureDetail.minutes(Array(text.utf8)) }
        #expect(minutes("+02:00") == 120 && minutes("-05:30") == -330 && minutes("+05:45\0") == 345 && minutes("+00:00") == 0)
        for garbage in ["", "02:00", "+2:00", "+02-00", "+02:60", "+19:00", "   :  ", "+02:00x", "Z"] {
            #expect(minutes(garbage) == nil, "\(garbage)")
        }
        #expect(CaptureDetail(milliseconds: nil, offsetMinutes: -330).offsetWire == "-05:30")
        #expect(CaptureDetail(milliseconds: nil, offsetMinutes: 0).offsetWire == "+00:00")
    }

    @Test func packsIntoThirtyTwoBitsAndRefusesCorruptValues() {
        for ms in [nil, 0, 1, 999] as [Int?] {
            for offset in [nil, -1080, -330, 0, 345, 1080] as [Int?] {
                let detail = CaptureDetail(milliseconds: ms, offsetMinutes: offset)
                #expect(CaptureDetail(raw: detail.raw) == detail)
                #expect(detail.milliseconds == ms && detail.offsetMinutes == offset)
            }
        }
        #expect(CaptureDetail(milliseconds: 1000, offsetMinutes: 1081) == .none)
        #expect(CaptureDetail(raw: .max).milliseconds == nil && CaptureDetail(raw: .max).offsetMinutes == nil)
    }

    /// Each time with its own sub-seconds and offset: DateTimeOriginal's with
    /// SubSecTimeOriginal and OffsetTimeOriginal, and so on down the fallbacks.
    @Test func theDetailIsTheTagsTheTimeCameFrom() throws {
        let scratch = try ScratchDirectory()
        var tiff = TIFFFileBuilder.rgbImage(width: 8, height: 8)
        tiff.ifd0 += [(0x0132, .ascii("2025:01:01 00:00:00"))]
        tiff.exif = [(0x9003, .ascii("2024:05:17 10:20:30")), (0x9291, .ascii("25")), (0x9011, .ascii("+02:00")),
                     (0x9004, .ascii("2024:05:17 10:20:31")), (0x9292, .ascii("7")), (0x9012, .ascii("-05:30")),
                     (0x9290, .ascii("3")), (0x9010, .ascii("+01:00"))]
        let path = try scratch.write("a.tif", tiff.bytes)
        let exiftool = try ExifTool.tags(["DateTimeOriginal", "SubSecTimeOriginal", "OffsetTimeOriginal"], of: path.lossyString)
        let capture = try #require(ExifReader.capture(path: path))
        #expect(capture.time.wire == ExifTool.wire(exiftool["DateTimeOriginal"]))
        #expect(capture.detail.milliseconds == 250 && exiftool["SubSecTimeOriginal"] == "25")
        #expect(capture.detail.offsetWire == exiftool["OffsetTimeOriginal"])

        // Without DateTimeOriginal: DateTimeDigitized's, not DateTime's nor Original's.
        tiff.exif.removeAll { $0.tag == 0x9003 }
        let digitized = try #require(ExifReader.capture(path: try scratch.write("b.tif", tiff.bytes)))
        #expect(digitized.time.wire == "2024-05-17T10:20:31" && digitized.detail == CaptureDetail(milliseconds: 700, offsetMinutes: -330))
        // Only DateTime: its own.
        tiff.exif.removeAll { $0.tag == 0x9004 }
        let saved = try #require(ExifReader.capture(path: try scratch.write("c.tif", tiff.bytes)))
        #expect(saved.time.wire == "2025-01-01T00:00:00" && saved.detail == CaptureDetail(milliseconds: 300, offsetMinutes: 60))
        // None recorded: none.
        tiff.exif = [(0x9003, .ascii("2024:05:17 10:20:30"))]
        #expect(ExifReader.capture(path: try scratch.write("d.tif", tiff.bytes))?.detail == CaptureDetail.none)
    }

    /// An index of version 3 gains the column without a rewrite, and its photos load.
    @Test func aVersion3IndexIsMigrated() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.child("index.sqlite").lossyString
        do {
            let store = try IndexStore(path: path)
            try store.database.execute("ALTER TABLE photos DROP COLUMN capture_detail")
            try store.database.setUserVersion(3)
        }
        let store = try IndexStore(path: path)
        #expect(try store.database.userVersion() == IndexStore.schemaVersion)
        let columns = try store.database.prepare("SELECT COUNT(*) FROM pragma_table_info('photos') WHERE name = 'capture_detail'")
            .firstRow { $0.int64(0) }
        #expect(columns == 1)
    }
}
