// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing

@Suite struct ExifCaptureTimeTests {
    /// The capture reader opens each photo from its root down: a folder on the way
    /// that is a symlink (swapped in by a user, issue 54) gives no capture time.
    @Test func aFolderOnTheWayThatIsASymlinkGivesNoCaptureTime() throws {
        let scratch = try ScratchDirectory()
        _ = try scratch.write("real/p.jpg", TestJPEG.make(dateTimeOriginal: "2024:05:17 10:20:30"))
        #expect(symlink("real", scratch.path.appending("link").lossyString) == 0)
        let root = try DirectoryHandle.open(scratch.path, followingSymlinks: true)
        #expect(ExifReader.captureTime(beneath: root, relative: "real/p.jpg")?.seconds == 1_715_941_230)
        #expect(ExifReader.captureTime(beneath: root, relative: "link/p.jpg") == nil)
        #expect(ExifReader.captureTime(path: scratch.path.appending("link/p.jpg")) != nil, "a path alone would be followed")
    }

    @Test func parsesExifDates() throws {
        let time = try #require(CaptureTime(exif: Array("2024:05:17 10:20:30".utf8)))
        #expect(time.seconds == 1_715_941_230)
        #expect(time.wire == "2024-05-17T10:20:30")
        #expect(CaptureTime(exif: Array("2024:05:17 10:20:30\0".utf8)) == time, "the NUL EXIF strings end with")
        #expect(CaptureTime(exif: Array("2024:05:17 10:20:30.123+02:00".utf8)) == time)
        #expect(CaptureTime(exif: Array("2024-05-17 10:20:30".utf8)) == time)
        #expect(CaptureTime(exif: Array("2024:05:17T10:20:30".utf8)) == time)
        #expect(CaptureTime(exif: Array("1969:12:31 23:59:59".utf8))?.seconds == -1)
        #expect(CaptureTime(exif: Array("2000:02:29 12:00:00".utf8))?.seconds == 951_825_600)
        #expect(CaptureTime(exif: Array("1900:03:01 00:00:00".utf8))?.seconds == -2_203_891_200)
    }

    @Test(arguments: [
        "0000:00:00 00:00:00", "    :  :     :  :  ", "", "2024:05:1", "2024:05:17 10:20", "2024:05:17",
        "2024:13:01 00:00:00", "2024:00:10 00:00:00", "2024:02:30 00:00:00", "2023:02:29 12:00:00",
        "1900:02:29 12:00:00", "2024:05:17 24:00:00", "2024:05:17 10:60:00", "2024:05:17 10:20:60",
        "2024:05-17 10:20:30", "2024:05:17_10:20:30", "24:05:17 10:20:30 ", "2024:5:17 10:20:30 ",
        "1799:12:31 23:59:59", "２０２４:05:17 10:20:30", "2024:05:17 1O:20:30",
    ])
    func rejectsGarbage(text: String) {
        #expect(CaptureTime(exif: Array(text.utf8)) == nil)
    }

    @Test func rejectsBytesThatAreNotText() {
        #expect(CaptureTime(exif: [UInt8](repeating: 0, count: 20)) == nil)
        #expect(CaptureTime(exif: [UInt8](repeating: 0xFF, count: 20)) == nil)
        #expect(CaptureTime(exif: [UInt8]()) == nil)
    }

    @Test func agreesWithTimegmOnEveryDayOfSixCenturies() throws {
        var date = tm()
        for days in stride(from: CaptureTime.daysSinceEpoch(year: 1800, month: 1, day: 1),
                           through: CaptureTime.daysSinceEpoch(year: 2400, month: 12, day: 31), by: 1) {
            let (year, month, day) = CaptureTime.civil(daysSinceEpoch: days)
            date.tm_year = Int32(year - 1900)
            date.tm_mon = Int32(month - 1)
            date.tm_mday = Int32(day)
            date.tm_hour = 13
            date.tm_min = 14
            date.tm_sec = 15
            let expected = Int64(timegm(&date))
            let time = try #require(CaptureTime(year: year, month: month, day: day, hour: 13, minute: 14, second: 15))
            if time.seconds != expected || time.fields.day != day || time.fields.month != month || time.fields.year != year {
                Issue.record("\(year)-\(month)-\(day): \(time.seconds) != timegm \(expected)")
                return
            }
        }
    }

