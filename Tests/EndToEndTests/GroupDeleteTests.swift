// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Deleting groups (issue 15) through the real daemon: the plan lists every file of
/// each selected group, the batch trashes them all (each its own `.trashinfo`, seen
/// by trash-list), `only` takes a part, a group with a changed file is left whole,
/// and undo puts every file back under the group's id.
@Suite(.serialized)
struct GroupDeleteTests {
    /// A root with groups: a RAW+JPEG pair with the shot's `.xmp` and the RAW's own,
    /// and a JPEG alone.
    static func daemon(groups: Bool = true) throws -> (Daemon, String) {
        let d = Daemon()
        d.configPath = d.home.sub("curatord.json5")
        Files.write(d.home.sub("curatord.json5"),
                    #"{ roots: [{ name: "pics", path: "\#(d.root())", groups: \#(groups) }] }"# + "\n")
        let folder = d.root() + "/2024"
        Files.mkdir(folder)
        Files.write(folder + "/IMG_0001.JPG", "jpeg")              // 4 bytes
        Files.write(folder + "/IMG_0001.CR2", "raw raw raw")       // 11
        Files.write(folder + "/IMG_0001.xmp", "shot edits")        // 10
        Files.write(folder + "/IMG_0001.CR2.xmp", "raw edits")     // 9
        Files.write(folder + "/IMG_0002.JPG", "a lone jpeg")       // 11
        try d.start()
        return (d, folder)
    }

    static let group = ["2024/IMG_0001.JPG", "2024/IMG_0001.CR2", "2024/IMG_0001.CR2.xmp", "2024/IMG_0001.xmp"]

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    @Test func thePlanListsEveryFileAndTheBatchTrashesAndUndoRestoresThemAll() throws {
        let (d, folder) = try Self.daemon()
        let c = try d.client()
        let groupID = try #require(try c.idsByPath()["2024/IMG_0001.JPG"])
        try c.select("1")
        #expect(try c.result(["cmd": "selection"])["bytes"] as? Int == 34, "a group's bytes are all its files'")
        let plan = try c.prepare()
        #expect(plan["count"] as? Int == 1 && plan["files"] as? Int == 4, "\(plan)")
        #expect(plan["bytes"] as? Int == 34)
        let item = try #require((plan["items"] as? [[String: Any]])?.first)
        #expect(item["id"] as? Int == groupID && item["size"] as? Int == 34 && item["path"] as? String == "2024/IMG_0001.JPG")
        let files = try #require(item["files"] as? [[String: Any]])
        #expect(files.map { $0["path"] as? String } == Self.group, "\(files)")
        #expect(files.map { $0["kind"] as? String } == ["rendered", "raw", "sidecar", "sidecar"])

        let done = try c.confirm(plan)
        #expect(done["trashed"] as? Int == 4 && done["skipped"] as? Int == 0 && done["bytes"] as? Int == 34, "\(done)")
        #expect(PhotoOutcomes(done).items.allSatisfy { $0["group"] as? Int == groupID }, "\(done)")
        for path in Self.group { #expect(!Self.exists(d.root() + "/" + path), "\(path) is still in place") }
        #expect(Self.exists(folder + "/IMG_0002.JPG"))
        // Each file its own .trashinfo, as the user's trash tools see them.
        let infos = (try? FileManager.default.contentsOfDirectory(atPath: d.trashDirectory + "/info")) ?? []
        #expect(Set(infos) == Set(Self.group.map { ($0 as NSString).lastPathComponent + ".trashinfo" }), "\(infos)")
        if Tool.exists("/usr/bin/trash-list") {
            let listing = try Tool.run("/usr/bin/trash-list", [], environment: d.environment)
            for path in Self.group { #expect(listing.stdout.contains(d.root() + "/" + path), "trash-list: \(listing.stdout)") }
        }
        try c.sync()
        #expect(try c.photos().map { $0["path"] as? String } == ["2024/IMG_0002.JPG"])

        let undone = try c.undo()
        #expect(undone["restored"] as? Int == 4, "\(undone)")
        for path in Self.group { #expect(Self.exists(d.root() + "/" + path), "\(path) is not back") }
        try c.sync()
        let back = try c.photos()
        #expect(back.map { $0["path"] as? String } == ["2024/IMG_0001.JPG", "2024/IMG_0002.JPG"])
        #expect(back.first?["id"] as? Int == groupID, "the group is back under its id")
        #expect((back.first?["members"] as? [[String: Any]])?.count == 3, "its other three files")
    }

    /// What docs/PROTOCOL.md says of a confirm's results (issue 56 point 3): one
    /// result a file, numbered by file across the batch; a group's files in the
    /// reverse of its plan item's `files` (sidecars first, the shown file last), each
    /// under its own id (the shown file's is the group's; the others' no listing
    /// shows), each with `group`. `history` and `delete.prepare` count `photos` (a
    /// group once) and `files` apart; history's `count` is files.
    @Test func theConfirmAnswersPerFileSidecarsFirstAndHistoryCountsPhotosAndFilesApart() throws {
        let (d, _) = try Self.daemon()
        let c = try d.client()
        let listed = try c.photos()
        let groupID = try #require(listed.first { $0["path"] as? String == "2024/IMG_0001.JPG" }?["id"] as? Int)
        let loneID = try #require(listed.first { $0["path"] as? String == "2024/IMG_0002.JPG" }?["id"] as? Int)
        try c.select("1 2")
        let plan = try c.prepare()
        #expect(plan["count"] as? Int == 2 && plan["photos"] as? Int == 2 && plan["files"] as? Int == 5, "\(plan)")
        let planned = try #require(plan["items"] as? [[String: Any]])
        #expect(planned.map { $0["step"] as? Int } == [1, 2] && planned.map { $0["id"] as? Int } == [loneID, groupID])
        let groupFiles = (planned[1]["files"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(groupFiles == Self.group)

        let done = try c.confirm(plan)
        let items = PhotoOutcomes(done).items
        #expect(items.map { $0["step"] as? Int } == [1, 2, 3, 4, 5], "a step per file: \(items)")
        #expect(PhotoOutcomes(done).paths == ["2024/IMG_0002.JPG"] + groupFiles.reversed(),
                "the plan's photos in order, a group's files sidecars first: \(items)")
        #expect(items.map { $0["group"] as? Int } == [nil, groupID, groupID, groupID, groupID])
        let fileIDs = items.dropFirst().compactMap { $0["id"] as? Int }
        #expect(fileIDs.count == 4 && fileIDs.last == groupID, "the shown file answers under the group's id: \(items)")
        let everyListedID = Set(listed.compactMap { $0["id"] as? Int })
        #expect(Set(fileIDs.dropLast()).isDisjoint(with: everyListedID), "the other files' ids are none a listing showed")
        #expect(done["trashed"] as? Int == 5, "a confirm's counts are files")

        let batch = try #require(try c.history().first)
        #expect(batch["count"] as? Int == 5 && batch["files"] as? Int == 5 && batch["photos"] as? Int == 2, "\(batch)")
        #expect(batch["trashed"] as? Int == 5)
    }

    @Test func onlyRawTakesTheRawAndItsSidecarAndLeavesTheShotsOwn() throws {
        let (d, folder) = try Self.daemon()
        let c = try d.client()
        let groupID = try #require(try c.idsByPath()["2024/IMG_0001.JPG"])
        try c.select("1-2")
        let plan = try c.prepare(["only": "raw"])
        // The lone JPEG has no RAW: it is left out.
        #expect(plan["count"] as? Int == 1 && plan["files"] as? Int == 2 && plan["bytes"] as? Int == 20, "\(plan)")
        let files = try #require((plan["items"] as? [[String: Any]])?.first?["files"] as? [[String: Any]])
        #expect(files.map { $0["path"] as? String } == ["2024/IMG_0001.CR2", "2024/IMG_0001.CR2.xmp"])
        let done = try c.confirm(plan)
        #expect(done["trashed"] as? Int == 2, "\(done)")
        #expect(!Self.exists(folder + "/IMG_0001.CR2") && !Self.exists(folder + "/IMG_0001.CR2.xmp"))
        #expect(Self.exists(folder + "/IMG_0001.JPG") && Self.exists(folder + "/IMG_0001.xmp"), "the JPEG and the shot's sidecar stay")
        try c.sync()
        let left = try #require(try c.photos().first)
        #expect(left["id"] as? Int == groupID)
        #expect(left["kind"] as? String == "rendered")
        #expect((left["members"] as? [[String: Any]])?.map { $0["name"] as? String } == ["IMG_0001.xmp"])

        // Then the rendered part: the last photo of the group goes, and the shot's sidecar with it.
        try c.select("1")
        let rest = try c.prepare(["only": "rendered"])
        let restFiles = try #require((rest["items"] as? [[String: Any]])?.first?["files"] as? [[String: Any]])
        #expect(restFiles.map { $0["path"] as? String } == ["2024/IMG_0001.JPG", "2024/IMG_0001.xmp"])
        #expect(try c.confirm(rest)["trashed"] as? Int == 2)

        let bad = try c.request(["cmd": "delete.prepare", "only": "sidecar"])
        #expect((bad["error"] as? [String: Any])?["code"] as? String == "invalid_argument", "\(bad)")
        #expect((bad["error"] as? [String: Any])?["argument"] as? String == "only")
    }

    @Test func aGroupWithAFileChangedSinceThePlanIsLeftWhole() throws {
        let (d, folder) = try Self.daemon()
        let c = try d.client()
        try c.select("1-2")
        let plan = try c.prepare()
        Files.write(folder + "/IMG_0001.CR2.xmp", "edited again after the plan")
        let done = try c.confirm(plan)
        let outcomes = PhotoOutcomes(done)
        #expect(done["trashed"] as? Int == 1 && done["skipped"] as? Int == 4, "\(done)")
        #expect(outcomes.byPath["2024/IMG_0002.JPG"] == "trashed")
        for path in Self.group {
            #expect(outcomes.byPath[path] == "changed", "\(path): \(outcomes.byPath)")
            #expect(Self.exists(d.root() + "/" + path), "\(path) moved although its group was left")
        }
        #expect((outcomes.item("2024/IMG_0001.JPG")?["detail"] as? String)?.contains("IMG_0001.CR2.xmp") == true, "\(done)")
    }

    @Test func curatorctlRmShowsTheFilesAndTheirBytes() throws {
        let (d, folder) = try Self.daemon()
        #expect(try d.ctl(["select", "1"]).status == 0)
        let rm = try d.ctl(["rm", "--yes", "--only", "raw"])
        #expect(rm.status == 0, "\(rm.stderr)")
        #expect(rm.stdout.contains("Move 1 photo (2 files), 20 B, to the trash?"), "\(rm.stdout)")
        #expect(rm.stdout.contains("raw 2024/IMG_0001.CR2  11 B"), "\(rm.stdout)")
        #expect(rm.stdout.contains("sidecar 2024/IMG_0001.CR2.xmp  9 B"), "\(rm.stdout)")
        #expect(rm.stdout.contains("2 files moved to the trash"), "\(rm.stdout)")
        #expect(Self.exists(folder + "/IMG_0001.JPG") && !Self.exists(folder + "/IMG_0001.CR2"))
    }

    /// Sizes say what they are (issue 48, 11): `ls` gives each file its own size and
    /// a group's sum on a line of its own (it printed the group's 34 B beside the
    /// 4-byte JPEG); `selection` gives a group's whole size with its files, so that
    /// the items add up to the total.
    @Test func sizesSayWhatTheyAre() throws {
        let (d, _) = try Self.daemon()
        let ls = try d.ctl(["ls"])
        let lines = ls.stdout.split(separator: "\n").map(String.init)
        let shown = lines.first { $0.contains("IMG_0001.JPG") } ?? ""
        #expect(shown.contains(" 4 B") && !shown.contains("34 B"), "\(ls.stdout)")
        #expect(lines.contains { $0.contains("= the group's 4 files") && $0.contains("34 B") }, "\(ls.stdout)")
        #expect(try d.ctl(["select", "1", "2"]).status == 0)
        let selection = try d.ctl(["selection"])
        #expect(selection.stdout.contains("1. pics/2024/IMG_0001.JPG  34 B (4 files)"), "\(selection.stdout)")
        #expect(selection.stdout.contains("2. pics/2024/IMG_0002.JPG  11 B"), "\(selection.stdout)")
        #expect(selection.stdout.contains("2 photos, 45 B"), "34 B + 11 B: \(selection.stdout)")
    }

    /// After a batch of a group (four files) and a photo alone, `history`, `trash
    /// list` and `undo` count photos and files apart, as the plan did (issue 48, 10:
    /// they said "5 photos").
    @Test func historyTrashListAndUndoCountPhotosAndFilesApart() throws {
        let (d, _) = try Self.daemon()
        #expect(try d.ctl(["select", "1", "2"]).status == 0)
        let rm = try d.ctl(["rm", "--yes"])
        #expect(rm.status == 0 && rm.stdout.contains("Move 2 photos (5 files), 45 B, to the trash?"), "\(rm.stdout)\(rm.stderr)")
        let history = try d.ctl(["history"])
        #expect(history.stdout.contains("2/2 photos trashed (5/5 files), 0 restored, 45 B"), "\(history.stdout)")
        let list = try d.ctl(["trash", "list"])
        #expect(list.stdout.contains("2 photos (5 files), 45 B."), "\(list.stdout)")
        let json = try d.client().result(["cmd": "trash.list"])
        let groups = (json["photos"] as? [[String: Any]] ?? []).compactMap { $0["group"] as? Int }
        #expect(groups.count == 4 && Set(groups).count == 1, "each file of the group names it: \(json)")
        let undo = try d.ctl(["undo"])
        #expect(undo.status == 0 && undo.stdout.contains("Batch 1: 2 photos (5 files) put back."), "\(undo.stdout)\(undo.stderr)")
        let after = try d.ctl(["history"])
        #expect(after.stdout.contains("2/2 photos trashed (5/5 files), 2 (5 files) restored"), "\(after.stdout)")
    }

    /// An orphaned sidecar is no photo: `rm` says what it is, the plan marks it, and
    /// the photos' own sidecars stay.
    @Test func curatorctlRmSaysAnOrphanedSidecarIsOne() throws {
        let (d, folder) = try Self.daemon()
        Files.write(folder + "/IMG_0009.xmp", "left behind")  // 11 bytes, its photo gone
        let c = try d.client()
        try c.sync()
        let follower = try d.client()
        _ = try follower.result(["cmd": "subscribe", "sessions": ["default"]])
        #expect(try d.ctl(["view", "--orphans"]).status == 0)
        let select = try d.ctl(["select", "1"])
        #expect(select.stdout.contains("1 orphaned sidecar selected (11 B)"), "\(select.stdout)")
        let selection = try c.result(["cmd": "selection"])
        #expect(selection["count"] as? Int == 1 && selection["orphans"] as? Int == 1, "\(selection)")
        let listed = try d.ctl(["selection"])
        #expect(listed.stdout.contains("1 orphaned sidecar, 11 B"), "\(listed.stdout)")
        // A follower of the session hears it too.
        let heard = SessionEventTests.selectionEvents(try SessionEventTests.drain(follower), session: "default")
        #expect(heard.last?["count"] as? Int == 1 && heard.last?["orphans"] as? Int == 1, "\(heard)")
        let plan = try c.prepare()
        let item = try #require((plan["items"] as? [[String: Any]])?.first)
        #expect(item["orphan"] as? Bool == true && item["path"] as? String == "2024/IMG_0009.xmp", "\(plan)")
        let rm = try d.ctl(["rm", "--yes"])
        #expect(rm.status == 0, "\(rm.stderr)")
        #expect(rm.stdout.contains("Move 1 orphaned sidecar, 11 B, to the trash?"), "\(rm.stdout)")
        #expect(rm.stdout.contains("1 file moved to the trash"), "\(rm.stdout)")
        #expect(!Self.exists(folder + "/IMG_0009.xmp") && Self.exists(folder + "/IMG_0001.xmp"))
        // A photo's plan item says nothing of orphans.
        #expect(try d.ctl(["view"]).status == 0)
        let photo = try d.ctl(["select", "1"])
        #expect(photo.stdout.contains("1 photo selected") && !photo.stdout.contains("orphan"), "\(photo.stdout)")
        let photoPlan = try c.prepare()
        #expect((photoPlan["items"] as? [[String: Any]])?.first?["orphan"] == nil, "\(photoPlan)")
    }

    @Test func aSelectedGroupWhoseShownFileAnotherProgramTrashedStaysSelected() throws {
        let (d, folder) = try Self.daemon()
        let c = try d.client()
        let groupID = try #require(try c.idsByPath()["2024/IMG_0001.JPG"])
        try c.select("1")
        try FileManager.default.removeItem(atPath: folder + "/IMG_0001.JPG")
        try c.sync()
        let selection = try c.result(["cmd": "selection"])
        #expect(selection["count"] as? Int == 1, "\(selection)")
        #expect((selection["items"] as? [[String: Any]])?.first?["id"] as? Int == groupID, "\(selection)")
        // Its delete takes what is left of it.
        let plan = try c.prepare()
        let files = try #require((plan["items"] as? [[String: Any]])?.first?["files"] as? [[String: Any]])
        #expect(files.map { $0["path"] as? String } == ["2024/IMG_0001.CR2", "2024/IMG_0001.CR2.xmp", "2024/IMG_0001.xmp"])
    }
}

extension GroupDeleteTests {
    /// A configuration that says nothing of groups groups (issue 15: on by default),
    /// and a root with `groups: false` lists every photo file alone, its sidecars not.
    @Test func groupsAreOnUnlessARootTurnsThemOff() throws {
        let d = Daemon()
        Files.mkdir(d.root() + "/2024")
        for name in ["IMG_0001.JPG", "IMG_0001.CR2", "IMG_0001.xmp"] { Files.write(d.root() + "/2024/" + name, name) }
        try d.start()
        let photos = try d.client().photos()
        #expect(photos.map { $0["path"] as? String } == ["2024/IMG_0001.JPG"], "\(photos)")
        #expect((photos.first?["members"] as? [[String: Any]])?.map { $0["name"] as? String } == ["IMG_0001.CR2", "IMG_0001.xmp"])
        _ = d.stop()

        let (off, _) = try Self.daemon(groups: false)
        let alone = try off.client().photos()
        #expect(alone.map { $0["path"] as? String } == ["2024/IMG_0001.CR2", "2024/IMG_0001.JPG", "2024/IMG_0002.JPG"], "\(alone)")
        #expect(alone.allSatisfy { $0["members"] == nil })
    }
}
