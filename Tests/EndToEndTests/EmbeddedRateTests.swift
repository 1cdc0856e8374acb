// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// A root's `xmp_write_embedded`: off (the default), `rate` never modifies an
/// image file; on, it also writes the XMP inside the JPEGs, TIFFs and DNGs,
/// which exiftool then reads, the files keeping their owner, mode and id.
@Suite(.serialized)
struct EmbeddedRateTests {
    /// A JPEG and a DNG (a TIFF under that name) holding two stars and another
    /// editor's setting in their XMP, and a HEIF.
    static func makeImages(_ root: String) throws {
        for name in ["lr.jpg", "d.tif", "h.heic"] {
            let made = try Tool.run("/usr/bin/vips", ["black", root + "/" + name, "64", "64", "--bands", "3"], timeout: 60)
            try #require(made.status == 0, "\(made.output)")
        }
        try #require(rename(root + "/d.tif", root + "/d.dng") == 0)
        for name in ["lr.jpg", "d.dng", "h.heic"] {
            try MarksIndexTests.exiftool(["-XMP-xmp:Rating=2", "-XMP-crs:Exposure2012=+0.50", root + "/" + name])
        }
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test func withoutTheOptionAnImageIsNeverModified() throws {
        let d = Daemon()
        let root = d.root()
        try Self.makeImages(root)
        let before = try ["lr.jpg", "d.dng", "h.heic"].map { try Self.bytes(root + "/" + $0) }
        try d.start()
        defer { d.stop() }
        let c = try d.client()
        let ids = try c.idsByPath()
        let rated = try c.result(["cmd": "rate", "ids": ["lr.jpg", "d.dng", "h.heic"].compactMap { ids[$0] }, "rating": 5,
                                  "flag": "pick"])
        let photos = try #require(rated["photos"] as? [[String: Any]], "\(rated)")
        #expect(photos.allSatisfy { $0["images"] == nil && ($0["sidecars"] as? [String])?.count == 1 }, "\(rated)")
        #expect(try ["lr.jpg", "d.dng", "h.heic"].map { try Self.bytes(root + "/" + $0) } == before)
        #expect(try RateTests.exiftool("XMP-xmp:Rating", root + "/lr.jpg.xmp") == "5")
    }

    @Test func withTheOptionTheImagesOwnXMPIsWritten() throws {
        let d = Daemon()
        let root = d.root()
        try Self.makeImages(root)
        chown(root + "/lr.jpg", 4242, 4243)
        chmod(root + "/lr.jpg", 0o640)
        let heif = try Self.bytes(root + "/h.heic")
        configure(d, #"{ roots: [{ name: "pics", path: "\#(root)", xmp_write_embedded: true }] }"#)
        try d.start()
        defer { d.stop() }
        let c = try d.client()
        let ids = try c.idsByPath()
        let jpeg = try #require(ids["lr.jpg"]), dng = try #require(ids["d.dng"]), heic = try #require(ids["h.heic"])
        let rated = try c.result(["cmd": "rate", "ids": [jpeg, dng, heic], "rating": 4, "label": "red"])
        let photos = try #require(rated["photos"] as? [[String: Any]], "\(rated)")
        try #require(photos.count == 3, "\(rated)")
        // Before: what the images said (no sidecar said anything).
        #expect(RateTests.marks(photos[0], "previous") == "2 none <null>", "\(rated)")
        #expect(photos[0]["images"] as? [String] == ["lr.jpg"] && photos[0]["sidecars"] as? [String] == ["lr.jpg.xmp"], "\(rated)")
        #expect(photos[1]["images"] as? [String] == ["d.dng"] && photos[1]["sidecars"] as? [String] == ["d.xmp"], "\(rated)")
        // The toolkit writes no HEIF: its sidecar only.
        #expect(photos[2]["images"] == nil && photos[2]["sidecars"] as? [String] == ["h.heic.xmp"], "\(rated)")
        #expect(try Self.bytes(root + "/h.heic") == heif)

        for name in ["lr.jpg", "d.dng"] {
            #expect(try RateTests.exiftool("XMP-xmp:Rating", root + "/" + name) == "4", "\(name)")
            #expect(try RateTests.exiftool("XMP-xmp:Label", root + "/" + name) == "Red", "\(name)")
            #expect(try RateTests.exiftool("XMP-crs:Exposure2012", root + "/" + name) == "+0.50", "\(name)")
            let header = try Tool.run("/usr/bin/vipsheader", [root + "/" + name], timeout: 60)
            #expect(header.status == 0 && header.stdout.contains("64x64"), "\(name): \(header.output)")
        }
        var status = stat()
        #expect(stat(root + "/lr.jpg", &status) == 0 && status.st_uid == 4242 && status.st_gid == 4243
                && status.st_mode & 0o7777 == 0o640)
        let names = try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.hasPrefix(".") && !$0.hasPrefix(".curatord") }
        #expect(names.isEmpty, "left in the folder: \(names)")
        // The rewritten image is the same photo (its id), and its packet is read again.
        let listed = try MarksIndexTests.marks(c)
        #expect(listed["lr.jpg"] == "4 - red" && listed["d.dng"] == "4 - red", "\(listed)")
        #expect(try c.idsByPath()["lr.jpg"] == jpeg)
    }
}
