// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Confirmed batch deletes against the real daemon (issue 4 points 1-3): the plan,
/// its order as the journal records it, and photos that changed since the plan.
@Suite(.serialized)
struct DeleteTests {
    /// Article 000: select three, deselect one, confirm. Exactly the two still
    /// selected go to the trash, highest view position first, and the deselected
    /// photo is not touched.
    @Test func selectThreeDeselectOneTrashesExactlyTwoInDescendingViewOrder() throws {
        let d = Daemon()
        let photos = try PhotoSet.make(in: d.root(), count: 6)
        try d.start()
        let c = try d.client()
        let progress = try d.client()
        _ = try progress.result(["cmd": "subscribe"])
        let ids = try c.idsByPath()
        let listed = try c.photos()
        #expect(listed.compactMap { $0["path"] as? String } == photos.relativePaths, "the view is sorted by name")

        try c.select("2 5 4")
        _ = try c.result(["cmd": "deselect", "positions": "5"])
        let plan = try c.prepare()
        let planned = PhotoOutcomes(plan)
        #expect(plan["count"] as? Int == 2)
        #expect(planned.paths == ["2024/05/IMG_0004.JPG", "2024/05/IMG_0002.JPG"])
        #expect(planned.items.compactMap { $0["position"] as? Int } == [4, 2])
        #expect(planned.items.compactMap { $0["step"] as? Int } == [1, 2])
        let sizes = [3, 1].map { (listed[$0]["size"] as? Int) ?? -1 }
        #expect(plan["bytes"] as? Int == sizes.reduce(0, +))

        let result = try c.confirm(plan)
        let batch = try #require(result["batch"] as? Int)
        #expect(result["trashed"] as? Int == 2)
        #expect(result["skipped"] as? Int == 0)
        #expect(result["state"] as? String == "done")
        #expect(PhotoOutcomes(result).outcomes == ["trashed", "trashed"])
        // The log says where the batch's time went.
        let logged = d.logText.split(separator: "\n").filter { $0.contains("batch \(batch) done: 2 trashed, 0 skipped in ") }
        #expect(logged.count == 1 && logged[0].contains("(journaled at ") && logged[0].contains(", first move at ")
                    && logged[0].contains("; 1 chunk, "), "\(logged)")

        // The journal on disk, read by sqlite3: two photos, highest position first.
        let journal = try JournalReader.items(stateDirectory: d.stateDir, batch: batch)
        #expect(journal.map(\.relativePath) == ["2024/05/IMG_0004.JPG", "2024/05/IMG_0002.JPG"])
        #expect(journal.map(\.step) == [1, 2])
        #expect(journal.map(\.photo) == [ids["2024/05/IMG_0004.JPG"], ids["2024/05/IMG_0002.JPG"]].compactMap { $0 })
        #expect(journal.map(\.state) == ["trashed", "trashed"])

        // On disk: exactly those two in the trash; the deselected one untouched.
        let census = try photos.census(trash: d.trashDirectory)
        #expect(census.problems.isEmpty, "\(census.problems)")
        #expect(Set(census.inTrash.keys) == ["2024/05/IMG_0004.JPG", "2024/05/IMG_0002.JPG"])
        let deselected = "2024/05/IMG_0005.JPG"
        #expect(census.atPath.contains(deselected))
        #expect(Files.inode(photos.absolute(deselected)) == photos.inodes[deselected])

