// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Glibc
import Testing

@Suite("Undo: photos back, never overwriting")
struct UndoTests {
    @Test func putsEveryPhotoBackInAscendingOrderWithIdenticalContent() throws {
        let box = try Sandbox()
        let names: [ByteString] = ["2024/09/c.jpg", "2024/09/b.jpg", "a.jpg", ByteString([0x6E, 0xFF, 0x2E, 0x6A, 0x70, 0x67])]
        var sums: [ByteString: UInt64] = [:]
        var inodes: [ByteString: UInt64] = [:]
        for name in names {
            let identity = try box.photo(name)
            sums[name] = checksum(Sandbox.content(for: name))
            inodes[name] = identity.inode
        }
        let runner = try box.runner()
        let batch = try runner.run(plan: try box.plan(names), requester: .me)
        #expect(batch.result.trashed == 4)

        var order: [Int] = []
        let undo = try runner.undo(batch: batch.result.batch, requester: .me) { order.append($0.step) }
        #expect(order == [4, 3, 2, 1], "ascending view order: the reverse of trashing")
        #expect(undo.result.items.map(\.step) == [4, 3, 2, 1])
        #expect(undo.result.state == .undone)
        #expect(undo.result.restored == 4 && undo.result.conflicts == 0 && undo.result.missing == 0)
        for name in names {
            let content = try #require(Sandbox.read(box.root.appending(name)))
            #expect(checksum(content) == sums[name], "\(name) came back identical")
        }
        #expect(undo.restored.count == 4)
        for photo in undo.restored {
            #expect(photo.sameInode && photo.identity.inode == inodes[photo.relativePath] && !photo.byOtherTool)
        }
        #expect(box.trashedFiles.isEmpty && box.infoFiles.isEmpty, "the .trashinfo files went with them")
        let history = try runner.history(uid: geteuid())
        #expect(history.first?.state == .undone && history.first?.restored == 4 && history.first?.trashed == 4)
        let again = try #require(throws: BatchError.self) { try runner.undo(batch: batch.result.batch, requester: .me) }
        #expect(again.code == .notUndoable)
    }

    @Test func neverOverwritesAFileNowStandingAtThePath() throws {
        let box = try Sandbox()
        try box.photo("a.jpg")
        try box.photo("b.jpg")
        let runner = try box.runner()
        let batch = try runner.run(plan: try box.plan(["a.jpg", "b.jpg"]), requester: .me)
        let newcomer = Array("a new file took the name".utf8)
        try Sandbox.write(box.root.appending("a.jpg"), newcomer)

        let undo = try runner.undo(batch: nil, requester: .me)
        #expect(undo.result.items.map(\.outcome) == [.restored, .conflict])
        #expect(undo.result.state == .partlyUndone && undo.result.conflicts == 1)
        #expect(Sandbox.read(box.root.appending("a.jpg")) == newcomer, "the file standing there is untouched")
        #expect(box.trashedFiles == ["a.jpg"] && box.infoFiles == ["a.jpg.trashinfo"], "the photo stays in the trash, restorable")

        // Once the way is clear, a second undo finishes the job.
        _ = box.root.appending("a.jpg").withCString { unlink($0) }
        let second = try runner.undo(batch: batch.result.batch, requester: .me)
        #expect(second.result.items.map(\.outcome) == [.restored])
        #expect(second.result.state == .undone)
        #expect(Sandbox.read(box.root.appending("a.jpg")) == Sandbox.content(for: "a.jpg"))
    }

    @Test func recreatesMissingFoldersBelowTheRoot() throws {
        let box = try Sandbox()
        try box.photo("trip/day1/x.jpg")
        let runner = try box.runner()
        let batch = try runner.run(plan: try box.plan(["trip/day1/x.jpg"]), requester: .me)
        _ = Tool.runQuietly("/bin/rm", ["-rf", box.root.appending("trip").lossyString])
        let undo = try runner.undo(batch: batch.result.batch, requester: .me)
        #expect(undo.result.items.first?.outcome == .restored)
        #expect(undo.restored.first?.recreatedDirectories == ["trip", "trip/day1"])
        #expect(undo.result.items.first?.detail == "recreated trip, trip/day1")
        #expect(Sandbox.read(box.root.appending("trip/day1/x.jpg")) == Sandbox.content(for: "trip/day1/x.jpg"))
    }

    @Test func aFolderReplacedByASymlinkIsAConflictNotAWayOut() throws {
        let box = try Sandbox()
        try box.photo("dir/x.jpg")
        let runner = try box.runner()
        let batch = try runner.run(plan: try box.plan(["dir/x.jpg"]), requester: .me)
        let outside = box.base.appending("outside")
        try Sandbox.makeDirectories(outside)
        _ = Tool.runQuietly("/bin/rm", ["-rf", box.root.appending("dir").lossyString])
        _ = outside.withCString { target in box.root.appending("dir").withCString { symlink(target, $0) } }
        let undo = try runner.undo(batch: batch.result.batch, requester: .me)
        #expect(undo.result.items.first?.outcome == .conflict)
        #expect(Sandbox.names(in: outside).isEmpty)
        #expect(box.trashedFiles == ["x.jpg"])
    }

