// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Statements of docs/PROTOCOL.md a client written from the document alone relies
/// on, and which it had left to guessing (issue 56 point 3), each held against the
/// real daemon: what a root's `bytes` counts, how capture sort places photos without
/// a time, whether `*` crosses `/`, what an unknown session is, where a photo put
/// back lands in a custom order, and the codes of the mistakes a client makes.
@Suite(.serialized)
struct ClientContractTests {
    static func write(_ path: String, _ data: Data) {
        _ = FileManager.default.createFile(atPath: path, contents: data)
    }

    static func paths(_ c: Client, _ view: [String: Any]) throws -> [String] {
        var body = view
        body["fields"] = ["path"]
        return try c.photos(body).compactMap { $0["path"] as? String }
    }

    /// A root's `bytes` (and `files`) count every indexed file: a group's each, its
    /// sidecars, and orphaned sidecars, which no plain listing shows.
    @Test func aRootsBytesCountEveryIndexedFileSidecarsAndOrphansIncluded() throws {
        let d = Daemon()
        let folder = d.root() + "/a"
        Files.mkdir(folder)
        Files.write(folder + "/IMG_0001.JPG", "jpeg")          // 4 bytes
        Files.write(folder + "/IMG_0001.CR2", "raw raw raw")   // 11
        Files.write(folder + "/IMG_0001.xmp", "shot edits")    // 10
        Files.write(folder + "/LOST_0009.xmp", "orphan")       // 6: its image is gone
        Files.write(folder + "/IMG_0002.JPG", "a lone jpeg")   // 11
        try d.start()
        let c = try d.client()
        let root = try c.rootStatus()
        #expect(root["photos"] as? Int == 2, "\(root)")
        #expect(root["bytes"] as? Int == 4 + 11 + 10 + 6 + 11, "\(root)")
        #expect(root["files"] as? Int == 5, "\(root)")
        // A listing counts what it lists: the orphan only in a view of orphans.
        let listing = try c.result(["cmd": "list", "limit": 0])
        #expect(listing["total"] as? Int == 2 && listing["files"] as? Int == 4, "\(listing)")
        let orphans = try c.result(["cmd": "list", "filter": ["orphans": true], "fields": ["path"]])
        #expect(orphans["total"] as? Int == 1 && orphans["files"] as? Int == 1, "\(orphans)")
    }

    /// `sort: "capture"` puts photos without a capture time last; `order: "desc"`
    /// reverses the whole order, so they come first.
    @Test func captureSortPutsPhotosWithoutATimeLastAndDescendingFirst() throws {
        let d = Daemon()
        Self.write(d.root() + "/b-early.jpg", Watch.RemoteShare.jpeg(taken: "2024:05:01 10:00:00"))
        Self.write(d.root() + "/a-late.jpg", Watch.RemoteShare.jpeg(taken: "2024:05:03 10:00:00"))
        Files.write(d.root() + "/0-none.jpg", "no exif")
        Files.write(d.root() + "/z-none.jpg", "no exif either")
        try d.start()
        let c = try d.client()
        try eventually(timeout: 10, "the capture times") { try c.rootStatus()["capture_pending"] as? Int == 0 }
        #expect(try Self.paths(c, ["sort": "capture"]) == ["b-early.jpg", "a-late.jpg", "0-none.jpg", "z-none.jpg"])
        #expect(try Self.paths(c, ["sort": "capture", "order": "desc"]) == ["z-none.jpg", "0-none.jpg", "a-late.jpg", "b-early.jpg"])
        // Outside any date range.
        #expect(try Self.paths(c, ["filter": ["from": "1900", "to": "2999"]]) == ["a-late.jpg", "b-early.jpg"])
    }

