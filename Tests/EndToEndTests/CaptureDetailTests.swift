// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// What EXIF records beside a capture time, end to end: the daemon reads the
/// sub-seconds and the offset that belong to the tag its time came from, answers
/// them in listings and `photo.info` as exiftool reads them, sorts a burst's
/// shots of one second by them, and keeps them in its index across a restart.
@Suite(.serialized)
struct CaptureDetailTests {
    /// Four shots of one second, each written by exiftool: three with
    /// DateTimeOriginal and its sub-seconds (and an offset or none), one with only
    /// DateTimeDigitized's (CreateDate's) beside a ModifyDate of its own.
    static let shots: [(name: String, tags: [String])] = [
        ("IMG_0001.JPG", ["-DateTimeOriginal=2024:05:17 10:20:30", "-SubSecTimeOriginal=900", "-OffsetTimeOriginal=+02:00"]),
        ("IMG_0002.JPG", ["-DateTimeOriginal=2024:05:17 10:20:30", "-SubSecTimeOriginal=1", "-OffsetTimeOriginal=-05:30"]),
        ("IMG_0003.JPG", ["-DateTimeOriginal=2024:05:17 10:20:30", "-SubSecTimeOriginal=5"]),
        ("IMG_0004.JPG", ["-DateTimeOriginal=", "-CreateDate=2024:05:17 10:20:30", "-SubSecTimeDigitized=7", "-OffsetTimeDigitized=+09:00",
                          "-ModifyDate=2025:01:01 00:00:00", "-SubSecTime=3", "-OffsetTime=+01:00"]),
    ]

    @Test func subSecondsAndOffsetsAreAnsweredSortedByAndKept() throws {
        let d = Daemon()
        let root = d.root()
        Files.mkdir(root + "/burst")
        var expected: [String: (time: String?, ms: Int?, offset: String?)] = [:]
        for (name, tags) in Self.shots {
            let path = root + "/burst/" + name
            try ThumbnailTests.sample(["marker", path, "--width", "64", "--height", "48"])
            let written = try Tool.run("/usr/bin/exiftool", ["-q", "-overwrite_original"] + tags + [path], timeout: 60)
            #expect(written.status == 0, "\(written.output)")
            // exiftool's reading, of the tags that belong together.
            let original = name != "IMG_0004.JPG"
            let names = original ? ["DateTimeOriginal", "SubSecTimeOriginal", "OffsetTimeOriginal"]
                : ["CreateDate", "SubSecTimeDigitized", "OffsetTimeDigitized"]
            let read = try ExifTool.tags(names, of: path)
            // "1" is a tenth of a second: 100 ms.
            let ms = read[names[1]].map { Int(($0 + "000").prefix(3)) ?? -1 }
            expected["burst/" + name] = (ExifTool.wire(read[names[0]]), ms, read[names[2]])
        }
        #expect(expected["burst/IMG_0002.JPG"]?.ms == 100 && expected["burst/IMG_0004.JPG"]?.offset == "+09:00")

        try d.start()
        defer { d.stop() }
        var client = try d.client()
        let fields = ["path", "capture_time"]
        try eventually(timeout: 30, "every capture time to be read") {
            try client.photos(["fields": fields]).allSatisfy { $0["capture_time"] != nil }
        }
        func check(_ listed: [[String: Any]]) {
            #expect(listed.count == 4)
            for photo in listed {
                let path = photo["path"] as? String ?? "?"
                let want = expected[path]
                #expect(photo["capture_time"] as? String == want?.time, "\(path): \(photo)")
                #expect(photo["capture_ms"] as? Int == want?.ms, "\(path): \(photo)")
                #expect(photo["capture_offset"] as? String == want?.offset, "\(path): \(photo)")
            }
        }
        check(try client.photos(["fields": fields]))
        // One second, four shots: by their sub-seconds, not their names.
        #expect(try client.photos(["fields": fields, "sort": "capture"]).map { $0["path"] as? String }
                == ["burst/IMG_0002.JPG", "burst/IMG_0003.JPG", "burst/IMG_0004.JPG", "burst/IMG_0001.JPG"])
        let id = try #require(try client.idsByPath()["burst/IMG_0001.JPG"])
        let info = try #require(try client.result(["cmd": "photo.info", "photo": id])["photo"] as? [String: Any])
        #expect(info["capture_ms"] as? Int == 900 && info["capture_offset"] as? String == "+02:00", "\(info)")

        // Kept in the index: a restart answers them without reading again.
        _ = d.stop()
        try d.start()
        client = try d.client()
        check(try client.photos(["fields": fields]))
    }
}
