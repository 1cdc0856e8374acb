// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Undo (issue 4 point 6): after a normal batch, after a restart, after a crash,
/// every photo comes back at its original path with identical content (SHA-256)
/// and its former id; and undo never overwrites a file standing at a path.
@Suite(.serialized)
struct DeleteUndoTests {
    /// Checks that every photo is back with its content, its former id, and the
    /// trash holds nothing of ours.
    static func expectAllBack(_ d: Daemon, _ photos: PhotoSet, ids: [String: Int], _ c: Client,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try photos.allBack().isEmpty, sourceLocation: sourceLocation)
        let census = try photos.census(trash: d.trashDirectory)
        #expect(census.problems.isEmpty, "\(census.problems)", sourceLocation: sourceLocation)
        #expect(census.inTrash.isEmpty, sourceLocation: sourceLocation)
        try c.sync()
        #expect(try c.idsByPath() == ids, "every photo listed under its former id", sourceLocation: sourceLocation)
    }

    @Test func undoAfterABatchPutsEveryPhotoBackInAscendingOrder() throws {
        let d = Daemon()
        let photos = try PhotoSet.make(in: d.root(), count: 6, folders: ["2024/05", "2024/06"])
        try d.start()
        let c = try d.client()
        let ids = try c.idsByPath()
        try c.select("5 1 3 6")
        let batch = try #require(try c.deleteSelection()["batch"] as? Int)
        #expect(try photos.census(trash: d.trashDirectory).inTrash.count == 4)

        let undo = try c.undo()
        #expect(undo["batch"] as? Int == batch)
        #expect(undo["restored"] as? Int == 4)
        #expect(undo["state"] as? String == "undone")
        // Ascending view order: the reverse of the trashing order.
        let order = PhotoOutcomes(undo).paths
        let listed = try c.photos().compactMap { $0["path"] as? String }
        #expect(order == [0, 2, 4, 5].map { listed[$0] })
        #expect(PhotoOutcomes(undo).outcomes == Array(repeating: "restored", count: 4))
        try Self.expectAllBack(d, photos, ids: ids, c)
        let history = try c.history()
        #expect(history.first?["state"] as? String == "undone")
        #expect(history.first?["restored"] as? Int == 4)
        // Nothing more to undo.
        #expect(try c.errorCode(["cmd": "undo", "batch": batch]) == "not_undoable")
    }

    /// A delete and its undo are told alike: one `batch` event per photo, each with
    /// the total, then one with the batch id and its final state (40 photos: 41 events
    /// each way).
    @Test func undoIsToldLikeTheDelete() throws {
        let d = Daemon()
        let photos = try PhotoSet.make(in: d.root(), count: 40, folders: ["a", "b"])
        try d.start()
        let c = try d.client()
        let watcher = try d.client()
        _ = try watcher.result(["cmd": "subscribe"])
        let ids = Set(try c.idsByPath().values)
        try c.select("1-40")

        // A batch's events up to its last one (the one without a photo).
        func batchEvents() throws -> [[String: Any]] {
            var events: [[String: Any]] = []
            while let event = try watcher.nextEvent(timeout: 10) {
                guard event["event"] as? String == "batch" else { continue }
                events.append(event)
                if event["photo_id"] == nil { break }
            }
            return events
        }
        let batch = try #require(try c.deleteSelection()["batch"] as? Int)
        for (verb, state, final) in [("trashing", "trashing", "done"), ("restoring", "restoring", "undone")] {
            if verb == "restoring" { #expect(try c.undo(batch)["restored"] as? Int == 40) }
            let events = try batchEvents()
            #expect(events.count == 41, "\(verb): \(events.count) events")
            let progress = events.dropLast()
            #expect(progress.map { $0["done"] as? Int } == (1...40).map { $0 }, "\(verb)")
            #expect(progress.allSatisfy { $0["total"] as? Int == 40 && $0["state"] as? String == state && $0["outcome"] != nil
                                          && $0["batch"] == nil }, "\(verb): \(progress.first ?? [:])")
            #expect(Set(progress.compactMap { $0["photo_id"] as? Int }) == ids, "\(verb)")
            let last = try #require(events.last)
            #expect(last["batch"] as? Int == batch && last["state"] as? String == final, "\(verb): \(last)")
            #expect(last["done"] as? Int == 40 && last["total"] as? Int == 40, "\(verb): \(last)")
        }
        #expect(try photos.allBack().isEmpty)
    }

    @Test func undoAfterARestart() throws {
        let d = Daemon()
        let photos = try PhotoSet.make(in: d.root(), count: 5)
        try d.start()
        let ids = try d.client().idsByPath()
        let c = try d.client()
        try c.select("1-5")
        let batch = try #require(try c.deleteSelection()["batch"] as? Int)
        #expect(d.stop() == 0)
        try d.start()
        let again = try d.client()
        #expect(try again.idsByPath().isEmpty)
        #expect(try again.history().first?["state"] as? String == "done")
        let undo = try again.undo(batch)
        #expect(undo["restored"] as? Int == 5)
        try Self.expectAllBack(d, photos, ids: ids, again)
    }

    /// A crash mid-batch (SIGKILL after the 3rd photo's rename), a restart, then undo.
    @Test func undoAfterACrash() throws {
        let d = Daemon()
        let photos = try PhotoSet.make(in: d.root(), count: 5)
        d.extraEnvironment["CURATORD_FAILPOINT"] = "item.renamed:3"
        try d.start()
        let c = try d.client()
        let ids = try c.idsByPath()
        try c.select("1-5")
        let plan = try c.prepare()
        #expect(throws: (any Error).self, "the daemon dies mid-batch") { try c.confirm(plan) }
        #expect(try d.waitForExit() == SIGKILL)
        d.extraEnvironment = [:]
        try d.start()
        let again = try d.client()
        let batch = try #require(try again.history().first)
        #expect(batch["state"] as? String == "interrupted")
        #expect(batch["trashed"] as? Int == 3)
        let census = try photos.census(trash: d.trashDirectory)
        #expect(census.problems.isEmpty, "\(census.problems)")
        #expect(census.inTrash.count == 3)
        let undo = try again.undo()
        #expect(undo["restored"] as? Int == 3)
        try Self.expectAllBack(d, photos, ids: ids, again)
    }

    /// A file now standing at a trashed photo's path is never overwritten: that
    /// photo is a `conflict` and stays in the trash, undoable once the path is free.
    @Test func undoNeverOverwritesAFileAtThePath() throws {
        let d = Daemon()
        let photos = try PhotoSet.make(in: d.root(), count: 3)
        try d.start()
        let c = try d.client()
        let ids = try c.idsByPath()
        try c.select("1-3")
        let batch = try #require(try c.deleteSelection()["batch"] as? Int)
        let blocked = photos.relativePaths[1]
        Files.write(photos.absolute(blocked), "a new file that took the name")
        let newInode = Files.inode(photos.absolute(blocked))

        let undo = try c.undo()
        #expect(PhotoOutcomes(undo).byPath == [photos.relativePaths[0]: "restored", blocked: "conflict",
                                               photos.relativePaths[2]: "restored"])
        #expect(undo["conflicts"] as? Int == 1)
        #expect(undo["state"] as? String == "partly_undone")
        #expect(Files.read(photos.absolute(blocked)) == "a new file that took the name")
        #expect(Files.inode(photos.absolute(blocked)) == newInode)
        let others = [photos.relativePaths[0], photos.relativePaths[2]]
        #expect(try photos.allBack(others).isEmpty)
        // Still in the trash, with its .trashinfo, intact.
        let trash = TrashSnapshot(d.trashDirectory)
        let entry = try #require(trash.entries(for: photos.absolute(blocked)).first)
        #expect(trash.files.contains(entry.name))
        #expect(try Checksum.sha256(trash.filePath(entry.name)) == photos.digests[blocked])
        #expect(trash.orphans.isEmpty)

        // Once the path is free, the same batch can be undone the rest of the way
        // (racing the watcher: `anUndoRacingTheWatcherKeepsThePhotosID`).
        Files.remove(photos.absolute(blocked))
        let rest = try c.undo(batch)
        #expect(PhotoOutcomes(rest).byPath == [blocked: "restored"])
        #expect(rest["state"] as? String == "undone")
        try Self.expectAllBack(d, photos, ids: ids, c)
    }

    /// The second undo of a batch whose photo met a file in the way, run before the
    /// watcher has indexed that file's removal: the photo comes back under its own
    /// id, not the one the blocking file had. The daemon stops once that undo's
    /// `restoring` is committed (`undo.chunk_intent`, hit 2); the blocker goes then,
    /// and on SIGCONT the rename comes before the watcher handles the deletion.
    @Test func anUndoRacingTheWatcherKeepsThePhotosID() throws {
        let d = Daemon()
        let photos = try PhotoSet.make(in: d.root(), count: 3)
        d.extraEnvironment["CURATORD_FAILPOINT"] = "undo.chunk_intent:2:stop"
        try d.start()
        let c = try d.client()
        let ids = try c.idsByPath()
        try c.select("1-3")
        let batch = try #require(try c.deleteSelection()["batch"] as? Int)
        let blocked = photos.relativePaths[1]
        Files.write(photos.absolute(blocked), "a new file that took the name")
        try c.sync()
        let blocker = try #require(try c.idsByPath()[blocked], "the blocking file is indexed under an id of its own")
        #expect(blocker != ids[blocked])
        #expect(try c.undo()["conflicts"] as? Int == 1)

        let racer = try d.client()
        try racer.sendLine(#"{"id":7,"cmd":"undo","batch":\#(batch)}"#)
        try eventually(timeout: 30, "curatord to stop at its failpoint") {
            let stat = Files.read("/proc/\(d.pid)/stat") ?? ""
            guard let close = stat.lastIndex(of: ")") else { return false }
            return stat[stat.index(after: close)...].hasPrefix(" T")
        }
        Files.remove(photos.absolute(blocked))
        d.signal(SIGCONT)
        let answer = try #require(try racer.readObject(timeout: 30), "the undo's answer")
        let rest = try #require(answer["result"] as? [String: Any], "\(answer)")
        #expect(PhotoOutcomes(rest).byPath == [blocked: "restored"])
        try Self.expectAllBack(d, photos, ids: ids, c)
    }

    /// The same race for a group (a RAW+JPEG whose JPEG met a file in the way): once
    /// the way is clear, the group comes back under its own id.
    @Test func aGroupUndoneRacingTheWatcherKeepsItsID() throws {
        let d = Daemon()
        Files.write(d.root() + "/IMG_0001.JPG", "the jpeg")
        Files.write(d.root() + "/IMG_0001.CR2", "the raw")
        d.extraEnvironment["CURATORD_FAILPOINT"] = "undo.chunk_intent:2:stop"
        try d.start()
        let c = try d.client()
        let ids = try c.idsByPath()
        #expect(ids.keys.sorted() == ["IMG_0001.JPG"], "one group, shown by its JPEG")
        try c.select("1")
        let batch = try #require(try c.deleteSelection()["batch"] as? Int)
        Files.write(d.root() + "/IMG_0001.JPG", "a new file that took the name")
        try c.sync()
        #expect((try c.undo()["conflicts"] as? Int ?? 0) >= 1)

        let racer = try d.client()
        try racer.sendLine(#"{"id":7,"cmd":"undo","batch":\#(batch)}"#)
        try eventually(timeout: 30, "curatord to stop at its failpoint") {
            let stat = Files.read("/proc/\(d.pid)/stat") ?? ""
            guard let close = stat.lastIndex(of: ")") else { return false }
            return stat[stat.index(after: close)...].hasPrefix(" T")
        }
        Files.remove(d.root() + "/IMG_0001.JPG")
        d.signal(SIGCONT)
        let answer = try #require(try racer.readObject(timeout: 30), "the undo's answer")
        #expect(answer["result"] != nil, "\(answer)")
        #expect(Files.read(d.root() + "/IMG_0001.JPG") == "the jpeg")
        try c.sync()
        let after = try c.idsByPath()
        #expect(after == ids, "the group listed under its former id: \(after), was \(ids)")
        #expect((try c.photos().first?["members"] as? [[String: Any]])?.count == 1, "the RAW is its member again")
    }

    /// A photo whose folder was removed after the batch comes back with the folder.
    @Test func undoRecreatesAFolderThatWasRemoved() throws {
        let d = Daemon()
        let photos = try PhotoSet.make(in: d.root(), count: 2, folders: ["2023/holiday"])
        try d.start()
        let c = try d.client()
        let ids = try c.idsByPath()
        try c.select("1 2")
        _ = try c.deleteSelection()
        try FileManager.default.removeItem(atPath: d.root() + "/2023/holiday")
        try c.sync()
        #expect(try c.undo()["restored"] as? Int == 2)
        try Self.expectAllBack(d, photos, ids: ids, c)
    }
}