        // The session leaves select mode with an empty selection; the photos leave the index.
        let session = try c.result(["cmd": "selection"])
        #expect(session["mode"] as? String == "view")
        #expect(session["count"] as? Int == 0)
        #expect(try c.photos().compactMap { $0["path"] as? String }
                == photos.relativePaths.filter { !["2024/05/IMG_0004.JPG", "2024/05/IMG_0002.JPG"].contains($0) })

        // Subscribers heard the progress, one event per photo.
        var done: [Int] = []
        while let event = try progress.nextEvent(timeout: 5) {
            guard event["event"] as? String == "batch" else { continue }
            #expect(event["total"] as? Int == 2)
            if let n = event["done"] as? Int, event["photo_id"] != nil { done.append(n) }
            if event["batch"] as? Int == batch { break }
        }
        #expect(done == [1, 2])
    }

    /// A photo modified in place, replaced by another file renamed over it, swapped
    /// for a symlink, or reached through a directory swapped for a symlink, between
    /// prepare and confirm: skipped as `changed`, and the disk left exactly as the
    /// other party made it. Only the unchanged photo of the plan is trashed.
    @Test func photosChangedBetweenPrepareAndConfirmAreSkippedAndUntouched() throws {
        let d = Daemon()
        let photos = try PhotoSet.make(in: d.root(), count: 5)
        let outside = d.home.mkdir("outside")
        Files.write(outside + "/IMG_0003.JPG", "a file outside every root")
        Files.write(outside + "/IMG_DIR.JPG", "another file outside every root")
        try FileManager.default.createDirectory(atPath: d.root() + "/dir", withIntermediateDirectories: true)
        Files.write(d.root() + "/dir/IMG_DIR.JPG", "a photo whose folder will be swapped")
        try d.start()
        let c = try d.client()
        let ids = try c.idsByPath()
        let (modified, replaced, symlinked, control, bystander) =
            ("2024/05/IMG_0001.JPG", "2024/05/IMG_0002.JPG", "2024/05/IMG_0003.JPG", "2024/05/IMG_0004.JPG", "2024/05/IMG_0005.JPG")
        let inFolder = "dir/IMG_DIR.JPG"
        let vanished = bystander
        let planIDs = [modified, replaced, symlinked, control, inFolder, vanished].compactMap { ids[$0] }
        #expect(planIDs.count == 6)
        let plan = try c.prepare(["ids": planIDs])
        #expect(plan["count"] as? Int == 6)

        // Modified in place: same inode, new size and mtime.
        let handle = try #require(FileHandle(forWritingAtPath: photos.absolute(modified)))
        handle.seekToEndOfFile()
        handle.write(Data("edited".utf8))
        try handle.close()
        let modifiedSum = try Checksum.sha256(photos.absolute(modified))
        // Replaced: another file renamed over it.
        Files.write(d.root() + "/2024/05/.incoming", "the replacement")
        Files.rename(d.root() + "/2024/05/.incoming", photos.absolute(replaced))
        let replacementInode = Files.inode(photos.absolute(replaced))
        // Swapped for a symlink to a file outside the root, atomically.
        #expect(symlink(outside + "/IMG_0003.JPG", d.root() + "/2024/05/.link") == 0)
        Files.rename(d.root() + "/2024/05/.link", photos.absolute(symlinked))
        // Its folder swapped for a symlink to a folder outside the root holding a file of the same name.
        Files.rename(d.root() + "/dir", d.root() + "/dir-moved")
        #expect(symlink(outside, d.root() + "/dir") == 0)
        let outsideSums = try Checksum.sha256([outside + "/IMG_0003.JPG", outside + "/IMG_DIR.JPG"])
        // Gone: deleted by someone else.
        Files.remove(photos.absolute(vanished))
        try c.sync()

        let result = try c.confirm(plan)
        let outcomes = PhotoOutcomes(result).byPath
        #expect(outcomes[modified] == "changed")
        #expect(outcomes[replaced] == "changed")
        #expect(outcomes[symlinked] == "changed")
        #expect(outcomes[inFolder] == "changed")
        #expect(outcomes[vanished] == "vanished")
        #expect(outcomes[control] == "trashed")
        #expect(result["trashed"] as? Int == 1)
        #expect(result["skipped"] as? Int == 5)

        // Everything changed is exactly as the other party left it.
        #expect(try Checksum.sha256(photos.absolute(modified)) == modifiedSum)
        #expect(Files.inode(photos.absolute(modified)) == photos.inodes[modified])
        #expect(Files.read(photos.absolute(replaced)) == "the replacement")
        #expect(Files.inode(photos.absolute(replaced)) == replacementInode)
        var st = stat()
        #expect(lstat(photos.absolute(symlinked), &st) == 0 && st.st_mode & S_IFMT == S_IFLNK)
        #expect(lstat(d.root() + "/dir", &st) == 0 && st.st_mode & S_IFMT == S_IFLNK)
        #expect(try Checksum.sha256([outside + "/IMG_0003.JPG", outside + "/IMG_DIR.JPG"]) == outsideSums)
        #expect(Files.read(d.root() + "/dir-moved/IMG_DIR.JPG") == "a photo whose folder will be swapped")

        // The trash holds the control photo and nothing else.
        let census = try photos.census(trash: d.trashDirectory, only: [control])
        #expect(census.problems.isEmpty, "\(census.problems)")
        #expect(Array(census.inTrash.keys) == [control])
        let trash = TrashSnapshot(d.trashDirectory)
        #expect(trash.entries.map(\.path) == [photos.absolute(control)])
        #expect(trash.orphans.isEmpty)
    }

    /// The same through a session's selection: an edit in place does not change the
    /// selection (the token stays valid), and the photo is skipped at confirm time.
    @Test func aSelectedPhotoEditedAfterThePlanIsSkipped() throws {
        let d = Daemon()
        let photos = try PhotoSet.make(in: d.root(), count: 3)
        try d.start()
        let c = try d.client()
        try c.select("1 3")
        let plan = try c.prepare()
        Files.write(photos.absolute("2024/05/IMG_0003.JPG"), "rewritten in place")
        try c.sync()
        let result = try c.confirm(plan)
        #expect(PhotoOutcomes(result).byPath == ["2024/05/IMG_0003.JPG": "changed", "2024/05/IMG_0001.JPG": "trashed"])
        #expect(Files.read(photos.absolute("2024/05/IMG_0003.JPG")) == "rewritten in place")
        #expect(Files.inode(photos.absolute("2024/05/IMG_0003.JPG")) == photos.inodes["2024/05/IMG_0003.JPG"])
        let census = try photos.census(trash: d.trashDirectory, only: ["2024/05/IMG_0001.JPG", "2024/05/IMG_0002.JPG"])
        #expect(census.problems.isEmpty, "\(census.problems)")
        #expect(Array(census.inTrash.keys) == ["2024/05/IMG_0001.JPG"])
    }

    /// The trashed photos leave every selection, not only the one that planned them:
    /// another session's numbers shift down.
    @Test func trashedPhotosLeaveEverySessionsSelection() throws {
        let d = Daemon()
        _ = try PhotoSet.make(in: d.root(), count: 4)
        try d.start()
        let c = try d.client()
        try c.select("4 1 2", session: "other")
        try c.select("1")
        #expect(try c.deleteSelection()["trashed"] as? Int == 1)
        let other = try c.result(["cmd": "selection", "session": "other"])
        let items = other["items"] as? [[String: Any]] ?? []
        #expect(items.compactMap { $0["path"] as? String } == ["2024/05/IMG_0004.JPG", "2024/05/IMG_0002.JPG"])
        #expect(items.compactMap { $0["number"] as? Int } == [1, 2])
        #expect(other["mode"] as? String == "select", "only the planning session leaves select mode")
    }

    /// A file name that is not UTF-8 is planned, trashed (Path= percent-encoded byte
    /// by byte) and put back under exactly its bytes.
    @Test func aNameThatIsNotUTF8IsTrashedAndPutBackByteForByte() throws {
        let d = Daemon()
        let name: [UInt8] = Array("bad-".utf8) + [0xFF, 0xFE] + Array(" x.JPG".utf8)
        let path = Array((d.root() + "/").utf8) + name
        Files.write(bytes: path, "not UTF-8")
        try d.start()
        let c = try d.client()
        let listed = try #require(try c.photos().first)
        #expect(listed["path_raw"] as? String == Data(name).base64EncodedString())
        let id = try #require(listed["id"] as? Int)
        let result = try c.deleteSelection(["ids": [id]])
        #expect(result["trashed"] as? Int == 1)
        #expect(Files.status(bytes: path) == nil)
        let trash = TrashSnapshot(d.trashDirectory)
        #expect(trash.entries.count == 1)
        let info = try Tool.run("/bin/sh", ["-c", "cat \"$0\"/info/*.trashinfo", d.trashDirectory])
        #expect(info.stdout.contains("Path=" + d.root() + "/bad-%FF%FE%20x.JPG"), "\(info.stdout)")

        #expect(try c.undo()["restored"] as? Int == 1)
        #expect(Files.status(bytes: path) != nil)
        #expect(Files.read(bytes: path) == "not UTF-8")
        try c.sync()
        #expect(try c.photos().first?["id"] as? Int == id)
    }

    /// A client that hangs up right after confirming (a Ctrl-C) does not leave the
    /// batch half-done: it is carried out to the end, and recorded as done.
    @Test func aClientHangingUpDoesNotStopTheBatchHalfway() throws {
        let d = Daemon()
        let photos = try PhotoSet.make(in: d.root(), count: 120)
        try d.start()
        do {
            let c = try d.client()
            try c.select("1-120")
            let plan = try c.prepare()
            try c.sendLine(#"{"id":1,"cmd":"delete.confirm","token":"\#(plan["token"] as? String ?? "")"}"#)
        }  // the connection closes here
        let watcher = try d.client()
        try eventually(timeout: 30, "the batch to finish") { try watcher.history().first?["state"] as? String == "done" }
        let census = try photos.census(trash: d.trashDirectory)
        #expect(census.problems.isEmpty, "\(census.problems)")
        #expect(census.inTrash.count == 120)
        #expect(try watcher.result(["cmd": "selection"])["mode"] as? String == "view")
    }
}
