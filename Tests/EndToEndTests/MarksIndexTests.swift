// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Marks in the index: the real daemon reads every sidecar's stars, flag and
/// label in the background (sidecars written here by exiftool as darktable,
/// digiKam and Lightroom write them), lists them, filters, sorts and selects by
/// them, tells subscribers when another program changes them, and on a warm
/// start reads only the sidecars whose size or mtime changed.
@Suite(.serialized)
struct MarksIndexTests {
    static func exiftool(_ arguments: [String]) throws {
        let out = try Tool.run("/usr/bin/exiftool", ["-q", "-overwrite_original"] + arguments, timeout: 60)
        try #require(out.status == 0, "exiftool \(arguments): \(out.output)")
    }

    /// A sidecar made new by exiftool (`-o` writes a file that does not exist yet).
    static func sidecar(_ path: String, _ tags: [String]) throws {
        let out = try Tool.run("/usr/bin/exiftool", ["-q", "-o", path] + tags, timeout: 60)
        try #require(out.status == 0, "exiftool -o \(path): \(out.output)")
    }

    /// path → "rating flag label" ("-" for absent), once nothing is left to read.
    static func marks(_ client: Client, _ args: [String: Any] = [:]) throws -> [String: String] {
        try eventually(timeout: 30, "xmp_pending 0") { try client.status()["xmp_pending"] as? Int == 0 }
        var result: [String: String] = [:]
        for photo in try client.photos(args) {
            guard let path = photo["path"] as? String else { continue }
            result[path] = "\(photo["rating"].map { "\($0)" } ?? "-") \(photo["flag"] as? String ?? "-") \(photo["label"] as? String ?? "-")"
        }
        return result
    }

    static func paths(_ client: Client, _ args: [String: Any]) throws -> [String] {
        try client.photos(args).compactMap { $0["path"] as? String }
    }

    /// The next `metadata` event about `id`, skipping others; nil after 15 s.
    static func metadataEvent(_ client: Client, id: Int) throws -> [String: Any]? {
        let deadline = Date(timeIntervalSinceNow: 15)
        while deadline.timeIntervalSinceNow > 0 {
            guard let event = try client.nextEvent(timeout: deadline.timeIntervalSinceNow) else { return nil }
            if event["event"] as? String == "metadata", (event["photo"] as? [String: Any])?["id"] as? Int == id { return event }
        }
        return nil
    }

    static func makeTree(_ root: String) throws {
        for name in ["a.jpg", "b.jpg", "c.jpg", "IMG_2.CR2"] { Files.write(root + "/" + name, "bytes of \(name)") }
        // darktable: NAME.EXT.xmp, xmp:Rating.
        try sidecar(root + "/a.jpg.xmp", ["-XMP-xmp:Rating=3", "-XMP-crs:Exposure2012=+0.50"])
        // digiKam: rejected by PickLabel, red by ColorLabel.
        try sidecar(root + "/b.jpg.xmp", ["-XMP-digiKam:PickLabel=1", "-XMP-digiKam:ColorLabel=1"])
        // Lightroom: a RAW's NAME.xmp, stars and a label.
        try sidecar(root + "/IMG_2.xmp", ["-XMP-xmp:Rating=5", "-XMP-xmp:Label=Blue"])
    }