    @Test func wireFormRoundTrips() throws {
        for text in ["1800-01-01T00:00:00", "1969-12-31T23:59:59", "1970-01-01T00:00:00", "2024-02-29T23:59:59", "9999-12-31T23:59:59"] {
            let time = try #require(CaptureTime(wire: text))
            #expect(time.wire == text)
        }
        #expect(CaptureTime(wire: "2024:05:17 10:20:30") == nil, "the EXIF form is not the wire form")
        #expect(CaptureTime(wire: "2024-05-17T10:20") == nil)
        #expect(CaptureTime(seconds: 253_402_300_799).wire == "9999-12-31T23:59:59")
        #expect(CaptureTime(seconds: -5_364_662_400).wire == "1800-01-01T00:00:00")
        // Any stored value prints without trapping, even far outside real dates.
        #expect(!CaptureTime(seconds: .min).wire.isEmpty)
        #expect(!CaptureTime(seconds: .max).wire.isEmpty)
    }

    @Test func ordersByTime() throws {
        let times = try ["2024-05-17T10:20:30", "1999-12-31T23:59:59", "2024-05-17T10:20:29"].map { try #require(CaptureTime(wire: $0)) }
        #expect(times.sorted().map(\.wire) == ["1999-12-31T23:59:59", "2024-05-17T10:20:29", "2024-05-17T10:20:30"])
    }

    @Test func userInputNamesAWholePeriod() throws {
        func range(_ text: String) throws -> [String] {
            let range = try CaptureTime.parse(userInput: text)
            return [range.lowerBound.wire, range.upperBound.wire]
        }
        #expect(try range("2024") == ["2024-01-01T00:00:00", "2024-12-31T23:59:59"])
        #expect(try range("2024-02") == ["2024-02-01T00:00:00", "2024-02-29T23:59:59"])
        #expect(try range("2023-02") == ["2023-02-01T00:00:00", "2023-02-28T23:59:59"])
        #expect(try range("2024-04") == ["2024-04-01T00:00:00", "2024-04-30T23:59:59"])
        #expect(try range("2024-05-17") == ["2024-05-17T00:00:00", "2024-05-17T23:59:59"])
        #expect(try range("2024-05-17T10:20:30") == ["2024-05-17T10:20:30", "2024-05-17T10:20:30"])
        #expect(try range("2024-05-17 10:20:30") == ["2024-05-17T10:20:30", "2024-05-17T10:20:30"])
        #expect(try range(" 2024-05 ") == ["2024-05-01T00:00:00", "2024-05-31T23:59:59"])
    }

    @Test(arguments: [
        "", "24", "2024-5", "2024-05-1", "2024-13", "2024-00", "2024-02-30", "2024/05", "2024-05-17T10:20",
        "2024-05-17T25:00:00", "abcd", "2024-05-17X10:20:30", "1799", "2024-05-17T10:20:30Z", "+2024",
    ])
    func userInputErrorsSayWhatIsExpected(text: String) {
        do {
            let range = try CaptureTime.parse(userInput: text)
            Issue.record("'\(text)' parsed as \(range)")
        } catch {
            #expect(error.input == text)
            #expect(error.description.contains("YYYY-MM-DD"))
        }
    }
}

@Suite struct ExifReaderTests {
    let scratch: ScratchDirectory
    init() throws { scratch = try ScratchDirectory() }

    func wire(_ bytes: [UInt8]) -> String? { ExifReader.captureTime(in: bytes)?.wire }

