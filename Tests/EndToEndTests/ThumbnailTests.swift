// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// The daemon's thumbnails, end to end: real JPEG, HEIC and DNG files made by
/// bench/sample_photos.py, the real daemon and its worker, the `thumbnail`
/// command and event over the socket, and the files checked where the
/// freedesktop.org standard puts them, with tools that know nothing of ours.
@Suite(.serialized) struct ThumbnailTests {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func sample(_ arguments: [String]) throws {
        let out = try Tool.run("/usr/bin/python3", [package + "/bench/sample_photos.py"] + arguments)
        guard out.status == 0 else { throw HarnessError("sample_photos.py \(arguments): \(out.stderr)") }
    }

    /// MD5 of the file's URI, by md5sum: the thumbnail's name in the standard.
    static func standardName(_ path: String) throws -> String {
        let uri = "file://" + path.split(separator: "/").map {
            String($0).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String($0)
        }.reduce("") { $0 + "/" + $1 }
        let out = try Tool.run("/usr/bin/md5sum", [], input: uri)
        return String(out.stdout.prefix(32)) + ".png"
    }

    static func cache(_ daemon: Daemon) -> String { daemon.home.sub("xdg-cache/thumbnails") }

    static func thumbnails(_ client: Client, _ ids: [Int], size: String = "normal", data: Bool = false) throws -> [[String: Any]] {
        var body: [String: Any] = ["cmd": "thumbnail", "ids": ids, "size": size]
        if data { body["data"] = true }
        return try client.result(body)["thumbnails"] as? [[String: Any]] ?? []
    }

    static func status(_ client: Client) throws -> [String: Any] {
        try client.result(["cmd": "status"])["thumbnails"] as? [String: Any] ?? [:]
    }

    /// Waits for the background to have looked at every photo.
    static func waitForBacklog(_ client: Client, ready: Int, failed: Int, timeout: Double = 60) throws {
        try eventually(timeout: timeout, "the thumbnail backlog to drain to \(ready) ready, \(failed) failed") {
            let s = try status(client)
            return s["backlog"] as? Int == 0 && s["ready"] as? Int == ready && s["failed"] as? Int == failed
        }
    }

