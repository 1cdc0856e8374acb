// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Sessions and selections against the real daemon (issue "Sessions and selections").
@Suite(.serialized)
struct SessionTests {
    /// A daemon on one root with `count` photos named IMG_0001.JPG ... in 2024/05.
    static func daemon(count: Int = 5, config: ((Daemon) -> String)? = nil) throws -> Daemon {
        let d = Daemon()
        let folder = d.root() + "/2024/05"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for i in 1...count { Files.write(folder + String(format: "/IMG_%04d.JPG", i), "photo \(i)") }
        if let config {
            let path = d.home.sub("curatord.json5")
            try config(d).write(toFile: path, atomically: true, encoding: .utf8)
            d.configPath = path
        }
        try d.start()
        return d
    }

    static func selection(_ c: Client, session: String? = nil) throws -> [(number: Int, path: String, id: Int)] {
        var body: [String: Any] = ["cmd": "selection"]
        if let session { body["session"] = session }
        let items = try c.result(body)["items"] as? [[String: Any]] ?? []
        return items.map { ($0["number"] as? Int ?? 0, $0["path"] as? String ?? "", $0["id"] as? Int ?? 0) }
    }

    @Test func selectThreeDeselectOneLeavesExactlyTwoRenumbered() throws {
        let d = try Self.daemon()
        let c = try d.client()
        #expect(try c.errorCode(["cmd": "select", "positions": "1"]) == "not_in_select_mode")
        _ = try c.result(["cmd": "mode", "mode": "select"])
        _ = try c.result(["cmd": "select", "positions": "4 2 5"])
        _ = try c.result(["cmd": "deselect", "positions": "2"])
        let sel = try Self.selection(c)
        #expect(sel.map(\.number) == [1, 2])
        #expect(sel.map(\.path) == ["2024/05/IMG_0004.JPG", "2024/05/IMG_0005.JPG"])
        // list marks each selected photo with its number
        let listed = try c.photos()
        #expect(listed.compactMap { $0["selected"] as? Int } == [1, 2])
        #expect(listed[3]["selected"] as? Int == 1)
    }

    @Test func positionsStayBoundToTheSamePhotosAfterFilesAreAddedBefore() throws {
        let d = try Self.daemon()
        let c = try d.client()
        _ = try c.result(["cmd": "mode", "mode": "select"])
        _ = try c.result(["cmd": "select", "positions": "2 3"])
        let before = try Self.selection(c).map(\.id)
        // New photos that sort before the selected ones shift every position.
        Files.write(d.root() + "/2024/05/AAA_0001.JPG")
        Files.write(d.root() + "/2024/05/AAA_0002.JPG")
        try c.sync()
        let after = try Self.selection(c)
        #expect(after.map(\.id) == before)
        #expect(after.map(\.path) == ["2024/05/IMG_0002.JPG", "2024/05/IMG_0003.JPG"])
        let positions = try c.photos().filter { $0["selected"] != nil }.compactMap { $0["position"] as? Int }
        #expect(positions == [4, 5])
    }

    @Test func leavingSelectModeAndChangingThePageEachClearTheSelection() throws {
        let d = try Self.daemon()
        let c = try d.client()
        _ = try c.result(["cmd": "mode", "mode": "select"])
        _ = try c.result(["cmd": "select", "all": true])
        #expect(try Self.selection(c).count == 5)
        let left = try c.result(["cmd": "mode", "mode": "view"])
        #expect(left["count"] as? Int == 0)
        #expect(try Self.selection(c).isEmpty)

        _ = try c.result(["cmd": "mode", "mode": "select"])
        _ = try c.result(["cmd": "select", "positions": "1-3"])
        let changed = try c.result(["cmd": "view", "root": "pics", "folder": "2024"])
        #expect(changed["mode"] as? String == "view")
        #expect(changed["removed"] as? Int == 3)
        #expect(try Self.selection(c).isEmpty)
    }