    func wire(file name: ByteString, _ bytes: [UInt8]) throws -> String? {
        ExifReader.captureTime(path: try scratch.write(name, bytes))?.wire
    }

    // MARK: which tag

    @Test func readsDateTimeOriginalBeforeTheOthers() throws {
        let jpeg = TestJPEG.make(dateTimeOriginal: "2024:05:17 10:20:30", dateTimeDigitized: "2024:06:01 00:00:00",
                                 dateTime: "2025:01:01 12:00:00")
        #expect(try wire(file: "IMG_0001.JPG", jpeg) == "2024-05-17T10:20:30")
    }

    @Test func fallsBackToDateTimeDigitizedThenDateTime() throws {
        let digitized = TestJPEG.make(dateTimeDigitized: "2024:06:01 08:09:10", dateTime: "2025:01:01 12:00:00")
        #expect(try wire(file: "digitized.jpg", digitized) == "2024-06-01T08:09:10")
        let dateTimeOnly = TestJPEG.make(dateTime: "2025:01:01 12:00:00")
        #expect(try wire(file: "datetime.jpg", dateTimeOnly) == "2025-01-01T12:00:00")
    }

    @Test func aGarbageDateFallsThroughToTheNextTag() throws {
        let unsetClock = TestJPEG.make(dateTimeOriginal: "0000:00:00 00:00:00", dateTimeDigitized: "2024:06:01 08:09:10")
        #expect(try wire(file: "a.jpg", unsetClock) == "2024-06-01T08:09:10")
        let blanks = TestJPEG.make(dateTimeOriginal: "    :  :     :  :  ", dateTime: "2023:03:04 05:06:07")
        #expect(try wire(file: "b.jpg", blanks) == "2023-03-04T05:06:07")
        let allGarbage = TestJPEG.make(dateTimeOriginal: "0000:00:00 00:00:00", dateTimeDigitized: "2024:05:1",
                                       dateTime: "")
        #expect(try wire(file: "c.jpg", allGarbage) == nil)
    }

    @Test func exifWithoutAnyDateHasNoCaptureTime() throws {
        // EXIF with a Make tag and nothing else: no date is invented.
        #expect(try wire(file: "nodate.jpg", TestJPEG.make()) == nil)
    }

    @Test func aJPEGWithoutExifHasNoCaptureTime() throws {
        #expect(try wire(file: "plain.jpg", TestJPEG.make(exifTIFF: nil, jfif: true)) == nil)
    }

    @Test func misplacedTagsAreStillFound() {
        // DateTimeOriginal written into IFD0 instead of the EXIF IFD.
        var tiff = TestTIFF()
        tiff.primary.append((TestTIFF.dateTimeOriginal, Array("2022:02:02 02:02:02".utf8)))
        #expect(wire(TestJPEG.make(exifTIFF: tiff.bytes)) == "2022-02-02T02:02:02")
    }

    // MARK: JPEG layouts

    @Test func readsBigEndianExif() {
        #expect(wire(TestJPEG.make(dateTimeOriginal: "2021:07:08 09:10:11", bigEndian: true)) == "2021-07-08T09:10:11")
    }

    @Test func skipsJFIFAndXMPSegmentsBeforeExif() {
        let jpeg = TestJPEG.make(dateTimeOriginal: "2021:07:08 09:10:11", jfif: true, xmpFirst: true)
        #expect(wire(jpeg) == "2021-07-08T09:10:11")
    }