    @Test func everyPhotoGetsStandardThumbnailsInTheBackground() throws {
        let daemon = Daemon()
        let root = daemon.root()
        try FileManager.default.createDirectory(atPath: root + "/2024 été", withIntermediateDirectories: true)
        try Self.sample(["marker", root + "/2024 été/turned.jpg", "--width", "600", "--height", "400", "--orientation", "6"])
        try Self.sample(["heic", root + "/2024 été/phone.heic", "--width", "800", "--height", "600"])
        try Self.sample(["dng", root + "/2024 été/camera.dng"])
        // A JPEG cut short, and a clip (no thumbnail: a placeholder).
        let whole = try Data(contentsOf: URL(fileURLWithPath: root + "/2024 été/turned.jpg"))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: root + "/2024 été/cut.jpg"))
        try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: root + "/2024 été/clip.mp4"))
        try daemon.start()
        let client = try Client(daemon.socket)
        try Self.waitForBacklog(client, ready: 3, failed: 1)
        #expect(try Self.status(client)["cache"] as? String == Self.cache(daemon))

        let ids = try client.idsByPath()
        let order = ["turned.jpg", "phone.heic", "camera.dng", "cut.jpg", "clip.mp4"].map { "2024 été/" + $0 }
        let asked = try order.map { try #require(ids[$0], "\($0) is indexed") }
        let large = try Self.thumbnails(client, asked, size: "large", data: true)
        #expect(large.map { $0["photo_id"] as? Int } == asked)
        #expect(large.map { $0["state"] as? String } == ["ready", "ready", "ready", "failed", "placeholder"])
        // The marker is 600 x 400 upright; its EXIF turn is applied (no 171 x 256).
        #expect(large[0]["width"] as? Int == 256 && large[0]["height"] as? Int == 171, "\(large[0])")
        #expect((large[3]["reason"] as? String)?.hasPrefix("corrupt") == true, "\(large[3])")
        for (index, entry) in large.prefix(3).enumerated() {
            let photoPath = root + "/" + order[index]
            let path = try #require(entry["path"] as? String)
            #expect(path == Self.cache(daemon) + "/large/" + (try Self.standardName(photoPath)), "named by the MD5 of the URI")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(Data(base64Encoded: entry["data"] as? String ?? "") == bytes, "data is the file's bytes")
            var photo = stat()
            #expect(stat(photoPath, &photo) == 0)
            #expect(bytes.range(of: Data("tEXtThumb::URI\0file://".utf8)) != nil, "PNG text chunk Thumb::URI")
            #expect(bytes.range(of: Data("tEXtThumb::MTime\0\(photo.st_mtim.tv_sec)".utf8)) != nil,
                    "Thumb::MTime is the photo's mtime, \(photo.st_mtim.tv_sec), in \(order[index])")
            var st = stat()
            #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o600)
            // Both background sizes are there.
            #expect(FileManager.default.fileExists(atPath: Self.cache(daemon) + "/normal/" + (try Self.standardName(photoPath))))
        }
        // The fail record, where the standard puts a program's failures.
        let failures = try FileManager.default.contentsOfDirectory(atPath: Self.cache(daemon) + "/fail")
        #expect(failures.count == 1 && failures[0].hasPrefix("curatord-"), "\(failures)")

        // Listings say which photos have their thumbnails.
        let listed = try client.photos(["fields": ["id", "thumbnail"]])
        let ready = Set(listed.filter { $0["thumbnail"] as? Bool == true }.compactMap { $0["id"] as? Int })
        #expect(ready == Set(asked.prefix(3)))

        // Errors: an unknown id, no photo at all.
        let unknown = try client.request(["cmd": "thumbnail", "photo": 999_999])
        #expect((unknown["error"] as? [String: Any])?["code"] as? String == "no_such_photo")
        #expect(try client.errorCode(["cmd": "thumbnail"]) == "invalid_argument")
        #expect(try client.errorCode(["cmd": "thumbnail", "photo": asked[0], "size": "huge"]) == "invalid_argument")
    }

    @Test func askedSizesAndChangedPhotosAreMadeAndAnnounced() throws {
        let daemon = Daemon()
        let root = daemon.root()
        try Self.sample(["jpeg", root + "/a.jpg", "--width", "1600", "--height", "1200"])
        try Self.sample(["heic", root + "/b.heic", "--width", "1200", "--height", "900"])
        try daemon.start()
        let client = try Client(daemon.socket)
        try Self.waitForBacklog(client, ready: 2, failed: 0)
        let ids = try client.idsByPath()
        let a = try #require(ids["a.jpg"]), b = try #require(ids["b.heic"])
        let watcher = try Client(daemon.socket)
        _ = try watcher.result(["cmd": "subscribe", "thumbnails": true])
        // A subscriber that did not ask for thumbnail events gets none.
        let plain = try Client(daemon.socket)
        _ = try plain.result(["cmd": "subscribe"])

        // A size nobody made yet: pending, first in line, then an event, then ready.
        let asked = try Self.thumbnails(client, [b], size: "xx-large")
        #expect(asked.first?["state"] as? String == "pending")
        let event = try #require(try watcher.nextEvent(timeout: 30), "a thumbnail event")
        #expect(event["event"] as? String == "thumbnail" && event["photo_id"] as? Int == b && event["state"] as? String == "ready")
        #expect((event["sizes"] as? [String])?.contains("xx-large") == true, "\(event)")
        #expect(try plain.nextEvent(timeout: 1) == nil, "no thumbnail event without \"thumbnails\": true")
        let made = try Self.thumbnails(client, [b], size: "xx-large")
        #expect(made.first?["state"] as? String == "ready" && made.first?["width"] as? Int == 1024, "\(made)")

        // The photo changes (smaller, and a new mtime): its thumbnails are made again.
        let before = try #require(try Self.thumbnails(client, [a], size: "large").first?["height"] as? Int)
        try Self.sample(["jpeg", root + "/a.new", "--width", "1200", "--height", "1200"])
        // Rewritten in place (same inode, so the same photo id), as an editor saving does.
        let replacement = try Data(contentsOf: URL(fileURLWithPath: root + "/a.new"))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: root + "/a.jpg"))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: replacement)
        try handle.close()
        #expect(unlink(root + "/a.new") == 0)
        var announced = false
        while let next = try watcher.nextEvent(timeout: 30) {
            if next["event"] as? String == "thumbnail", next["photo_id"] as? Int == a, next["state"] as? String == "ready" {
                announced = true
                break
            }
        }
        #expect(announced, "a thumbnail event for the changed photo")
        let after = try Self.thumbnails(client, [a], size: "large")
        #expect(after.first?["state"] as? String == "ready")
        #expect(before == 192 && after.first?["height"] as? Int == 256, "4:3 before, square after: \(after)")
    }

    /// `curatorctl sheet`: pages drawn by curatord-thumbnailer from the daemon's
    /// thumbnails, the selection alone with --selection, a clear error when empty.
    @Test func curatorctlDrawsTheViewAndTheSelectionAsContactSheets() throws {
        let daemon = Daemon()
        let root = daemon.root()
        for folder in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
            for i in 1...5 { try Self.sample(["marker", "\(root)/\(folder)/\(i).jpg", "--width", "\(300 + 40 * i)", "--height", "300"]) }
        }
        try daemon.start()
        let ctl = { (args: [String]) throws -> Command in
            try Command.run(Daemon.curatorctl, ["--socket", daemon.socket] + args)
        }
        let out = daemon.home.sub("sheet.png")
        let drawn = try ctl(["sheet", "-o", out, "--columns", "4", "--cell", "128"])
        #expect(drawn.status == 0, "\(drawn.output)")
        #expect(drawn.stdout.contains("10 photos on 1 page"), "\(drawn.output)")
        let png = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "a PNG")
        // 4 columns of 128-pixel cells, with margins and gutters: wider than 4 cells, narrower than 6.
        let width = png.subdata(in: 16..<20).reduce(0) { $0 << 8 | Int($1) }
        #expect(width > 4 * 128 && width < 6 * 128, "width \(width)")

        let none = try ctl(["sheet", "--selection", "-o", daemon.home.sub("none.png")])
        #expect(none.status == 1 && none.stderr.contains("nothing is selected"), "\(none.output)")
        _ = try ctl(["mode", "select"])
        _ = try ctl(["select", "7", "2"])
        let picks = daemon.home.sub("picks.jpg")
        let selected = try ctl(["sheet", "--selection", "-o", picks])
        #expect(selected.status == 0 && selected.stdout.contains("2 photos on 1 page"), "\(selected.output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: picks)).prefix(3) == Data([0xFF, 0xD8, 0xFF]), "a JPEG")
        #expect(try ctl(["sheet", "-o", daemon.home.sub("sheet.gif")]).status == 2, "only PNG or JPEG")
    }

    /// Every option of `curatorctl sheet` out of range is a usage error (exit 2) that
    /// names it, before anything is drawn: never the renderer's crash ("failed to
    /// allocate" for --cell 100000); an output that cannot be written is one line, no
    /// log line; `curatord-thumbnailer sheet` refuses the same values on its own.
    @Test func sheetOptionsOutOfRangeAreUsageErrors() throws {
        let daemon = Daemon()
        try FileManager.default.createDirectory(atPath: daemon.root() + "/a", withIntermediateDirectories: true)
        try Self.sample(["marker", daemon.root() + "/a/1.jpg"])
        try daemon.start()
        try daemon.waitForScanToFinish()
        let out = daemon.home.sub("sheet.png")
        for (arguments, named) in [(["--columns", "0"], "--columns"), (["--columns", "-3"], "--columns"),
                                   (["--cell", "100000"], "--cell"), (["--cell", "10"], "--cell"),
                                   (["--columns", "64", "--cell", "1024"], "fewer --columns"), (["--wait", "-1"], "--wait")] {
            let refused = try Command.run(Daemon.curatorctl, ["--socket", daemon.socket, "sheet", "-o", out] + arguments)
            #expect(refused.status == 2 && refused.stderr.contains(named), "\(arguments): \(refused.output)")
            #expect(!refused.stderr.contains("Fatal error") && !FileManager.default.fileExists(atPath: out), "\(arguments)")
        }
        let missing = try Command.run(Daemon.curatorctl, ["--socket", daemon.socket, "sheet", "-o", "/nonexistent-\(getpid())/sheet.png"])
        #expect(missing.status == 1 && missing.stderr.split(separator: "\n").count == 1
                && missing.stderr.contains("cannot write /nonexistent-"), "\(missing.output)")
        #expect(missing.stderr.range(of: #"\d{4}-\d\d-\d\d"#, options: .regularExpression) == nil, "no log line: \(missing.output)")
        let folder = daemon.home.sub("folder.png")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let isFolder = try Command.run(Daemon.curatorctl, ["--socket", daemon.socket, "sheet", "-o", folder])
        #expect(isFolder.status == 1 && isFolder.stderr.contains("it is a folder"), "\(isFolder.output)")
        let drawn = try Command.run(Daemon.curatorctl, ["--socket", daemon.socket, "sheet", "-o", out, "--cell", "48", "--columns", "1"])
        #expect(drawn.status == 0, "the ends of the ranges are drawn: \(drawn.output)")

        let items = daemon.home.sub("items.json")
        try #"[{"position":1,"label":"a.jpg"}]"#.write(toFile: items, atomically: true, encoding: .utf8)
        let renderer = Daemon.binDirectory + "/curatord-thumbnailer"
        let direct = try Command.run(renderer, ["sheet", items, "-o", daemon.home.sub("direct.png"), "--cell", "100000"])
        #expect(direct.status == 2 && direct.stderr.hasPrefix("curatord-thumbnailer sheet: --cell must be 48 to 1024"), "\(direct.output)")
    }

    /// A photo deleted by another program loses its thumbnails; a photo trashed by a
    /// batch keeps them, and after its undo they are valid at once.
    @Test func deletedPhotosLoseTheirThumbnailsTrashedOnesKeepThem() throws {
        let daemon = Daemon()
        let root = daemon.root()
        try Self.sample(["marker", root + "/gone.jpg"])
        try Self.sample(["marker", root + "/trashed.jpg", "--width", "500", "--height", "300"])
        try daemon.start()
        let client = try Client(daemon.socket)
        try Self.waitForBacklog(client, ready: 2, failed: 0)
        let goneThumb = Self.cache(daemon) + "/normal/" + (try Self.standardName(root + "/gone.jpg"))
        let trashedThumb = Self.cache(daemon) + "/normal/" + (try Self.standardName(root + "/trashed.jpg"))
        #expect(FileManager.default.fileExists(atPath: goneThumb) && FileManager.default.fileExists(atPath: trashedThumb))
        let trashedID = try #require(try client.idsByPath()["trashed.jpg"])

        #expect(unlink(root + "/gone.jpg") == 0)
        let batch = try client.deleteSelection(["ids": [trashedID]])
        #expect(batch["trashed"] as? Int == 1, "\(batch)")
        try eventually(timeout: 30, "the deleted photo's thumbnails to go") { !FileManager.default.fileExists(atPath: goneThumb) }
        #expect(FileManager.default.fileExists(atPath: trashedThumb), "a trashed photo's thumbnails stay for its undo")

        _ = try client.undo()
        try client.sync()
        try eventually(timeout: 10, "the restored photo to be indexed") { try client.idsByPath()["trashed.jpg"] != nil }
        let back = try Self.thumbnails(client, [try #require(try client.idsByPath()["trashed.jpg"])])
        #expect(back.first?["state"] as? String == "ready", "valid again at once: \(back)")
    }

    /// A trashed photo's thumbnails are kept for its undo until the photo leaves the
    /// trash for good: `trash.empty`, or purged by another tool (found so by an undo).
    @Test func purgedPhotosLoseTheThumbnailsKeptForUndo() throws {
        let daemon = Daemon()
        let root = daemon.root()
        try Self.sample(["marker", root + "/emptied.jpg"])
        try Self.sample(["marker", root + "/purged.jpg", "--width", "500", "--height", "300"])
        try Self.sample(["marker", root + "/kept.jpg", "--width", "400", "--height", "300"])
        try daemon.start()
        let client = try Client(daemon.socket)
        try Self.waitForBacklog(client, ready: 3, failed: 0)
        func thumbs(_ name: String) throws -> [String] {
            try ["normal", "large"].map { Self.cache(daemon) + "/\($0)/" + (try Self.standardName(root + "/" + name)) }
        }
        let ids = try client.idsByPath()
        let emptied = try #require(ids["emptied.jpg"]), purged = try #require(ids["purged.jpg"]), kept = try #require(ids["kept.jpg"])
        // Two batches: one to undo (after its photo was purged), one to empty.
        let first = try client.deleteSelection(["ids": [emptied, kept]])
        #expect(first["trashed"] as? Int == 2, "\(first)")
        let second = try client.deleteSelection(["ids": [purged]])
        #expect(second["trashed"] as? Int == 1, "\(second)")
        for name in ["emptied.jpg", "purged.jpg", "kept.jpg"] {
            for path in try thumbs(name) { #expect(Files.exists(path), "kept for the undo: \(path)") }
        }

        let listed = try client.result(["cmd": "trash.list"])
        let photos = listed["photos"] as? [[String: Any]] ?? []
        #expect(photos.count == 3, "\(listed)")
        // Purged by another tool: its file leaves the trash behind our back; the undo finds it missing.
        let purgedLocation = try #require(photos.first { $0["id"] as? Int == purged }?["location"] as? String)
        #expect(unlink(purgedLocation) == 0)
        let undone = try client.undo(second["batch"] as? Int)
        #expect("\(undone)".contains("missing"), "\(undone)")
        try eventually(timeout: 30, "the purged photo's thumbnails to go") {
            try thumbs("purged.jpg").allSatisfy { !Files.exists($0) }
        }
        // The others are still in the trash, their thumbnails with them.
        for path in try thumbs("emptied.jpg") + thumbs("kept.jpg") { #expect(Files.exists(path), "still in the trash: \(path)") }

        let token = try #require(try client.result(["cmd": "trash.list"])["token"] as? String)
        let result = try client.result(["cmd": "trash.empty", "token": token])
        #expect(result["emptied"] as? Int == 2, "\(result)")
        try eventually(timeout: 30, "the emptied photos' thumbnails to go") {
            try (thumbs("emptied.jpg") + thumbs("kept.jpg")).allSatisfy { !Files.exists($0) }
        }
    }
}

extension ThumbnailTests {
    /// Groups (issue 15): a group's thumbnail is its shown file's, asked by the
    /// group's id, also once that file is gone and another shows the group; a
    /// sidecar is no image and is never queued.
    @Test func aGroupsThumbnailIsItsShownFilesUnderTheGroupsID() throws {
        let daemon = Daemon()
        let root = daemon.root()
        Files.mkdir(root + "/2024")
        try Self.sample(["marker", root + "/2024/IMG_0001.jpg", "--width", "600", "--height", "400"])
        try Self.sample(["dng", root + "/2024/IMG_0001.dng"])
        Files.write(root + "/2024/IMG_0001.xmp", "<x:xmpmeta/>")
        try daemon.start()
        let client = try Client(daemon.socket)
        // Two images; the sidecar is not looked at (it would fail to decode).
        try Self.waitForBacklog(client, ready: 2, failed: 0)
        let listed = try client.photos(["fields": ["id", "path", "thumbnail"]])
        #expect(listed.count == 1 && listed.first?["thumbnail"] as? Bool == true, "\(listed)")
        let group = try #require(listed.first?["id"] as? Int)
        let jpeg = try #require(try Self.thumbnails(client, [group]).first)
        #expect(jpeg["state"] as? String == "ready" && jpeg["photo_id"] as? Int == group, "\(jpeg)")
        #expect(jpeg["path"] as? String == Self.cache(daemon) + "/normal/" + (try Self.standardName(root + "/2024/IMG_0001.jpg")))

        // The JPEG goes (another program): the group, still listed under its id, shows the DNG.
        try FileManager.default.removeItem(atPath: root + "/2024/IMG_0001.jpg")
        try client.sync()
        #expect(try client.photos().map { $0["path"] as? String } == ["2024/IMG_0001.dng"])
        let raw = try #require(try Self.thumbnails(client, [group]).first)
        #expect(raw["state"] as? String == "ready" && raw["photo_id"] as? Int == group, "\(raw)")
        #expect(raw["path"] as? String == Self.cache(daemon) + "/normal/" + (try Self.standardName(root + "/2024/IMG_0001.dng")))
    }

    /// `.hif`, the name Canon, Sony and Fujifilm cameras give their HEIF files: a
    /// HEIC photo in the listing, its capture time read (as exiftool reads it), its
    /// thumbnail made (MIME type image/heic, as its type), grouped with the RAW of its shot.
    @Test func aCamerasHIFIsAHEIFPhotoEverywhere() throws {
        let daemon = Daemon()
        let root = daemon.root()
        Files.mkdir(root + "/2024")
        let hif = root + "/2024/IMG_0001.HIF"
        try Self.sample(["heic", hif, "--width", "800", "--height", "600", "--marker"])
        let written = try Tool.run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-DateTimeOriginal=2023:04:05 06:07:08", hif])
        #expect(written.status == 0, "\(written.output)")
        let exiftool = try ExifTool.tags(["DateTimeOriginal", "FileType"], of: hif)
        #expect(exiftool["FileType"] == "HEIC")
        try Self.sample(["dng", root + "/2024/IMG_0001.DNG"])
        try daemon.start()
        let client = try Client(daemon.socket)
        try Self.waitForBacklog(client, ready: 2, failed: 0)
        try eventually(timeout: 30, "the capture time to be read") {
            try client.photos(["fields": ["capture_time"]]).first?["capture_time"] as? String != nil
        }
        let listed = try client.photos(["fields": ["id", "path", "type", "kind", "members", "capture_time", "thumbnail"]])
        #expect(listed.count == 1, "\(listed)")
        let photo = try #require(listed.first)
        #expect(photo["path"] as? String == "2024/IMG_0001.HIF" && photo["type"] as? String == "heic", "\(photo)")
        #expect(photo["kind"] as? String == "rendered")
        #expect((photo["members"] as? [[String: Any]])?.map { $0["name"] as? String } == ["IMG_0001.DNG"])
        #expect(photo["capture_time"] as? String == ExifTool.wire(exiftool["DateTimeOriginal"]))
        #expect(photo["thumbnail"] as? Bool == true)
        let id = try #require(photo["id"] as? Int)
        let thumbnail = try #require(try Self.thumbnails(client, [id], size: "large").first)
        #expect(thumbnail["path"] as? String == Self.cache(daemon) + "/large/" + (try Self.standardName(hif)), "\(thumbnail)")
        let png = try Data(contentsOf: URL(fileURLWithPath: try #require(thumbnail["path"] as? String)))
        #expect(png.range(of: Data("tEXtThumb::Mimetype\0image/heic".utf8)) != nil, "its type is heic")
        #expect(thumbnail["width"] as? Int == 256 && thumbnail["height"] as? Int == 192, "\(thumbnail)")
    }
}