    /// Issue 11 item 27, article 001: the checkmarks stay while the search text
    /// changes. A filter or sort change of the same folder keeps the selection;
    /// photos the filter hides stay selected, are counted, and are trashed after
    /// the photos shown.
    @Test func aFilterOrSortChangeKeepsTheSelectionAndHiddenPhotosAreDeletedLast() throws {
        let d = try Self.daemon()
        #expect(try d.ctl(["view", "pics/2024/05"]).status == 0)
        #expect(try d.ctl(["select", "1-5"]).status == 0)
        let filtered = try d.ctl(["view", "pics/2024/05", "--glob", "IMG_000[24].JPG"])
        #expect(filtered.status == 0)
        #expect(filtered.stdout.contains("5 photos selected"), "\(filtered.stdout)")
        #expect(filtered.stdout.contains("3 of them hidden by the view"))
        #expect(!filtered.stdout.contains("left the selection"))
        let c = try d.client()
        #expect(try c.photos().map { $0["selected"] as? Int } == [2, 4])
        let selection = try c.result(["cmd": "selection"])
        #expect(selection["count"] as? Int == 5)
        #expect(selection["hidden"] as? Int == 3)
        let items = selection["items"] as? [[String: Any]] ?? []
        #expect(items.map { $0["hidden"] as? Bool == true } == [true, false, true, false, true])
        let listed = try d.ctl(["selection"])
        #expect(listed.stdout.contains("IMG_0001.JPG") && listed.stdout.contains("(hidden by the view)"))

        // Sorted differently too: still the same five, in the order chosen.
        let sorted = try c.result(["cmd": "view", "root": "pics", "folder": "2024/05", "filter": ["glob": "IMG_000[24].JPG"],
                                   "sort": "name", "order": "desc"])
        #expect(sorted["count"] as? Int == 5)
        #expect(try Self.selection(c).map(\.number) == [1, 2, 3, 4, 5])
        let plan = try c.prepare()
        let planned = PhotoOutcomes(plan).paths.map { String($0.dropFirst("2024/05/".count)) }
        // Shown (descending position: 4 is 1st, 2 is 2nd), then hidden (without the filter: 1, 3, 5).
        #expect(planned == ["IMG_0002.JPG", "IMG_0004.JPG", "IMG_0001.JPG", "IMG_0003.JPG", "IMG_0005.JPG"])
        #expect(PhotoOutcomes(plan).items.map { $0["position"] as? Int } == [2, 1, nil, nil, nil])
        // Sorting again changes no selection, so the plan stands, and is carried out as shown.
        _ = try c.result(["cmd": "view", "root": "pics", "folder": "2024/05", "sort": "size"])
        let done = try c.confirm(plan)
        #expect(done["trashed"] as? Int == 5)
        #expect(PhotoOutcomes(done).paths == PhotoOutcomes(plan).paths)
    }

    /// Item 27: another folder is another page (article 003): the session resets,
    /// and curatorctl says what left the selection.
    @Test func anotherFolderResetsTheSessionAndSaysSo() throws {
        let d = try Self.daemon()
        #expect(try d.ctl(["view", "pics/2024/05", "--glob", "IMG_000[12].JPG"]).status == 0)
        #expect(try d.ctl(["select", "1-2"]).status == 0)
        let moved = try d.ctl(["view", "pics/2024"])
        #expect(moved.stdout.contains("The view changed: 2 photos left the selection."), "\(moved.stdout)")
        #expect(try Self.selection(try d.client()).isEmpty)
    }

    @Test func aFileDeletedOnDiskLeavesTheSelectionAndSubscribersHearTheNewNumbering() throws {
        let d = try Self.daemon()
        let c = try d.client()
        let watcher = try d.client()
        _ = try c.result(["cmd": "mode", "mode": "select"])
        _ = try c.result(["cmd": "select", "positions": "1 2 3"])
        // Subscribed after those requests, whose changes it would hear too.
        _ = try watcher.result(["cmd": "subscribe"])
        Files.remove(d.root() + "/2024/05/IMG_0001.JPG")
        try c.sync()
        let sel = try Self.selection(c)
        #expect(sel.map(\.number) == [1, 2])
        #expect(sel.map(\.path) == ["2024/05/IMG_0002.JPG", "2024/05/IMG_0003.JPG"])
        var selectionEvent: [String: Any]?
        while let e = try watcher.nextEvent(timeout: 5) {
            if e["event"] as? String == "selection" { selectionEvent = e; break }
        }
        let items = try #require(selectionEvent?["items"] as? [[String: Any]])
        #expect(items.compactMap { $0["number"] as? Int } == [1, 2])
        #expect(items.compactMap { $0["path"] as? String } == ["2024/05/IMG_0002.JPG", "2024/05/IMG_0003.JPG"])
    }