    @Test func everyTruncationIsHandled() throws {
        let jpeg = TestJPEG.make(dateTimeOriginal: "2024:05:17 10:20:30")
        let exifEnd = 2 + 4 + 6 + TestTIFF(dateTimeOriginal: "2024:05:17 10:20:30").bytes.count
        for length in 0...jpeg.count {
            let result = wire(Array(jpeg.prefix(length)))
            if length >= exifEnd {
                #expect(result == "2024-05-17T10:20:30", "cut after the EXIF segment at \(length)")
            } else {
                #expect(result == nil || result == "2024-05-17T10:20:30", "cut inside at \(length): \(result ?? "nil")")
            }
        }
        #expect(wire(Array(jpeg.prefix(40))) == nil)
        #expect(try wire(file: "truncated.jpg", Array(jpeg.prefix(60))) == nil)
        #expect(try wire(file: "cut-in-image.jpg", Array(jpeg.prefix(jpeg.count - 3))) == "2024-05-17T10:20:30")
    }

    @Test func segmentLengthsPastTheEndAreBounded() {
        // An EXIF segment claiming more than the file holds: what is there is used.
        var jpeg = TestJPEG.make(dateTimeOriginal: "2024:05:17 10:20:30")
        jpeg[4] = 0xFF
        jpeg[5] = 0xFF
        #expect(wire(jpeg) == "2024-05-17T10:20:30")
        // A segment before it claiming too much hides it: the walk ends at the file's end.
        var jfif = TestJPEG.make(dateTimeOriginal: "2024:05:17 10:20:30", jfif: true)
        #expect(wire(jfif) == "2024-05-17T10:20:30")
        jfif[4] = 0xFF
        jfif[5] = 0xFF
        #expect(wire(jfif) == nil)
    }

    // MARK: files

    @Test func pngGifAndVideoAreSkippedByNameWithoutOpening() throws {
        let jpeg = TestJPEG.make(dateTimeOriginal: "2024:05:17 10:20:30")
        // The same EXIF-bearing bytes are read under a JPEG name and ignored under these.
        #expect(try wire(file: "real.jpg", jpeg) == "2024-05-17T10:20:30")
        for name in ["image.png", "anim.GIF", "clip.mp4", "clip.MOV"] {
            #expect(try wire(file: ByteString(name), jpeg) == nil, "\(name)")
        }
        // Not opened at all: a missing .png is no error, a missing .jpg is.
        #expect(try ExifReader.readCaptureTime(path: scratch.child("missing.png")) == nil)
        #expect(throws: SystemError.self) { try ExifReader.readCaptureTime(path: scratch.child("missing.jpg")) }
    }