    @Test func listedFilteredSortedAndSelectedByMarks() throws {
        let d = Daemon()
        let root = d.root()
        try Self.makeTree(root)
        try d.start()
        defer { d.stop() }
        let c = try d.client()
        #expect(try Self.marks(c) == ["a.jpg": "3 - -", "b.jpg": "- reject red", "c.jpg": "- - -", "IMG_2.CR2": "5 - blue"])

        #expect(try Set(Self.paths(c, ["filter": ["rating_min": 3]])) == ["a.jpg", "IMG_2.CR2"])
        #expect(try Self.paths(c, ["filter": ["rating_max": 0]]) == ["b.jpg", "c.jpg"])
        #expect(try Self.paths(c, ["filter": ["flags": ["reject"]]]) == ["b.jpg"])
        #expect(try Self.paths(c, ["filter": ["labels": ["red", "blue"]]]) == ["b.jpg", "IMG_2.CR2"])
        #expect(try Self.paths(c, ["filter": ["labels": ["none"], "flags": ["none"]]]) == ["a.jpg", "c.jpg"])
        #expect(try Self.paths(c, ["sort": "rating", "order": "desc"]).prefix(2) == ["IMG_2.CR2", "a.jpg"])
        #expect(try Self.paths(c, ["sort": "flag"]).first == "b.jpg")
        #expect(try Self.paths(c, ["sort": "label"]).prefix(2) == ["b.jpg", "IMG_2.CR2"])
        #expect(try c.errorCode(["cmd": "list", "filter": ["rating_min": 6]]) == "invalid_argument")
        #expect(try c.errorCode(["cmd": "list", "filter": ["flags": ["maybe"]]]) == "invalid_argument")
        // Only the fields asked for.
        let bare = try c.photos(["fields": ["path"]])
        #expect(bare.allSatisfy { $0["rating"] == nil && $0["flag"] == nil })

        // select by marks: every rejected photo of the view.
        let ids = try c.idsByPath()
        _ = try c.result(["cmd": "mode", "mode": "select"])
        let selected = try c.result(["cmd": "select", "flags": ["reject"]])
        #expect(selected["count"] as? Int == 1, "\(selected)")
        let session = try c.result(["cmd": "selection"])
        #expect((session["items"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [try #require(ids["b.jpg"])], "\(session)")
        let starred = try c.result(["cmd": "select", "rating_min": 3])
        #expect(starred["count"] as? Int == 3, "\(starred)")
        #expect(try c.errorCode(["cmd": "select", "flags": ["reject"], "glob": "*.jpg"]) == "invalid_argument")

        // rate by positions in the session's view (by name: a, b, c, IMG_2).
        let rated = try c.result(["cmd": "rate", "positions": "3-4", "label": "purple"])
        #expect((rated["photos"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [ids["c.jpg"], ids["IMG_2.CR2"]].compactMap { $0 },
                "\(rated)")
        #expect(try Self.marks(c)["c.jpg"] == "- - purple")
        #expect(try c.errorCode(["cmd": "rate", "positions": "9", "rating": 1]) == "no_such_position")
        #expect(try c.errorCode(["cmd": "rate", "positions": "1", "ids": [1], "rating": 1]) == "invalid_argument")
    }

    /// curatorctl: marks in ls's lines, ls by marks, select --rejected then rm.
    @Test func curatorctlListsBySelectsAndTrashesTheRejects() throws {
        let d = Daemon()
        let root = d.root()
        try Self.makeTree(root)
        try d.start()
        defer { d.stop() }
        _ = try Self.marks(try d.client())

        let all = try d.ctl(["ls"])
        #expect(all.status == 0, "\(all)")
        let lines = all.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("a.jpg") && $0.hasSuffix("★★★") }, "\(all.stdout)")
        #expect(lines.contains { $0.contains("b.jpg") && $0.hasSuffix("rejected red") }, "\(all.stdout)")
        #expect(lines.contains { $0.contains("IMG_2.CR2") && $0.hasSuffix("★★★★★ blue") }, "\(all.stdout)")

        let starred = try d.ctl(["ls", "--rating", ">=3"])
        #expect(starred.status == 0 && starred.stdout.contains("a.jpg") && starred.stdout.contains("IMG_2.CR2")
                && !starred.stdout.contains("b.jpg") && starred.stdout.contains("(2 photos"), "\(starred)")
        let exactly = try d.ctl(["ls", "--rating", "3"])
        #expect(exactly.stdout.contains("a.jpg") && !exactly.stdout.contains("IMG_2.CR2"), "\(exactly)")
        let rejected = try d.ctl(["ls", "--rejected"])
        #expect(rejected.stdout.contains("b.jpg") && rejected.stdout.contains("(1 photo)"), "\(rejected)")
        let picked = try d.ctl(["ls", "--picked"])
        #expect(picked.status == 0 && picked.stdout.contains("(0 photos)"), "\(picked)")
        let wrong = try d.ctl(["ls", "--rating", ">=6"])
        #expect(wrong.status == 2 && wrong.stderr.contains("--rating"), "\(wrong)")

        let select = try d.ctl(["select", "--rejected"])
        #expect(select.status == 0, "\(select)")
        let rm = try d.ctl(["rm", "--yes"])
        #expect(rm.status == 0, "\(rm)")
        // b.jpg went to the trash with its sidecar; the others stayed.
        #expect(access(root + "/b.jpg", F_OK) != 0 && access(root + "/b.jpg.xmp", F_OK) != 0)
        for name in ["a.jpg", "a.jpg.xmp", "c.jpg", "IMG_2.CR2", "IMG_2.xmp"] { #expect(access(root + "/" + name, F_OK) == 0, "\(name)") }
    }

    /// Rated in darktable while the daemon runs: the listing shows it and a
    /// `metadata` event arrives; rated through the daemon: the event comes at once.
    @Test func anotherProgramsChangeIsListedAndAnnounced() throws {
        let d = Daemon()
        let root = d.root()
        try Self.makeTree(root)
        try d.start()
        defer { d.stop() }
        let c = try d.client()
        _ = try Self.marks(c)
        let ids = try c.idsByPath()
        let a = try #require(ids["a.jpg"]), c2 = try #require(ids["c.jpg"]), raw = try #require(ids["IMG_2.CR2"])
        let subscriber = try d.client()
        _ = try subscriber.result(["cmd": "subscribe"])

        try Self.exiftool(["-XMP-xmp:Rating=1", "-XMP-xmp:Label=Green", root + "/a.jpg.xmp"])
        let event = try #require(try Self.metadataEvent(subscriber, id: a), "no metadata event for a.jpg")
        let photo = try #require(event["photo"] as? [String: Any])
        #expect(photo["rating"] as? Int == 1 && photo["label"] as? String == "green" && photo["path"] as? String == "a.jpg", "\(event)")
        #expect(try Self.marks(c)["a.jpg"] == "1 - green")

        // A sidecar darktable creates for a photo that had none.
        try Self.sidecar(root + "/c.jpg.xmp", ["-XMP-xmp:Rating=-1"])
        let rejected = try #require(try Self.metadataEvent(subscriber, id: c2), "no metadata event for c.jpg")
        #expect((rejected["photo"] as? [String: Any])?["flag"] as? String == "reject", "\(rejected)")

        // By rate: announced, and listed as soon as the answer is in.
        _ = try c.result(["cmd": "rate", "ids": [raw], "rating": 2, "flag": "pick"])
        let rated = try #require(try Self.metadataEvent(subscriber, id: raw), "no metadata event for the rate")
        #expect((rated["photo"] as? [String: Any])?["rating"] as? Int == 2, "\(rated)")
        let listed = try c.photos().first { $0["path"] as? String == "IMG_2.CR2" }
        #expect(listed?["rating"] as? Int == 2 && listed?["flag"] as? String == "pick", "\(String(describing: listed))")

        // A sidecar removed: its photo's marks go with it.
        _ = unlink(root + "/a.jpg.xmp")
        let cleared = try #require(try Self.metadataEvent(subscriber, id: a), "no metadata event for the sidecar removed")
        #expect((cleared["photo"] as? [String: Any])?["rating"] == nil, "\(cleared)")
    }

    /// A JPEG's embedded XMP (as Lightroom and Bridge write a JPEG's marks) is read;
    /// a sidecar beside it wins, and a JPEG rated in place while the daemon runs
    /// is read again and announced.
    @Test func aJPEGsEmbeddedMarksAreRead() throws {
        let d = Daemon()
        let root = d.root()
        for name in ["lr.jpg", "both.jpg", "plain.jpg"] {
            let made = try Tool.run("/usr/bin/vips", ["black", root + "/" + name, "16", "16"], timeout: 60)
            try #require(made.status == 0, "\(made.output)")
        }
        try Self.exiftool(["-XMP-xmp:Rating=4", "-XMP-xmp:Label=Yellow", root + "/lr.jpg"])
        try Self.exiftool(["-XMP-xmp:Rating=2", root + "/both.jpg"])
        try Self.sidecar(root + "/both.jpg.xmp", ["-XMP-xmp:Rating=5"])
        try d.start()
        defer { d.stop() }
        let c = try d.client()
        #expect(try Self.marks(c) == ["lr.jpg": "4 - yellow", "both.jpg": "5 - -", "plain.jpg": "- - -"])

        let ids = try c.idsByPath()
        let plain = try #require(ids["plain.jpg"])
        let subscriber = try d.client()
        _ = try subscriber.result(["cmd": "subscribe"])
        try Self.exiftool(["-XMP-xmp:Rating=-1", root + "/plain.jpg"])
        let event = try #require(try Self.metadataEvent(subscriber, id: plain), "no metadata event for plain.jpg")
        #expect((event["photo"] as? [String: Any])?["flag"] as? String == "reject", "\(event)")
    }

    /// The XMP embedded in a HEIF, a TIFF, a DNG and a TIFF-based RAW (a camera's
    /// own rating, an export's) is read as a JPEG's is: the HEIF's by its item,
    /// the others' by the toolkit's TIFF handler. Files made by libvips, the XMP
    /// written into them by exiftool.
    @Test func theMarksEmbeddedInHEIFTIFFAndRAWAreRead() throws {
        let d = Daemon()
        let root = d.root()
        let made = try Tool.run("/usr/bin/vips", ["black", root + "/h.heic", "64", "64", "--bands", "3"], timeout: 60)
        try #require(made.status == 0, "\(made.output)")
        let tiff = try Tool.run("/usr/bin/vips", ["black", root + "/t.tif", "16", "16"], timeout: 60)
        try #require(tiff.status == 0, "\(tiff.output)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: root + "/t.tif"))
        for name in ["d.dng", "n.nef", "plain.nef"] { try bytes.write(to: URL(fileURLWithPath: root + "/" + name)) }
        try Self.exiftool(["-XMP-xmp:Rating=4", "-XMP-xmp:Label=Yellow", root + "/h.heic"])
        try Self.exiftool(["-XMP-xmp:Rating=-1", root + "/t.tif"])
        try Self.exiftool(["-XMP-xmp:Rating=2", "-XMP-xmp:Label=Green", root + "/d.dng"])
        try Self.exiftool(["-XMP-xmp:Rating=5", "-XMP-digiKam:PickLabel=3", root + "/n.nef"])
        try d.start()
        defer { d.stop() }
        let c = try d.client()
        #expect(try Self.marks(c) == ["h.heic": "4 - yellow", "t.tif": "- reject -", "d.dng": "2 - green", "n.nef": "5 pick -",
                                      "plain.nef": "- - -"])
    }

    /// A root with `groups: false` lists each photo file alone, and its sidecars
    /// are still read in the background: a JPEG's own `NAME.EXT.xmp`, a RAW's
    /// `NAME.xmp`; `photo.info` reads them too, and one another program creates
    /// while the daemon runs is read and announced.
    @Test func aRootWithoutGroupsReadsItsSidecarsInTheBackground() throws {
        let d = Daemon()
        let root = d.root()
        try Self.makeTree(root)
        configure(d, #"{ roots: [{ name: "pics", path: "\#(root)", groups: false }] }"#)
        try d.start()
        defer { d.stop() }
        let c = try d.client()
        #expect(try Self.marks(c) == ["a.jpg": "3 - -", "b.jpg": "- reject red", "c.jpg": "- - -", "IMG_2.CR2": "5 - blue"])
        let ids = try c.idsByPath()
        let a = try #require(ids["a.jpg"]), plain = try #require(ids["c.jpg"])
        let info = try c.result(["cmd": "photo.info", "photo": a])
        #expect((info["marks"] as? [String: Any])?["rating"] as? Int == 3, "\(info)")

        let subscriber = try d.client()
        _ = try subscriber.result(["cmd": "subscribe"])
        try Self.sidecar(root + "/c.jpg.xmp", ["-XMP-xmp:Rating=-1"])
        let event = try #require(try Self.metadataEvent(subscriber, id: plain), "no metadata event for c.jpg")
        #expect((event["photo"] as? [String: Any])?["flag"] as? String == "reject", "\(event)")
        // rate writes the sidecar the photo has.
        let rated = try c.result(["cmd": "rate", "ids": [a], "label": "green"])
        #expect((rated["photos"] as? [[String: Any]])?.first?["sidecars"] as? [String] == ["a.jpg.xmp"], "\(rated)")
        #expect(try Self.marks(c)["a.jpg"] == "3 - green")
    }

    /// The marks are kept in the index: a warm start reads again only a sidecar
    /// whose size or mtime changed. Proved by a sidecar changed behind the
    /// daemon's back with its size and mtime put back: its stored marks stay.
    @Test func aWarmStartReadsOnlyTheSidecarsThatChanged() throws {
        let d = Daemon()
        let root = d.root()
        try Self.makeTree(root)
        try d.start()
        let c = try d.client()
        #expect(try Self.marks(c)["a.jpg"] == "3 - -")
        #expect(d.stop() == 0)
        let rows = try Tool.run("/usr/bin/sqlite3", [d.stateDir + "/index.sqlite", "SELECT COUNT(*) FROM sidecar_marks"], timeout: 10)
        // The three sidecars, and the embedded packets of the three JPEGs and the
        // CR2 (none: read, saying nothing).
        #expect(rows.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "7", "\(rows.output)")

        // a.jpg.xmp: 3 stars become 4, same size, same mtime.
        let path = root + "/a.jpg.xmp"
        var stamp = stat()
        #expect(stat(path, &stamp) == 0)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let changed = text.replacingOccurrences(of: ">3</xmp:Rating>", with: ">4</xmp:Rating>")
        try #require(changed != text && changed.utf8.count == text.utf8.count, "\(text)")
        try changed.write(toFile: path, atomically: false, encoding: .utf8)
        var times = [stamp.st_atim, stamp.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        // IMG_2.xmp: changed as a tool does, so read again.
        try Self.exiftool(["-XMP-xmp:Rating=1", root + "/IMG_2.xmp"])

        try d.start()
        defer { d.stop() }
        let warm = try Self.marks(try d.client())
        #expect(warm["a.jpg"] == "3 - -", "read again though unchanged in size and mtime: \(warm)")
        #expect(warm["IMG_2.CR2"] == "1 - blue", "\(warm)")
        #expect(warm["b.jpg"] == "- reject red", "\(warm)")
    }
}