    @Test func theCapRefusesARequestWholeAndAppliesNothing() throws {
        let d = try Self.daemon(count: 10) { d in "{ roots: [{ path: \"\(d.root())\" }], selection_cap: 4 }" }
        let c = try d.client()
        let mode = try c.result(["cmd": "mode", "mode": "select"])
        #expect(mode["cap"] as? Int == 4)
        _ = try c.result(["cmd": "select", "positions": "1 2 3"])
        #expect(try c.errorCode(["cmd": "select", "positions": "4 5"]) == "selection_full")
        #expect(try Self.selection(c).map(\.path) == ["2024/05/IMG_0001.JPG", "2024/05/IMG_0002.JPG", "2024/05/IMG_0003.JPG"])
        #expect(try c.errorCode(["cmd": "toggle", "positions": "6 7"]) == "selection_full")
        #expect(try Self.selection(c).count == 3)
        // A per-session cap overrides the default.
        let other = try c.result(["cmd": "mode", "mode": "select", "session": "wide", "cap": 8])
        #expect(other["cap"] as? Int == 8)
        _ = try c.result(["cmd": "select", "positions": "1-8", "session": "wide"])
        #expect(try Self.selection(c, session: "wide").count == 8)
    }

    @Test func protectedPhotosAreListedAsSuchAndRefused() throws {
        let d = Daemon()
        try FileManager.default.createDirectory(atPath: d.root() + "/Wedding", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: d.root() + "/Culls", withIntermediateDirectories: true)
        Files.write(d.root() + "/Wedding/best.jpg")
        Files.write(d.root() + "/Culls/blurry.jpg")
        let config = d.home.sub("c.json5")
        try "{ roots: [{ path: \"\(d.root())\", protected: [\"Wedding\"] }] }".write(toFile: config, atomically: true, encoding: .utf8)
        d.configPath = config
        try d.start()
        let c = try d.client()
        let listed = try c.photos()
        #expect(listed.first { $0["path"] as? String == "Wedding/best.jpg" }?["protected"] as? Bool == true)
        #expect(listed.first { $0["path"] as? String == "Culls/blurry.jpg" }?["protected"] == nil)
        _ = try c.result(["cmd": "mode", "mode": "select"])
        // Named one by one, a protected photo is refused, and the request with it.
        let wedding = try #require(listed.first { $0["path"] as? String == "Wedding/best.jpg" }?["id"] as? Int)
        for named in [["positions": "1 2"], ["ids": [wedding]]] as [[String: Any]] {
            let refused = try c.request(["cmd": "select"].merging(named) { a, _ in a })
            let error = try #require(refused["error"] as? [String: Any])
            #expect(error["code"] as? String == "protected")
            #expect(error["photos"] as? [Int] == [wedding])
            #expect(try Self.selection(c).isEmpty)
        }
        _ = try c.result(["cmd": "select", "folder": "Culls"])
        #expect(try Self.selection(c).map(\.path) == ["Culls/blurry.jpg"])
    }

    /// Issue 11 item 28: a paged listing's section header gives the photos of the
    /// folder on that page (`count`) and in the whole view (`total`).
    @Test func aPagedListingGivesEachSectionItsFoldersTotal() throws {
        let d = try Self.daemon(count: 7)
        try FileManager.default.createDirectory(atPath: d.root() + "/2024/06", withIntermediateDirectories: true)
        for i in 1...3 { Files.write(d.root() + "/2024/06/" + String(format: "B_%04d.JPG", i)) }
        let c = try d.client()
        try c.sync()
        let page = try c.result(["cmd": "list", "offset": 5, "limit": 3])
        let folders = page["folders"] as? [[String: Any]] ?? []
        #expect(folders.compactMap { $0["path"] as? String } == ["2024/05", "2024/06"])
        #expect(folders.compactMap { $0["count"] as? Int } == [2, 1])
        #expect(folders.compactMap { $0["total"] as? Int } == [7, 3])
        #expect(folders.compactMap { $0["first_position"] as? Int } == [6, 8])
        // Sorted by size, a folder's photos may come in several runs: each gives the folder's total.
        let bySize = try c.result(["cmd": "list", "sort": "size", "limit": 4])
        for section in bySize["folders"] as? [[String: Any]] ?? [] {
            #expect(section["total"] as? Int == (section["path"] as? String == "2024/05" ? 7 : 3))
        }
        let ls = try d.ctl(["ls", "--offset", "5", "--limit", "3"])
        #expect(ls.stdout.contains("pics/2024/05/  (2 of 7 photos)"), "\(ls.stdout)")
        #expect(ls.stdout.contains("pics/2024/06/  (1 of 3 photos)"))
        #expect(try d.ctl(["ls"]).stdout.contains("pics/2024/05/  (7 photos)"))
    }

