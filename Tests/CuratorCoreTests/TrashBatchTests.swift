// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Glibc
import Testing

@Suite("Trash: running a batch on real files")
struct TrashBatchTests {
    @Test func trashesThePlanInOrderWithCompleteTrashInfo() throws {
        let box = try Sandbox()
        let names: [ByteString] = ["2024/c.jpg", "2024/b.jpg", "a.jpg"]
        for name in names { try box.photo(name) }
        let runner = try box.runner()
        var seen: [Int] = []
        let before = time(nil)
        let outcome = try runner.run(plan: try box.plan(names), requester: .me) { seen.append($0.step) }
        let after = time(nil)

        #expect(seen == [1, 2, 3], "progress comes once per photo, in plan order")
        #expect(outcome.result.state == .done)
        #expect(outcome.result.items.map(\.outcome) == [.trashed, .trashed, .trashed])
        #expect(outcome.trashedPhotoIDs == [1, 2, 3])
        #expect(outcome.result.trashed == 3 && outcome.result.skipped == 0)
        #expect(outcome.result.bytes == names.reduce(0) { $0 + Int64(Sandbox.content(for: $1).count) })
        for name in names { #expect(!Sandbox.exists(box.root.appending(name)), "\(name) left its folder") }
        #expect(box.trashedFiles == ["c.jpg", "b.jpg", "a.jpg"])
        #expect(box.infoFiles == ["c.jpg.trashinfo", "b.jpg.trashinfo", "a.jpg.trashinfo"])

        for name in names {
            let info = try #require(box.info(name.lastComponent))
            #expect(info.path == box.root.appending(name), "Path is absolute in the home trash")
            let dates = Set([before, after].map { LocalTime(epochSeconds: Int64($0)).trashInfoText })
            #expect(info.deletionDate.count == 19)
            #expect(info.deletionDate >= dates.min() ?? "" && info.deletionDate <= dates.max() ?? "")
            #expect(Sandbox.read(box.homeTrash.appending("files").appending(name.lastComponent)) == Sandbox.content(for: name))
        }
        for dir in ["", "/files", "/info"] {
            let status = try FileStatus.of(ByteString(box.homeTrash.lossyString + dir))
            #expect(status.mode & 0o777 == 0o700, "trash directories are created 0700")
        }
    }

    /// The outcomes of a chunk's moves are journaled as runs of steps that ended
    /// alike: the rows must still say, one by one, what the result says, across
    /// the gaps that skipped photos make and the chunk boundaries.
    @Test func theJournalSaysPerPhotoWhatTheResultSays() throws {
        let box = try Sandbox()
        let names: [ByteString] = (1...11).map { ByteString("r/IMG_\($0).jpg") }
        for name in names { try box.photo(name) }
        var plan = try box.plan(names)
        plan.items[3].isProtected = true
        try Sandbox.write(box.root.appending(names[6]), Array("edited since the plan".utf8))
        #expect(unlink(box.root.appending(names[8]).lossyString) == 0)
        let outcome = try box.runner(chunkSize: 4).run(plan: plan, requester: .me)
        #expect(outcome.result.items.map(\.outcome) == [.trashed, .trashed, .trashed, .protected, .trashed, .trashed, .changed,
                                                        .trashed, .vanished, .trashed, .trashed])
        let rows = try Journal(path: box.journalPath).items(of: outcome.result.batch)
        try #require(rows.count == names.count)
        for (row, item) in zip(rows, outcome.result.items) {
            #expect(row.outcome == item.outcome, "step \(row.step)")
            #expect(row.detail == item.detail, "step \(row.step)")
            #expect(row.state == (item.outcome == .trashed ? .trashed : .skipped), "step \(row.step)")
            #expect(row.moved == (item.outcome == .trashed), "step \(row.step)")
        }
    }

    /// The journal's WAL is moved into its file after a batch, off the batch thread
    /// (its own connection checkpoints only past 64 MB).
    @Test func theJournalIsCheckpointedAfterABatch() throws {
        let box = try Sandbox()
        let names: [ByteString] = (1...40).map { ByteString("c/IMG_\($0).jpg") }
        for name in names { try box.photo(name) }
        let runner = try box.runner(chunkSize: 8)
        func size(_ path: String) -> Int64 {
            var status = stat()
            return stat(path, &status) == 0 ? Int64(status.st_size) : -1
        }
        let before = size(box.journalPath)
        let passes = runner.checkpointer.passes.load(ordering: .acquiring)
        _ = try runner.run(plan: try box.plan(names), requester: .me)
        var waited = 0
        while runner.checkpointer.passes.load(ordering: .acquiring) == passes && waited < 500 {
            usleep(10_000)
            waited += 1
        }
        #expect(runner.checkpointer.passes.load(ordering: .acquiring) > passes, "a checkpoint ran after the batch")
        #expect(size(box.journalPath) > before, "the batch's rows were copied from the WAL into journal.sqlite")
        // And what was copied is the journal: a new connection reads the batch whole.
        let rows = try Journal(path: box.journalPath).recentBatches(uid: nil, limit: 1)
        #expect(rows.first?.state == .done)
    }

    /// Checkpoint requests that come while a pass runs or waits to run are served by
    /// it, not by a pass each; one that comes once all is quiet gets a pass of its own.
    @Test func checkpointRequestsAreCoalesced() throws {
        let box = try Sandbox()
        let runner = try box.runner()
        let checkpointer = runner.checkpointer
        func settled() -> Int {
            var last = checkpointer.passes.load(ordering: .acquiring)
            var quiet = 0
            for _ in 0..<1_000 where quiet < 30 {
                usleep(10_000)
                let now = checkpointer.passes.load(ordering: .acquiring)
                quiet = now == last ? quiet + 1 : 0
                last = now
            }
            return last
        }
        let before = settled()
        // While the passes are held, the first request's pass is running (held) or
        // waiting, and the other 499 are served by one waiting pass: one or two in all,
        // however the threads are scheduled.
        checkpointer.holdingPasses {
            for _ in 0..<500 { checkpointer.request() }
        }
        let burst = settled() - before
        #expect(burst >= 1 && burst <= 2, "\(burst) passes for 500 requests")
        checkpointer.request()
        #expect(settled() == before + burst + 1, "a request when all is quiet gets one pass")
    }

    /// Every chunk of a batch, and of its undo, hands its jobs (the next chunk's plan,
    /// the `.trashinfo` files written ahead or removed behind, the sync) to the same few helper threads:
    /// none is started per chunk.
    @Test func theChunksOfABatchReuseTheSameHelperThreads() throws {
        let box = try Sandbox()
        let names: [ByteString] = (1...60).map { ByteString("h/IMG_\($0).jpg") }
        for name in names { try box.photo(name) }
        let runner = try box.runner(chunkSize: 5)
        let outcome = try runner.run(plan: try box.plan(names), requester: .me)
        #expect(outcome.result.trashed == 60)
        let batch = runner.helpers.started
        // 12 chunks: 11 planned ahead (the first on the batch thread), 12 info writers, 12 syncs.
        #expect(batch.jobs == 35, "\(batch)")
        #expect(batch.threads >= 1 && batch.threads <= 3, "\(batch)")

        let undone = try runner.undo(batch: outcome.result.batch, requester: .me)
        #expect(undone.result.restored == 60)
        let undo = runner.helpers.started
        #expect(undo.jobs - batch.jobs == 24, "one sync and one remover of .trashinfo files per chunk: \(undo)")
        #expect(undo.threads - batch.threads <= 3, "\(undo)")
    }

    /// Left-overs of other tools: `files/IMG.jpg` without info, `info/IMG.2.jpg.trashinfo` without file.
    static func leaveOtherToolsLeftovers(in box: Sandbox) throws {
        try Sandbox.makeDirectories(box.homeTrash.appending("files"))
        try Sandbox.makeDirectories(box.homeTrash.appending("info"))
        try Sandbox.write(box.homeTrash.appending("files/IMG.jpg"), Array("someone else's".utf8))
        try Sandbox.write(box.homeTrash.appending("info/IMG.2.jpg.trashinfo"),
                          TrashInfo(path: "/elsewhere/IMG.jpg", deletionDate: "2020-01-01T00:00:00").rendered())
    }

    @Test func collidingNamesGetUniqueNamesConsistentInFilesAndInfo() throws {
        let box = try Sandbox()
        let names: [ByteString] = ["a/IMG.jpg", "b/IMG.jpg", "c/IMG.jpg"]
        for name in names { try box.photo(name) }
        try Self.leaveOtherToolsLeftovers(in: box)

        let outcome = try box.runner().run(plan: try box.plan(names), requester: .me)
        #expect(outcome.result.trashed == 3)
        #expect(box.trashedFiles == ["IMG.jpg", "IMG.3.jpg", "IMG.4.jpg", "IMG.5.jpg"])
        #expect(box.infoFiles == ["IMG.2.jpg.trashinfo", "IMG.3.jpg.trashinfo", "IMG.4.jpg.trashinfo", "IMG.5.jpg.trashinfo"])
        #expect(box.info("IMG.3.jpg")?.path == box.root.appending("a/IMG.jpg"))
        #expect(box.info("IMG.4.jpg")?.path == box.root.appending("b/IMG.jpg"))
        #expect(box.info("IMG.5.jpg")?.path == box.root.appending("c/IMG.jpg"))
        #expect(Sandbox.read(box.homeTrash.appending("files/IMG.4.jpg")) == Sandbox.content(for: "b/IMG.jpg"))
        #expect(Sandbox.read(box.homeTrash.appending("files/IMG.jpg")) == Array("someone else's".utf8), "nothing in the trash is overwritten")
    }

    /// A batch large beside the trash reads the trash's names once instead of
    /// looking each name up: the names it chooses must be the same.
    @Test func aListedTrashAvoidsTheSameTakenNames() throws {
        let box = try Sandbox()
        let names = (1...70).map { ByteString("d\($0)/IMG.jpg") }
        for name in names { try box.photo(name) }
        try Self.leaveOtherToolsLeftovers(in: box)

        let outcome = try box.runner().run(plan: try box.plan(names), requester: .me)
        #expect(outcome.result.trashed == 70)
        let expected = Set([ByteString("IMG.jpg")] + (3...72).map { ByteString("IMG.\($0).jpg") })
        #expect(box.trashedFiles == expected)
        #expect(box.infoFiles == Set((2...72).map { ByteString("IMG.\($0).jpg.trashinfo") }))
    }

    @Test func nonUTF8NamesAreTrashedByteForByte() throws {
        let box = try Sandbox()
        let name = ByteString([0x64, 0x69, 0x72, 0xE9, 0x2F, 0x66, 0xFF, 0x20, 0x31, 0x2E, 0x6A, 0x70, 0x67])  // "dir\xe9/f\xff 1.jpg"
        try box.photo(name)
        let outcome = try box.runner().run(plan: try box.plan([name]), requester: .me)
        #expect(outcome.result.items.first?.outcome == .trashed)
        #expect(outcome.result.items.first?.pathRaw == name.base64, "the wire carries the exact bytes")
        let trashName = ByteString([0x66, 0xFF, 0x20, 0x31, 0x2E, 0x6A, 0x70, 0x67])
        #expect(box.trashedFiles == [trashName])
        let raw = try #require(Sandbox.read(box.homeTrash.appending("info").appending(ByteString(trashName.bytes + Array(".trashinfo".utf8)))))
        #expect(String(decoding: raw, as: UTF8.self).contains("Path=\(PercentEncoding.encode(box.root))/dir%E9/f%FF%201.jpg\n"))
        #expect(box.info(trashName)?.path == box.root.appending(name))
    }

    @Test func aModifiedPhotoIsSkippedAndUntouched() throws {
        let box = try Sandbox()
        try box.photo("same-size.jpg", Array(repeating: 1, count: 100))
        try box.photo("grown.jpg")
        let plan = try box.plan(["same-size.jpg", "grown.jpg"])
        // Same size, new content and mtime; and a file that grew.
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        try Sandbox.write(box.root.appending("same-size.jpg"), Array(repeating: 2, count: 100))
        _ = box.root.appending("same-size.jpg").withCString { utimensat(AT_FDCWD, $0, &times, 0) }
        try Sandbox.write(box.root.appending("grown.jpg"), Sandbox.content(for: "grown.jpg") + [1, 2, 3])

        let outcome = try box.runner().run(plan: plan, requester: .me)
        #expect(outcome.result.items.map(\.outcome) == [.changed, .changed])
        #expect(outcome.result.items[0].detail == "modified since the plan")
        #expect(outcome.result.items[1].detail?.contains("size changed") == true)
        #expect(Sandbox.read(box.root.appending("same-size.jpg")) == Array(repeating: 2, count: 100))
        #expect(box.trashedFiles.isEmpty && box.infoFiles.isEmpty, "no .trashinfo is left behind for a skipped photo")
    }

    @Test func aReplacedPhotoIsSkippedAndTheNewFileUntouched() throws {
        let box = try Sandbox()
        try box.photo("x.jpg")
        let plan = try box.plan(["x.jpg"])
        let path = box.root.appending("x.jpg")
        // Same content and size, another inode (made before the old one is freed, so its inode is not reused).
        let other = box.root.appending("x.tmp")
        try Sandbox.write(other, Sandbox.content(for: "x.jpg"))
        _ = other.withCString { from in path.withCString { rename(from, $0) } }
        let outcome = try box.runner().run(plan: plan, requester: .me)
        #expect(outcome.result.items.first?.outcome == .changed)
        #expect(outcome.result.items.first?.detail == "replaced by another file")
        #expect(Sandbox.exists(path))
        #expect(box.trashedFiles.isEmpty)
    }

    @Test func aPhotoSwappedForASymlinkIsSkippedAndNothingIsFollowed() throws {
        let box = try Sandbox()
        try box.photo("x.jpg")
        try box.photo("sub/y.jpg")
        let plan = try box.plan(["x.jpg", "sub/y.jpg"])
        // Outside the root, what a symlink would lead to.
        let outside = box.base.appending("outside")
        try Sandbox.makeDirectories(outside)
        try Sandbox.write(outside.appending("x.jpg"), Sandbox.content(for: "x.jpg"))
        try Sandbox.write(outside.appending("y.jpg"), Sandbox.content(for: "sub/y.jpg"))
        // The photo becomes a symlink; the folder becomes a symlink to a folder outside.
        _ = box.root.appending("x.jpg").withCString { unlink($0) }
        _ = outside.appending("x.jpg").withCString { target in box.root.appending("x.jpg").withCString { symlink(target, $0) } }
        _ = Tool.runQuietly("/bin/rm", ["-rf", box.root.appending("sub").lossyString])
        _ = outside.withCString { target in box.root.appending("sub").withCString { symlink(target, $0) } }

        let outcome = try box.runner().run(plan: plan, requester: .me)
        #expect(outcome.result.items.map(\.outcome) == [.changed, .changed])
        #expect(outcome.result.items[0].detail == "replaced by a symlink")
        #expect(try FileStatus.of(box.root.appending("x.jpg")).isSymlink)
        #expect(Sandbox.read(outside.appending("x.jpg")) == Sandbox.content(for: "x.jpg"))
        #expect(Sandbox.read(outside.appending("y.jpg")) == Sandbox.content(for: "sub/y.jpg"))
        #expect(box.trashedFiles.isEmpty && box.infoFiles.isEmpty)
    }

    /// Swaps `x.jpg` for another file (the photo itself is kept as `kept.jpg`) when `step` is reached.
    func swapping(_ box: Sandbox, at step: Failpoint) -> Failpoints {
        let path = box.root.appending("x.jpg")
        let kept = box.root.appending("kept.jpg")
        let impostor = box.root.appending("impostor.tmp")
        return Failpoints(point: step, action: .run {
            _ = try? Sandbox.write(impostor, Array("not in the plan".utf8))
            _ = path.withCString { from in kept.withCString { rename(from, $0) } }
            _ = impostor.withCString { from in path.withCString { rename(from, $0) } }
        })
    }

    /// The last instant before the rename: what arrived in the trash is checked once,
    /// and a file swapped in goes back where it was.
    @Test func aFileSwappedInAtTheLastInstantIsPutBackNotTrashed() throws {
        let box = try Sandbox()
        try box.photo("x.jpg")
        let outcome = try box.runner(failpoints: swapping(box, at: .itemInfoWritten)).run(plan: try box.plan(["x.jpg"]), requester: .me)
        let item = try #require(outcome.result.items.first)
        #expect(item.outcome == .changed)
        #expect(item.detail == "replaced by another file during the move; put back")
        #expect(Sandbox.read(box.root.appending("x.jpg")) == Array("not in the plan".utf8), "the other file is back where it was")
        #expect(Sandbox.read(box.root.appending("kept.jpg")) == Sandbox.content(for: "x.jpg"))
        #expect(box.trashedFiles.isEmpty && box.infoFiles.isEmpty)
    }

    /// The photo itself written to (the same file, grown) after the chunk's check:
    /// it is put back too, as edited, and reported changed.
    @Test func aPhotoEditedAtTheLastInstantIsPutBackNotTrashed() throws {
        let box = try Sandbox()
        try box.photo("x.jpg")
        let path = box.root.appending("x.jpg")
        let edit = Failpoints(point: .itemInfoWritten, action: .run {
            let fd = try? FileDescriptor.open(path, O_WRONLY | O_APPEND)
            _ = try? fd?.closeAfter { (fd) throws(SystemError) in try fd.writeAll(Array("edited".utf8)) }
        })
        let outcome = try box.runner(failpoints: edit).run(plan: try box.plan(["x.jpg"]), requester: .me)
        let item = try #require(outcome.result.items.first)
        #expect(item.outcome == .changed)
        #expect(item.detail?.hasPrefix("size changed") == true && item.detail?.hasSuffix("during the move; put back") == true,
                "\(String(describing: item.detail))")
        #expect(Sandbox.read(path) == Sandbox.content(for: "x.jpg") + Array("edited".utf8))
        #expect(box.trashedFiles.isEmpty && box.infoFiles.isEmpty)
    }

    @Test func aVanishedPhotoIsReportedAndTheRestGoOn() throws {
        let box = try Sandbox()
        try box.photo("gone.jpg")
        try box.photo("here.jpg")
        try box.photo("dir/gone-too.jpg")
        let plan = try box.plan(["gone.jpg", "dir/gone-too.jpg", "here.jpg"])
        _ = box.root.appending("gone.jpg").withCString { unlink($0) }
        _ = Tool.runQuietly("/bin/rm", ["-rf", box.root.appending("dir").lossyString])
        let outcome = try box.runner().run(plan: plan, requester: .me)
        #expect(outcome.result.items.map(\.outcome) == [.vanished, .vanished, .trashed])
        #expect(outcome.result.state == .done)
    }

    @Test func protectedPhotosAndEscapingPathsAreNeverMoved() throws {
        let box = try Sandbox()
        try box.photo("keep.jpg")
        let outside = box.base.appending("secret.jpg")
        try Sandbox.write(outside, [1, 2, 3])
        var protectedItem = try box.item(1, "keep.jpg")
        protectedItem.isProtected = true
        let escaping = BatchPlanItem(photoID: 2, rootName: "pics", rootPath: box.root, relativePath: "../secret.jpg",
                                     identity: FileIdentity(try FileStatus.of(outside)))
        let absolute = BatchPlanItem(photoID: 3, rootName: "pics", rootPath: box.root, relativePath: outside,
                                     identity: FileIdentity(try FileStatus.of(outside)))
        let outcome = try box.runner().run(plan: BatchPlan(session: "s", items: [protectedItem, escaping, absolute]), requester: .me)
        #expect(outcome.result.items.map(\.outcome) == [.protected, .error, .error])
        #expect(Sandbox.exists(box.root.appending("keep.jpg")) && Sandbox.exists(outside))
        #expect(box.trashedFiles.isEmpty)
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to act for another uid"))
    func anotherUserMayOnlyDeleteWhatTheyCouldDeleteThemselves() throws {
        let box = try Sandbox()
        try box.photo("locked/a.jpg")
        try box.photo("shared/b.jpg")
        _ = box.root.appending("locked").withCString { chmod($0, 0o755) }  // root's, not writable by 1000
        _ = box.root.appending("shared").withCString { chmod($0, 0o1777) }  // sticky, b.jpg is root's
        let ann = Requester(uid: 1000, gid: 1000, groups: [1000])
        let outcome = try box.runner().run(plan: try box.plan(["locked/a.jpg", "shared/b.jpg"]), requester: ann)
        #expect(outcome.result.items.map(\.outcome) == [.permissionDenied, .permissionDenied])
        #expect(Sandbox.exists(box.root.appending("locked/a.jpg")) && Sandbox.exists(box.root.appending("shared/b.jpg")))
        #expect(!Sandbox.exists(box.homeTrash))
    }

    @Test func badPlansAreRefusedBeforeAnythingIsJournaled() throws {
        let box = try Sandbox()
        try box.photo("a.jpg")
        let runner = try box.runner()
        #expect(throws: BatchError.self) { try runner.run(plan: BatchPlan(session: "s", items: []), requester: .me) }
        let item = try box.item(1, "a.jpg")
        #expect(throws: BatchError.self) { try runner.run(plan: BatchPlan(session: "s", items: [item, item]), requester: .me) }
        var relative = item
        relative.rootPath = "photos"
        #expect(throws: BatchError.self) { try runner.run(plan: BatchPlan(session: "s", items: [relative]), requester: .me) }
        #expect(try runner.history(uid: nil).isEmpty)
    }

    @Test func historyListsBatchesNewestFirstPerUser() throws {
        let box = try Sandbox()
        try box.photo("a.jpg")
        try box.photo("b.jpg")
        try box.photo("c.jpg")
        let runner = try box.runner()
        let first = try runner.run(plan: try box.plan(["a.jpg", "b.jpg"]), requester: .me)
        let plan = BatchPlan(session: "s", items: [try box.item(3, "c.jpg"), try box.item(4, "c.jpg")])
        let second = try runner.run(plan: plan, requester: .me)
        let history = try runner.history(uid: geteuid())
        #expect(history.map(\.batch) == [second.result.batch, first.result.batch])
        #expect(history[1].count == 2 && history[1].trashed == 2 && history[1].skipped == 0 && history[1].state == .done)
        #expect(history[0].count == 2 && history[0].trashed == 1 && history[0].skipped == 1, "the second copy had vanished")
        #expect(history[1].bytes == Int64(Sandbox.content(for: "a.jpg").count + Sandbox.content(for: "b.jpg").count))
        #expect(history[0].createdAt.count == 25, "RFC 3339 with zone: \(history[0].createdAt)")
        #expect(try runner.history(uid: geteuid() &+ 12345).isEmpty)
        #expect(try runner.history(uid: nil, limit: 1).count == 1)
        #expect(try runner.history(uid: nil, limit: 0).isEmpty, "a limit of 0 is none, as the protocol says")
        #expect(try runner.result(of: first.result.batch).items.map(\.outcome) == [.trashed, .trashed])
    }
}

/// Chunks start small (early progress), double up to a ceiling (few syncs), and end
/// small (each at most half of what is left: the last one runs on one core).
struct ChunkPolicyTests {
    @Test func chunksDoubleUpToTheCeilingAndRespectTheFolderLimit() {
        let sizes = ChunkPolicy.standard.chunks(Array(0..<10_000)) { $0 / 100 }.map(\.count)
        #expect(sizes == [512, 1024, 2048, 3208, 1604, 802, 401, 401])
        let fixed = ChunkPolicy.fixed(3).chunks(Array(0..<10)) { _ in 0 }.map(\.count)
        #expect(fixed == [3, 3, 3, 1])
        // One photo per folder: the folder limit cuts before the photo limit.
        let narrow = ChunkPolicy(maxPhotos: 512, largestPhotos: 4096, maxDirectories: 128).chunks(Array(0..<600)) { $0 }.map(\.count)
        #expect(narrow == [128, 128, 128, 128, 88])
    }
}