    @Test func aRealPNGHasNoCaptureTime() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0, 0x90, 0x77, 0x53, 0xDE]
        #expect(try wire(file: "shot.png", png) == nil)
        #expect(wire(png) == nil, "read by content, a PNG is no known EXIF container")
    }

    @Test func theContentDecidesNotTheExtension() throws {
        let jpeg = TestJPEG.make(dateTimeOriginal: "2024:05:17 10:20:30")
        let heic = TestContainers.heic(tiff: TestTIFF(dateTimeOriginal: "2023:01:02 03:04:05").bytes)
        #expect(try wire(file: "really-a-jpeg.heic", jpeg) == "2024-05-17T10:20:30")
        #expect(try wire(file: "really-a-heic.jpg", heic) == "2023-01-02T03:04:05")
        #expect(try wire(file: "no-extension", jpeg) == "2024-05-17T10:20:30")
    }

    @Test func aSymlinkIsNotFollowed() throws {
        let target = try scratch.write("target.jpg", TestJPEG.make(dateTimeOriginal: "2024:05:17 10:20:30"))
        let link = scratch.child("link.jpg")
        #expect(link.withCString { l in target.withCString { symlink($0, l) } } == 0)
        #expect(ExifReader.captureTime(path: target)?.wire == "2024-05-17T10:20:30")
        #expect(ExifReader.captureTime(path: link) == nil)
        do {
            _ = try ExifReader.readCaptureTime(path: link)
            Issue.record("the symlink was followed")
        } catch {
            #expect(error.errno == .tooManyLinks)
            #expect(error.path == link.lossyString)
        }
    }

    @Test func readsRelativeToADirectoryDescriptor() throws {
        try scratch.write("2024/IMG_1.JPG", TestJPEG.make(dateTimeOriginal: "2024:05:17 10:20:30"))
        let directory = try FileDescriptor.openDirectory(scratch.child("2024"))
        defer { try? directory.close() }
        #expect(ExifReader.captureTime(path: "IMG_1.JPG", relativeTo: directory)?.wire == "2024-05-17T10:20:30")
        #expect(ExifReader.captureTime(path: "IMG_1.JPG") == nil, "not found from the working directory")
    }

    @Test func directoriesAndFIFOsAreRefusedWithoutBlocking() throws {
        let directory = scratch.child("album.jpg")
        #expect(directory.withCString { mkdir($0, 0o755) } == 0)
        do {
            _ = try ExifReader.readCaptureTime(path: directory)
            Issue.record("a directory was read")
        } catch {
            #expect(error.errno == .invalid)
            #expect(error.path == directory.lossyString)
        }
        let fifo = scratch.child("pipe.jpg")
        #expect(fifo.withCString { mkfifo($0, 0o644) } == 0)
        // Opening a FIFO for reading blocks until a writer comes, unless O_NONBLOCK.
        #expect(throws: SystemError.self) { try ExifReader.readCaptureTime(path: fifo) }
        #expect(ExifReader.captureTime(path: fifo) == nil)
    }

    @Test func aNameThatIsNotUTF8IsRead() throws {
        let name = ByteString([0x63, 0x61, 0x66, 0xE9, 0x2E, 0x6A, 0x70, 0x67])  // Latin-1 "café.jpg"
        #expect(try wire(file: name, TestJPEG.make(dateTimeOriginal: "2020:10:10 10:10:10")) == "2020-10-10T10:10:10")
    }

    @Test func largeFilesAreReadOnlyWhereTheExifIs() throws {
        let big = TestJPEG.make(dateTimeOriginal: "2024:05:17 10:20:30") + TestContainers.junk(3 << 20)
        #expect(try wire(file: "big.jpg", big) == "2024-05-17T10:20:30")
        // WebP keeps EXIF after the image: found by following chunk sizes past the budget's reach.
        let webP = TestContainers.webP(tiff: TestTIFF(dateTimeOriginal: "2019:09:09 09:09:09").bytes, imageSize: 2 << 20)
        #expect(try wire(file: "big.webp", webP) == "2019-09-09T09:09:09")
    }

    @Test func theReadBudgetIsEnforced() throws {
        let path = try scratch.write("big.bin", TestContainers.junk(1 << 20))
        let fd = try FileDescriptor.open(path, O_RDONLY)
        defer { try? fd.close() }
        var source = try ExifFileSource(descriptor: fd, size: 1 << 20, budget: 100_000, headSize: 65_536)
        #expect(try source.read(at: 10, count: 100) == Array(TestContainers.junk(110).suffix(100)), "served from the head")
        #expect(source.budget == 100_000 - 65_536)
        #expect(try source.read(at: 500_000, count: 50_000).count == 100_000 - 65_536)
        #expect(try source.read(at: 600_000, count: 10).isEmpty, "nothing once the budget is spent")
        #expect(ExifReader.readBudget == 256 * 1024)
    }

    // MARK: other containers

    @Test func tiffBasedRawFiles() {
        let tiff = TestTIFF(dateTimeOriginal: "2018:08:18 18:18:18")
        #expect(wire(TestContainers.tiffRaw(tiff)) == "2018-08-18T18:18:18", "TIFF, DNG, NEF, CR2, ARW")
        #expect(wire(TestContainers.tiffRaw(TestTIFF(bigEndian: true, dateTimeOriginal: "2018:08:18 18:18:18")))
                == "2018-08-18T18:18:18")
        #expect(wire(TestContainers.tiffRaw(tiff, magic: Array("RO".utf8))) == "2018-08-18T18:18:18", "ORF")
        #expect(wire(TestContainers.tiffRaw(tiff, magic: [0x55, 0x00])) == "2018-08-18T18:18:18", "RW2")
    }

    @Test func fujifilmRAF() {
        let jpeg = TestJPEG.make(dateTimeOriginal: "2017:07:17 17:17:17")
        #expect(wire(TestContainers.raf(jpeg: jpeg)) == "2017-07-17T17:17:17")
    }

    @Test func webP() {
        let tiff = TestTIFF(dateTimeOriginal: "2016:06:16 16:16:16").bytes
        #expect(wire(TestContainers.webP(tiff: tiff)) == "2016-06-16T16:16:16")
        #expect(wire(TestContainers.webP(tiff: tiff, exifHeader: true)) == "2016-06-16T16:16:16")
        #expect(wire(TestContainers.webP(tiff: nil)) == nil)
        #expect(wire(TestContainers.webP(tiff: nil, extended: false)) == nil)
    }

    @Test func heifAndAvif() {
        let tiff = TestTIFF(dateTimeOriginal: "2015:05:15 15:15:15").bytes
        #expect(wire(TestContainers.heic(tiff: tiff)) == "2015-05-15T15:15:15")
        #expect(wire(TestContainers.heic(tiff: tiff, ilocVersion: 1)) == "2015-05-15T15:15:15")
        #expect(wire(TestContainers.heic(tiff: tiff, infeVersion: 3)) == "2015-05-15T15:15:15")
        #expect(wire(TestContainers.heic(tiff: tiff, ilocVersion: 1, inIdat: true)) == "2015-05-15T15:15:15")
    }

    @Test func heifOffsetsOutsideTheFileAreRefused() {
        let tiff = TestTIFF(dateTimeOriginal: "2015:05:15 15:15:15").bytes
        for offset in [UInt64(Int64.max), UInt64.max, UInt64(Int64.max) - 3, 1 << 40] {
            #expect(wire(TestContainers.heic(tiff: tiff, exifOffset: offset)) == nil, "offset \(offset)")
            // Within idat the offset is added to the box's position: that must not overflow.
            #expect(wire(TestContainers.heic(tiff: tiff, ilocVersion: 1, inIdat: true, exifOffset: offset)) == nil)
        }
        #expect(wire(TestContainers.heic(tiff: tiff, exifOffset: 0)) == nil, "the file's start is no EXIF item")
        #expect(wire(TestContainers.heic(tiff: tiff, ilocVersion: 1, inIdat: true, exifOffset: 0)) == "2015-05-15T15:15:15")
    }

    @Test func aHostileItemTableIsWalkedQuickly() {
        // Zero-sized offset and length fields with the most extents per item:
        // stepping over extents one by one would take billions of steps.
        var iloc: [UInt8] = [0, 0, 0, 0, 0x00, 0x00] + TestContainers.be16(10_000)
        for id in 0..<10_000 { iloc += TestContainers.be16(UInt16(id + 2)) + [0, 0] + [0xFF, 0xFF] }
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(HEIFItemLocation.find(itemID: 1, iloc: iloc) == nil)
        }
        #expect(elapsed < .seconds(2))
        #expect(HEIFItemLocation.find(itemID: 9_999, iloc: iloc) == HEIFItemLocation(constructionMethod: 0, offset: 0, length: 0))
    }

    @Test func canonCR3() {
        var cmt2 = TestTIFF()
        cmt2.primary = [(TestTIFF.dateTimeOriginal, Array("2014:04:14 14:14:14".utf8))]
        let cmt1 = TestTIFF(dateTime: "2099:01:01 00:00:00")
        #expect(wire(TestContainers.cr3(cmt1: cmt1.bytes, cmt2: cmt2.bytes)) == "2014-04-14T14:14:14")
    }

    @Test func unknownContentHasNoCaptureTime() {
        #expect(wire([]) == nil)
        #expect(wire(Array("just some text, not a photo".utf8)) == nil)
        #expect(wire([0xFF, 0xD8]) == nil)
    }

    @Test func damagedFilesNeverCrashOrHang() {
        let tiff = TestTIFF(dateTimeOriginal: "2024:05:17 10:20:30", dateTimeDigitized: "2024:05:17 10:20:31",
                            dateTime: "2024:05:17 10:20:32")
        let samples: [[UInt8]] = [
            TestJPEG.make(exifTIFF: tiff.bytes, jfif: true),
            TestContainers.tiffRaw(tiff),
            TestContainers.raf(jpeg: TestJPEG.make(exifTIFF: tiff.bytes)),
            TestContainers.webP(tiff: tiff.bytes, imageSize: 64),
            TestContainers.heic(tiff: tiff.bytes, ilocVersion: 1),
            TestContainers.cr3(cmt1: tiff.bytes, cmt2: tiff.bytes),
        ]
        var random = SplitMix64(seed: 0xC0FFEE)
        var damagedButRead = 0
        for sample in samples {
            for _ in 0..<1500 {
                var bytes = sample
                for _ in 0..<(1 + random.next() % 4) {
                    bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
                }
                // Whatever comes back must at least be a real date.
                if let time = ExifReader.captureTime(in: bytes) {
                    damagedButRead += 1
                    #expect(CaptureTime(wire: time.wire) == time)
                }
            }
        }
        #expect(damagedButRead > 0, "most damage misses the dates")
    }

    @Test func releasesWhatLibexifAllocates() throws {
        // Without exif_data_unref each parse strands about a kilobyte: 100k parses
        // would grow the process by ~90 MiB. Resident size is process-wide, so the
        // bound leaves room for other tests running meanwhile.
        let samples: [[UInt8]] = [
            TestJPEG.make(dateTimeOriginal: "2024:05:17 10:20:30", dateTimeDigitized: "2024:05:17 10:20:31"),
            TestContainers.heic(tiff: TestTIFF(dateTimeOriginal: "2015:05:15 15:15:15").bytes),
            TestJPEG.make(),
        ]
        func residentKiB() throws -> Int {
            let statm = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
            return try #require(Int(statm[1])) * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
        }
        for sample in samples { _ = ExifReader.captureTime(in: sample) }
        let before = try residentKiB()
        for i in 0..<100_000 { _ = ExifReader.captureTime(in: samples[i % samples.count]) }
        #expect(try residentKiB() - before < 32 * 1024)
    }

    @Test func readsConcurrentlyFromManyThreads() throws {
        var paths: [(ByteString, String)] = []
        for i in 0..<8 {
            let date = "2024:05:\(10 + i) 10:20:30"
            paths.append((try scratch.write(ByteString("IMG_\(i).JPG"), TestJPEG.make(dateTimeOriginal: date)),
                          "2024-05-\(10 + i)T10:20:30"))
        }
        let mismatches = Mutex(0)
        let snapshot = paths
        DispatchQueue.concurrentPerform(iterations: 800) { i in
            let (path, expected) = snapshot[i % snapshot.count]
            if ExifReader.captureTime(path: path)?.wire != expected {
                mismatches.withLock { $0 += 1 }
            }
        }
        #expect(mismatches.withLock { $0 } == 0)
    }
}