    /// `*` (and `?`) never match `/`: a glob with a `/` is matched against the whole
    /// relative path, one folder level per `/`; one without, against the name alone.
    @Test func aStarInAGlobDoesNotCrossASlash() throws {
        let d = Daemon()
        Files.mkdir(d.root() + "/a")
        Files.mkdir(d.root() + "/a/sub")
        Files.write(d.root() + "/a/IMG_1.JPG", "1")
        Files.write(d.root() + "/a/sub/IMG_2.JPG", "2")
        Files.write(d.root() + "/top.JPG", "3")
        try d.start()
        let c = try d.client()
        #expect(try Self.paths(c, ["filter": ["glob": "*.JPG"]]) == ["top.JPG", "a/IMG_1.JPG", "a/sub/IMG_2.JPG"],
                "without a /, the name alone, at any depth")
        #expect(try Self.paths(c, ["filter": ["glob": "a/*.JPG"]]) == ["a/IMG_1.JPG"], "* stops at /")
        #expect(try Self.paths(c, ["filter": ["glob": "*/IMG_2.JPG"]]).isEmpty, "* is not a/sub")
        #expect(try Self.paths(c, ["filter": ["glob": "*/*/IMG_2.JPG"]]) == ["a/sub/IMG_2.JPG"])
        #expect(try Self.paths(c, ["filter": ["glob": "a?sub/*"]]).isEmpty, "? does not match / either")
        #expect(try Self.paths(c, ["filter": ["glob": "a*"]]).isEmpty, "a name, not a folder, is matched")
    }

    /// No request answers `no_such_session`: a session never made (or forgotten)
    /// answers as an empty one, and reading it makes none.
    @Test func anUnknownSessionIsAnEmptyOne() throws {
        let d = Daemon()
        _ = try PhotoSet.make(in: d.root(), count: 2)
        try d.start()
        let c = try d.client()
        let sessions = try c.result(["cmd": "status"])["sessions"] as? Int
        let selection = try c.result(["cmd": "selection", "session": "never-made"])
        #expect(selection["mode"] as? String == "view" && selection["count"] as? Int == 0, "\(selection)")
        #expect((selection["items"] as? [Any])?.isEmpty == true)
        let listing = try c.result(["cmd": "list", "session": "never-made", "limit": 0])
        #expect(listing["total"] as? Int == 2, "the default view: every root")
        #expect(try c.result(["cmd": "delete.cancel", "session": "never-made"])["cancelled"] as? Int == 0)
        #expect(try c.errorCode(["cmd": "delete.prepare", "session": "never-made"]) == "empty_selection")
        #expect(try c.errorCode(["cmd": "clear", "session": "never-made"]) == "not_in_select_mode")
        #expect(try c.result(["cmd": "status"])["sessions"] as? Int == sessions, "reading a session makes none")
    }

    /// A photo trashed and put back keeps its id, but not its place in its folder's
    /// custom order: it joins the end, as a new photo does.
    @Test func aPhotoPutBackKeepsItsIdAndJoinsTheEndOfItsCustomOrder() throws {
        let d = Daemon()
        _ = try PhotoSet.make(in: d.root(), count: 3, folders: ["a"])
        try d.start()
        let c = try d.client()
        _ = try c.result(["cmd": "view", "root": "pics", "folder": "a", "sort": "custom"])
        func order() throws -> [String] { try Self.paths(c, [:]) }
        #expect(try order() == ["a/IMG_0001.JPG", "a/IMG_0002.JPG", "a/IMG_0003.JPG"])
        _ = try c.result(["cmd": "reorder", "position": 3, "to": 1])
        #expect(try order() == ["a/IMG_0003.JPG", "a/IMG_0001.JPG", "a/IMG_0002.JPG"])
        let id = try #require(try c.idsByPath()["a/IMG_0003.JPG"])

        _ = try c.deleteSelection(["ids": [id]])
        try c.sync()
        #expect(try order() == ["a/IMG_0001.JPG", "a/IMG_0002.JPG"])
        #expect(try c.undo()["restored"] as? Int == 1)
        try c.sync()
        #expect(try order() == ["a/IMG_0001.JPG", "a/IMG_0002.JPG", "a/IMG_0003.JPG"], "back at the end, not first")
        #expect(try c.idsByPath()["a/IMG_0003.JPG"] == id, "under its id")
    }

    /// `thumbnails: false` (config/curatord.json5, and the table of configuration
    /// keys): `status` has no `thumbnails`, photos no `thumbnail`, and a `thumbnail`
    /// request is `thumbnails_off`; nothing is written to the cache.
    @Test func withThumbnailsOffStatusHasNoneAndAThumbnailRequestSaysSo() throws {
        let d = Daemon()
        Files.write(d.root() + "/a.jpg", "a")
        try d.useConfig("{ roots: [{ name: \"pics\", path: \"\(d.root())\" }], thumbnails: false }")
        try d.start()
        let c = try d.client()
        #expect(try c.result(["cmd": "status"])["thumbnails"] == nil)
        let photo = try #require(try c.photos().first)
        #expect(photo["thumbnail"] == nil, "\(photo)")
        let id = try #require(photo["id"] as? Int)
        #expect(try c.errorCode(["cmd": "thumbnail", "photo": id]) == "thumbnails_off")
        #expect(!Files.exists(d.home.sub("xdg-cache") + "/thumbnails/normal"), "no thumbnail was made")
    }

    /// The table "Configuration a client meets": each setting where the answers show it.
    @Test func theSettingsAClientMeetsShowInTheAnswers() throws {
        let d = Daemon(roots: [])
        let library = d.home.mkdir("library")
        Files.mkdir(library + "/Keep")
        Files.write(library + "/IMG_0001.JPG", "jpeg")
        Files.write(library + "/IMG_0001.CR2", "raw raw")
        Files.write(library + "/Keep/kept.jpg", "kept")
        Files.write(library + "/drawing.png", "png")
        for n in 2...7 { Files.write(library + "/IMG_000\(n).JPG", "photo \(n)") }
        let thumbnails = d.home.sub("thumbs")
        try d.useConfig("""
            { roots: [{ name: "lib", path: "\(library)", watch: "poll", types: ["jpeg", "cr2"], group_shows: "raw",
                        protected: ["Keep"] }],
              selection_cap: 2, max_selection: 5, plan_ttl_seconds: 7, thumbnail_dir: "\(thumbnails)" }
            """)
        try d.start()
        let c = try d.client()
        let status = try c.result(["cmd": "status"])
        let root = try c.rootStatus("lib")
        #expect(root["path"] as? String == library && root["watch"] as? String == "poll" && root["watching"] as? String == "poll",
                "\(root)")
        #expect((status["thumbnails"] as? [String: Any])?["cache"] as? String == thumbnails, "\(status)")

        let photos = try c.photos(["fields": ["path", "type", "kind", "protected"]])
        #expect(!photos.contains { $0["type"] as? String == "png" }, "types leaves the PNG out: \(photos)")
        let group = try #require(photos.first { ($0["path"] as? String)?.hasPrefix("IMG_0001.") == true })
        #expect(group["path"] as? String == "IMG_0001.CR2" && group["kind"] as? String == "raw", "group_shows: \(group)")
        #expect(photos.first { $0["path"] as? String == "Keep/kept.jpg" }?["protected"] as? Bool == true)

        #expect(try c.result(["cmd": "mode", "mode": "select"])["cap"] as? Int == 2, "selection_cap")
        let cap = try c.request(["cmd": "mode", "mode": "select", "cap": 6])
        #expect((cap["error"] as? [String: Any])?["argument"] as? String == "cap", "max_selection bounds a cap: \(cap)")
        try c.select("1")
        #expect(try c.prepare()["expires_in_ms"] as? Int == 7000, "plan_ttl_seconds")
        let ids = try c.photos(["fields": ["id", "protected"]]).filter { $0["protected"] == nil }.compactMap { $0["id"] as? Int }
        #expect(ids.count == 7)
        let tooMany = try c.request(["cmd": "delete.prepare", "ids": ids])
        #expect((tooMany["error"] as? [String: Any])?["code"] as? String == "invalid_argument", "max_selection bounds ids: \(tooMany)")
    }

    /// The codes of the mistakes a client makes, as the error table and the
    /// commands' sections say.
    @Test func theCodesOfAClientsMistakes() throws {
        let d = Daemon(roots: ["pics", "more"])
        _ = try PhotoSet.make(in: d.root("pics"), count: 3, folders: ["a", "b"])
        Files.mkdir(d.root("more") + "/a")
        Files.write(d.root("more") + "/a/m.jpg", "m")
        try d.start()
        let c = try d.client()
        func error(_ body: [String: Any]) throws -> [String: Any] {
            let answer = try c.request(body)
            #expect(answer["ok"] as? Bool == false, "\(body) answered \(answer)")
            return answer["error"] as? [String: Any] ?? [:]
        }

        // A folder needs a root when several roots are configured: invalid_argument naming `root`.
        for cmd in ["list", "view"] {
            let e = try error(["cmd": cmd, "folder": "a"])
            #expect(e["code"] as? String == "invalid_argument" && e["argument"] as? String == "root", "\(cmd): \(e)")
        }
        // select's `folder` is of the session's view: in a view of every root, that
        // folder of each root that has one (select takes no `root`: the view gives it).
        _ = try c.result(["cmd": "mode", "mode": "select"])
        #expect(try c.result(["cmd": "select", "folder": "a"])["count"] as? Int == 3)
        let roots = try c.result(["cmd": "selection"])["items"] as? [[String: Any]] ?? []
        #expect(Set(roots.compactMap { $0["root"] as? String }) == ["pics", "more"], "\(roots)")
        let nowhere = try error(["cmd": "select", "folder": "zz"])
        #expect(nowhere["code"] as? String == "no_such_folder" && nowhere["argument"] as? String == "folder", "\(nowhere)")

        // reorder outside a custom order: invalid_argument naming `sort`.
        _ = try c.result(["cmd": "view", "root": "pics", "sort": "name"])
        let notCustom = try error(["cmd": "reorder", "position": 1, "to": 2])
        #expect(notCustom["code"] as? String == "invalid_argument" && notCustom["argument"] as? String == "sort", "\(notCustom)")
        // Past the end, by `position` or `to` (0 too): no_such_position with `positions`.
        _ = try c.result(["cmd": "view", "root": "pics", "sort": "custom"])
        for (position, to, bad) in [(1, 9, 9), (9, 1, 9), (1, 0, 0)] {
            let e = try error(["cmd": "reorder", "position": position, "to": to])
            #expect(e["code"] as? String == "no_such_position" && e["positions"] as? [Int] == [bad], "\(position)→\(to): \(e)")
        }
        // Into another folder: invalid_argument naming `to`. With a filter: filter_active.
        let across = try error(["cmd": "reorder", "position": 1, "to": 3])
        #expect(across["code"] as? String == "invalid_argument" && across["argument"] as? String == "to", "\(across)")
        _ = try c.result(["cmd": "view", "root": "pics", "sort": "custom", "filter": ["glob": "*.JPG"]])
        #expect(try error(["cmd": "reorder", "position": 1, "to": 2])["code"] as? String == "filter_active")

        // sync of an unknown root: no_such_root naming `root`.
        let sync = try error(["cmd": "sync", "root": "nowhere"])
        #expect(sync["code"] as? String == "no_such_root" && sync["argument"] as? String == "root", "\(sync)")

        // A `cmd` that is not a string: invalid_argument naming `cmd`.
        for cmd: Any in [5, ["status"], ["name": "status"], true] {
            let e = try error(["cmd": cmd])
            #expect(e["code"] as? String == "invalid_argument" && e["argument"] as? String == "cmd", "\(cmd): \(e)")
        }
        // A string naming no command, and no `cmd` at all.
        #expect(try error(["cmd": "stat"])["code"] as? String == "unknown_command")
        #expect(try error(["id": 1])["code"] as? String == "bad_request")
    }
}