    @Test func reorderIsRefusedUnderAFilterAndPersistsAcrossARestart() throws {
        let d = try Self.daemon()
        let c = try d.client()
        _ = try c.result(["cmd": "view", "sort": "custom", "filter": ["glob": "*.JPG"]])
        #expect(try c.errorCode(["cmd": "reorder", "position": 1, "to": 3]) == "filter_active")
        _ = try c.result(["cmd": "view", "sort": "custom"])
        let before = try c.photos().compactMap { $0["path"] as? String }
        _ = try c.result(["cmd": "reorder", "position": 1, "to": 3])
        var expected = before
        expected.insert(expected.removeFirst(), at: 2)
        #expect(try c.photos().compactMap { $0["path"] as? String } == expected)
        // New photos join the custom order at the end of their folder.
        Files.write(d.root() + "/2024/05/AAA.JPG")
        try c.sync()
        #expect(try c.photos().compactMap { $0["path"] as? String } == expected + ["2024/05/AAA.JPG"])
        d.stop()
        try d.start()
        #expect(try d.client().photos().compactMap { $0["path"] as? String } == expected + ["2024/05/AAA.JPG"])
    }

    @Test func aSelectionSurvivesADaemonRestart() throws {
        let d = try Self.daemon()
        let c = try d.client()
        _ = try c.result(["cmd": "mode", "mode": "select", "session": "cull"])
        _ = try c.result(["cmd": "select", "positions": "5 1 3", "session": "cull"])
        let before = try Self.selection(c, session: "cull")
        #expect(d.stop() == 0)
        try d.start()
        let after = try Self.selection(d.client(), session: "cull")
        #expect(after.map(\.id) == before.map(\.id))
        #expect(after.map(\.number) == [1, 2, 3])
        #expect(try d.client().result(["cmd": "status"])["sessions"] as? Int ?? 0 >= 1)
    }

    @Test func twoUsersCannotSeeOrTouchEachOthersSessions() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            print("skipped: needs root and setpriv to run a client as another uid")
            return
        }
        let d = try Self.daemon()
        d.letOtherUsersConnect()
        let c = try d.client()
        _ = try c.result(["cmd": "mode", "mode": "select"])
        _ = try c.result(["cmd": "select", "positions": "1 2"])

        let other = try d.ctl(["--json", "selection"], asUID: 4242)
        #expect(other.status == 0)
        #expect(other.stdout.contains("\"count\":0"))
        let selectAsOther = try d.ctl(["select", "3"], asUID: 4242)
        #expect(selectAsOther.status == 0)
        // uid 0's selection is untouched by the other user's request...
        #expect(try Self.selection(c).map(\.path) == ["2024/05/IMG_0001.JPG", "2024/05/IMG_0002.JPG"])
        // ...and the other user's own default session holds only what it selected.
        let theirs = try d.ctl(["--json", "selection"], asUID: 4242)
        #expect(theirs.stdout.contains("IMG_0003.JPG"))
        #expect(!theirs.stdout.contains("IMG_0001.JPG"))
        #expect(try d.client().result(["cmd": "status"])["sessions"] as? Int == 2)
    }

    @Test func curatorctlShowsNumberedBadgesAndSentences() throws {
        let d = try Self.daemon()
        let select = try d.ctl(["select", "3", "1"])
        #expect(select.status == 0)
        #expect(select.stdout.contains("Entered select mode."))
        let ls = try d.ctl(["ls"])
        #expect(ls.stdout.contains("[1]"))
        #expect(ls.stdout.contains("[2]"))
        let line3 = ls.stdout.split(separator: "\n").first { $0.contains("IMG_0003.JPG") } ?? ""
        #expect(line3.contains("[1]"))
        let bad = try d.ctl(["select", "99"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("no photo at position 99"))
        #expect(!bad.stderr.contains("no_such_position"))
    }
}

/// curatorctl is a good Unix citizen in a pipeline.
@Suite(.serialized)
struct CLIPipelineTests {
    @Test func aReaderThatStopsEarlyEndsCuratorctlQuietly() throws {
        let d = Daemon()
        let folder = d.root() + "/many"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Enough lines to fill a pipe (64 KiB) many times over.
        for i in 0..<3000 { Files.write(folder + String(format: "/IMG_%05d.JPG", i)) }
        try d.start()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-c", "set -o pipefail; '\(Daemon.curatorctl)' --socket '\(d.socket)' ls | head -n 1 >/dev/null"]
        let err = Pipe()
        p.standardError = err
        try p.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(stderr)")
        #expect(!stderr.contains("Fatal error"))
    }
}