/// `scripts/make-sample-photos.py`, which the README's quick start uses: what it
/// writes must read back as it says, and exclusions must drop its junk.
@Suite struct ExifSamplePhotoScriptTests {
    struct Manifest: Decodable {
        struct File: Decodable {
            var path: String?
            var path_base64: String
            var kind: String
            var type: String?
            var capture: String?
        }
        var seed: Int
        var files: [File]
    }

    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/make-sample-photos.py")

    /// Runs the script into `scratch/name` and returns its manifest.
    func generate(in scratch: ScratchDirectory, _ name: String, count: Int, seed: Int) throws -> (ByteString, Manifest) {
        let root = scratch.child(ByteString(name))
        let manifestPath = scratch.child(ByteString(name + ".json"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script.path, root.lossyString, "--count", "\(count)",
                             "--seed", "\(seed)", "--manifest", manifestPath.lossyString]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "make-sample-photos.py exited with \(process.terminationStatus)")
        let data = try Data(contentsOf: URL(fileURLWithPath: manifestPath.lossyString))
        return (root, try JSONDecoder().decode(Manifest.self, from: data))
    }

    @Test func exifReaderReadsTheDatesTheScriptWrote() throws {
        let scratch = try ScratchDirectory()
        let (root, manifest) = try generate(in: scratch, "photos", count: 12, seed: 7)
        var dated = 0
        for file in manifest.files where file.kind == "photo" {
            let relative = try #require(ByteString(base64: file.path_base64))
            let path = root.appending(relative)
            #expect(ExifReader.captureTime(path: path)?.wire == file.capture, "\(relative)")
            #expect(PhotoType.detect(name: relative)?.wireName == file.type, "\(relative)")
            if file.capture != nil { dated += 1 }
        }
        // 12 camera JPEGs, the names with spaces and accents, the RAW+JPEG pair.
        #expect(dated >= 17)
        #expect(manifest.files.contains { $0.kind == "photo" && $0.type == "png" && $0.capture == nil })
        #expect(manifest.files.contains { $0.kind == "photo" && $0.type == "nef" && $0.capture != nil })
        #expect(manifest.files.contains { $0.path == "2024/05-beach/Été à Nice.jpg" && $0.capture != nil })
        #expect(manifest.files.contains { $0.path == nil && $0.capture != nil }, "a name that is not UTF-8")
        #expect(manifest.files.contains { $0.path == "unsorted/clock-not-set.jpg" && $0.capture == nil })
    }