    @Test func aPhotoRestoredByTrashRestoreIsReportedNotAnError() throws {
        let box = try Sandbox()
        try box.photo("a.jpg")
        try box.photo("b.jpg")
        let runner = try box.runner()
        let batch = try runner.run(plan: try box.plan(["a.jpg", "b.jpg"]), requester: .me)
        let path = box.root.appending("a.jpg").lossyString
        let restore = try Tool.run("/usr/bin/trash-restore", [path], environment: box.toolEnvironment, input: "0\n")
        #expect(restore.status == 0, "trash-restore: \(restore.stdout) \(restore.stderr)")
        #expect(Sandbox.read(box.root.appending("a.jpg")) == Sandbox.content(for: "a.jpg"))

        let undo = try runner.undo(batch: batch.result.batch, requester: .me)
        #expect(undo.result.items.map(\.outcome) == [.restored, .missing])
        #expect(undo.result.items[1].detail == "already back at its path (restored by another tool)")
        #expect(undo.result.state == .undone)
        let byTool = try #require(undo.restored.first { $0.photoID == 1 })
        #expect(byTool.byOtherTool && byTool.sameInode, "the daemon can re-index it with its former id")
        #expect(box.trashedFiles.isEmpty && box.infoFiles.isEmpty)
    }

    @Test func aPurgedPhotoIsMissingAndTheRestComeBack() throws {
        let box = try Sandbox()
        try box.photo("a.jpg")
        try box.photo("b.jpg")
        let runner = try box.runner()
        let batch = try runner.run(plan: try box.plan(["a.jpg", "b.jpg"]), requester: .me)
        // Emptied from the trash (file and info), as `trash-empty` would.
        _ = box.homeTrash.appending("files/b.jpg").withCString { unlink($0) }
        _ = box.homeTrash.appending("info/b.jpg.trashinfo").withCString { unlink($0) }
        let undo = try runner.undo(batch: batch.result.batch, requester: .me)
        #expect(undo.result.items.map(\.outcome) == [.missing, .restored])
        #expect(undo.result.items[0].detail == "no longer in the trash (purged)")
        #expect(undo.result.missing == 1 && undo.result.restored == 1)
        #expect(Sandbox.exists(box.root.appending("a.jpg")) && !Sandbox.exists(box.root.appending("b.jpg")))
    }

    @Test func onlyTheOwnerMayUndoAndTheLatestBatchIsTheDefault() throws {
        let box = try Sandbox()
        try box.photo("a.jpg")
        try box.photo("b.jpg")
        let runner = try box.runner()
        let first = try runner.run(plan: try box.plan(["a.jpg"]), requester: .me)
        let second = try runner.run(plan: BatchPlan(session: "s", items: [try box.item(2, "b.jpg")]), requester: .me)
        let stranger = Requester(uid: geteuid() &+ 4242, gid: 4242, groups: [4242])
        let refused = try #require(throws: BatchError.self) { try runner.undo(batch: first.result.batch, requester: stranger) }
        #expect(refused.code == .notOwner && refused.protocolError.code == .permissionDenied)
        #expect(try #require(throws: BatchError.self) { try runner.undo(batch: nil, requester: stranger) }.code == .noSuchBatch)
        #expect(try #require(throws: BatchError.self) { try runner.undo(batch: 9999, requester: .me) }.code == .noSuchBatch)
        #expect(try runner.undo(batch: nil, requester: .me).result.batch == second.result.batch)
        #expect(try runner.undo(batch: nil, requester: .me).result.batch == first.result.batch)
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to act for another uid"))
    func anotherUserRestoresOnlyWhereTheyCouldWriteThemselves() throws {
        let box = try Sandbox()
        try box.photo("shared/a.jpg")
        let folder = box.root.appending("shared")
        _ = folder.withCString { chmod($0, 0o777) }
        let ann = Requester(uid: 1000, gid: 1000, groups: [1000])
        // A daemon running as root for ann, with the sandbox trash standing in for ann's home trash.
        let runner = try BatchRunner(journalPath: box.journalPath, trash: TrashConfiguration(homeTrash: box.homeTrash, homeTrashOwner: 1000),
                                     failpoints: .disarmed)
        let batch = try runner.run(plan: try box.plan(["shared/a.jpg"]), requester: ann)
        #expect(batch.result.trashed == 1)

        _ = folder.withCString { chmod($0, 0o755) }
        let refused = try runner.undo(batch: nil, requester: ann)
        #expect(refused.result.items.first?.outcome == .permissionDenied)
        #expect(box.trashedFiles == ["a.jpg"], "it stays in the trash")

        _ = Tool.runQuietly("/bin/rm", ["-rf", folder.lossyString])
        _ = box.root.withCString { chmod($0, 0o777) }
        let undo = try runner.undo(batch: nil, requester: ann)
        #expect(undo.result.items.first?.outcome == .restored)
        #expect(undo.restored.first?.recreatedDirectories == ["shared"])
        #expect(try FileStatus.of(folder).uid == 1000, "a folder recreated for ann is ann's")
    }
}