    @Test func exclusionsAndTypesDropTheJunkAndKeepThePhotos() throws {
        let scratch = try ScratchDirectory()
        let (_, manifest) = try generate(in: scratch, "photos", count: 4, seed: 1)
        let exclusions = Exclusions.defaults
        func indexed(_ relative: ByteString) -> Bool {
            let parts = relative.components
            guard let name = parts.last else { return false }
            if parts.dropLast().contains(where: { exclusions.excludesDirectory(name: $0) }) { return false }
            return !exclusions.excludesFile(name: name) && PhotoType.detect(name: name) != nil
        }
        let junk = manifest.files.filter { $0.kind != "photo" }
        #expect(junk.count >= 6)
        for file in manifest.files {
            let relative = try #require(ByteString(base64: file.path_base64))
            #expect(indexed(relative) == (file.kind == "photo"), "\(relative) is \(file.kind)")
        }
    }

    @Test func theOutputDependsOnlyOnTheArguments() throws {
        let scratch = try ScratchDirectory()
        let (first, manifest) = try generate(in: scratch, "a", count: 6, seed: 3)
        let (second, again) = try generate(in: scratch, "b", count: 6, seed: 3)
        let (third, _) = try generate(in: scratch, "c", count: 6, seed: 4)
        #expect(manifest.files.map(\.path_base64) == again.files.map(\.path_base64))
        #expect(manifest.files.map(\.capture) == again.files.map(\.capture))
        func contents(_ root: ByteString, _ file: Manifest.File) throws -> [UInt8] {
            let relative = try #require(ByteString(base64: file.path_base64))
            let fd = try FileDescriptor.open(root.appending(relative), O_RDONLY)
            return try fd.closeAfter { (fd) throws(SystemError) in try fd.readAll() }
        }
        var differentSeedDiffers = false
        for file in manifest.files {
            let bytes = try contents(first, file)
            #expect(try contents(second, file) == bytes, "\(file.path ?? file.path_base64)")
            if try contents(third, file) != bytes { differentSeedDiffers = true }
        }
        #expect(differentSeedDiffers)
    }
}
