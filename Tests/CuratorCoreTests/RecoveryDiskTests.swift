// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Glibc
import Testing

/// A crash at a named step, simulated in-process: the failpoint throws and the
/// runner unwinds without clean-up, leaving journal and disk as SIGKILL would.
struct CrashPoint: Sendable, CustomTestStringConvertible {
    var point: Failpoint
    var hit: Int
    var testDescription: String { "\(point.rawValue):\(hit)" }
}

@Suite("Recovery: real disk states after a crash at every step")
struct RecoveryDiskTests {
    static let names: [ByteString] = ["2024/c.jpg", "2024/b.jpg", "a.jpg"]

    /// Chunks of two photos: the three photos make two chunks, so every per-chunk
    /// step is hit with a chunk done before it.
    static let chunkSize = 2

    static let batchCrashes: [CrashPoint] = [
        CrashPoint(point: .batchJournaled, hit: 1),
        CrashPoint(point: .chunkIntent, hit: 1), CrashPoint(point: .chunkIntent, hit: 2),
        CrashPoint(point: .itemInfoWritten, hit: 1), CrashPoint(point: .itemInfoWritten, hit: 2),
        CrashPoint(point: .itemInfoWritten, hit: 3),
        CrashPoint(point: .itemRenamed, hit: 1), CrashPoint(point: .itemRenamed, hit: 2), CrashPoint(point: .itemRenamed, hit: 3),
        CrashPoint(point: .chunkSynced, hit: 1), CrashPoint(point: .chunkSynced, hit: 2),
        CrashPoint(point: .chunkJournaled, hit: 1), CrashPoint(point: .chunkJournaled, hit: 2),
        CrashPoint(point: .batchFinished, hit: 1),
    ]

    static let undoCrashes: [CrashPoint] = [
        CrashPoint(point: .undoStarted, hit: 1),
        CrashPoint(point: .undoChunkIntent, hit: 1), CrashPoint(point: .undoChunkIntent, hit: 2),
        CrashPoint(point: .undoRenamed, hit: 1), CrashPoint(point: .undoRenamed, hit: 2), CrashPoint(point: .undoRenamed, hit: 3),
        CrashPoint(point: .undoInfoRemoved, hit: 1), CrashPoint(point: .undoInfoRemoved, hit: 2),
        CrashPoint(point: .undoChunkSynced, hit: 1), CrashPoint(point: .undoChunkSynced, hit: 2),
        CrashPoint(point: .undoChunkJournaled, hit: 1), CrashPoint(point: .undoChunkJournaled, hit: 2),
        CrashPoint(point: .undoFinished, hit: 1),
    ]

    func makePhotos(_ box: Sandbox) throws {
        for name in Self.names { try box.photo(name) }
    }

    /// Runs `body` with a runner whose failpoint throws at `crash`; true if it fired.
    func crash(_ box: Sandbox, at crash: CrashPoint, _ body: (BatchRunner) throws -> Void) throws -> Bool {
        let runner = try box.runner(failpoints: Failpoints(point: crash.point, count: crash.hit, action: .throwError),
                                    chunkSize: Self.chunkSize)
        do {
            try body(runner)
        } catch let error as BatchError where error.code == .failpoint {
            return true
        }
        return false
    }

    /// After any crash and recovery: every photo is at its path with its content, or in
    /// the trash with a matching .trashinfo; no .trashinfo without its file; nothing else.
    func checkInvariants(_ box: Sandbox, sourceLocation: SourceLocation = #_sourceLocation) {
        var infoByPath: [ByteString: ByteString] = [:]
        for infoName in box.infoFiles {
            let name = ByteString(Array(infoName.bytes.dropLast(".trashinfo".utf8.count)))
            guard let info = box.info(name) else {
                Issue.record("unreadable \(infoName)", sourceLocation: sourceLocation)
                continue
            }
            #expect(box.trashedFiles.contains(name), "\(infoName) has its file", sourceLocation: sourceLocation)
            infoByPath[info.path] = name
        }
        for name in box.trashedFiles {
            #expect(box.infoFiles.contains(ByteString(name.bytes + Array(".trashinfo".utf8))), "\(name) has its info", sourceLocation: sourceLocation)
        }
        for photo in Self.names {
            let original = box.root.appending(photo)
            let atPath = Sandbox.read(original)
            let inTrash = infoByPath[original].flatMap { Sandbox.read(box.homeTrash.appending("files").appending($0)) }
            #expect((atPath == nil) != (inTrash == nil), "\(photo) is in exactly one place", sourceLocation: sourceLocation)
            #expect((atPath ?? inTrash) == Sandbox.content(for: photo), "\(photo) is intact", sourceLocation: sourceLocation)
        }
        #expect(box.trashedFiles.count == infoByPath.count, sourceLocation: sourceLocation)
    }

    /// Undoes every batch with photos in the trash, then checks all are home.
    func undoEverything(_ runner: BatchRunner, _ box: Sandbox, sourceLocation: SourceLocation = #_sourceLocation) throws {
        while let summary = try runner.history(uid: geteuid()).first(where: { [.done, .interrupted, .partlyUndone].contains($0.state) && $0.trashed > $0.restored }) {
            let undo = try runner.undo(batch: summary.batch, requester: .me)
            #expect(undo.result.conflicts == 0, sourceLocation: sourceLocation)
            if undo.result.state != .undone { break }
        }
        for photo in Self.names {
            #expect(Sandbox.read(box.root.appending(photo)) == Sandbox.content(for: photo), "\(photo) is back", sourceLocation: sourceLocation)
        }
        #expect(box.trashedFiles.isEmpty && box.infoFiles.isEmpty, sourceLocation: sourceLocation)
    }

    @Test(arguments: Self.batchCrashes)
    func aCrashDuringABatchIsRecoveredAndUndoable(_ point: CrashPoint) throws {
        let box = try Sandbox()
        try makePhotos(box)
        let crashed = try crash(box, at: point) { runner in _ = try runner.run(plan: try box.plan(Self.names), requester: .me) }
        #expect(crashed)

        let runner = try box.runner()  // the restart
        let report = try runner.recover()
        if point.point != .batchFinished {
            #expect(report.batches.map(\.state) == [.interrupted])
            #expect(report.batches.first?.items.allSatisfy { [.trashed, .pending, .missing].contains($0.outcome) } == true)
        }
        checkInvariants(box)
        #expect(try runner.recover().batches.isEmpty, "recovery is done once")
        let history = try runner.history(uid: geteuid())
        #expect(history.count == 1)
        if let summary = history.first, summary.trashed > 0 {
            try undoEverything(runner, box)
        }
        // And the photos can be trashed again.
        #expect(try runner.run(plan: try box.plan(Self.names), requester: .me).result.trashed == 3)
    }

    @Test(arguments: Self.undoCrashes)
    func aCrashDuringUndoIsRecoveredAndTheUndoFinishes(_ point: CrashPoint) throws {
        let box = try Sandbox()
        try makePhotos(box)
        let batch = try box.runner().run(plan: try box.plan(Self.names), requester: .me)
        #expect(try crash(box, at: point) { runner in _ = try runner.undo(batch: batch.result.batch, requester: .me) })

        let runner = try box.runner()
        let report = try runner.recover()
        if point.point != .undoFinished {
            #expect(report.batches.count == 1)
        }
        checkInvariants(box)
        let state = try runner.result(of: batch.result.batch).state
        #expect([.done, .partlyUndone, .undone].contains(state))
        if state != .undone { try undoEverything(runner, box) }
        for photo in Self.names { #expect(Sandbox.read(box.root.appending(photo)) == Sandbox.content(for: photo)) }
        #expect(box.trashedFiles.isEmpty && box.infoFiles.isEmpty)
    }

    @Test func aCrashDuringRecoveryIsRecoveredTheSameWay() throws {
        let box = try Sandbox()
        try makePhotos(box)
        // Photo 2's info is written, not moved: recovery has an info to remove.
        #expect(try crash(box, at: CrashPoint(point: .itemInfoWritten, hit: 2)) { runner in
            _ = try runner.run(plan: try box.plan(Self.names), requester: .me)
        })
        #expect(box.infoFiles.count == 2 && box.trashedFiles.count == 1)
        #expect(try crash(box, at: CrashPoint(point: .recoveryRepaired, hit: 1)) { runner in _ = try runner.recover() })
        let runner = try box.runner()
        let report = try runner.recover()
        #expect(report.batches.first?.items.map(\.outcome) == [.trashed, .pending, .pending])
        checkInvariants(box)
        try undoEverything(runner, box)
    }

    // MARK: hand-made states

    /// A batch journaled with photo 1 at `intent` under `name` in the sandbox trash.
    func intentBatch(_ box: Sandbox, name: ByteString = "a.jpg", created: Int64 = 1_790_000_000_000_000_000) throws -> (Journal, Int64) {
        try box.photo("a.jpg")
        try Sandbox.makeDirectories(box.homeTrash.appending("files"))
        try Sandbox.makeDirectories(box.homeTrash.appending("info"))
        let journal = try Journal(path: box.journalPath)
        let id = try journal.createBatch(uid: geteuid(), session: "s", createdNanoseconds: created, items: [try box.item(1, "a.jpg")])
        try journal.recordIntent(batch: id, step: 1, trashDirectory: box.homeTrash, trashName: name, infoPath: box.root.appending("a.jpg"))
        return (journal, id)
    }

    func move(_ box: Sandbox, to name: ByteString) {
        _ = box.root.appending("a.jpg").withCString { from in box.homeTrash.appending("files").appending(name).withCString { rename(from, $0) } }
    }

    func writeInfo(_ box: Sandbox, _ name: ByteString) throws {
        try Sandbox.write(box.homeTrash.appending("info").appending(ByteString(name.bytes + Array(".trashinfo".utf8))),
                          TrashInfo(path: box.root.appending("a.jpg"), deletionDate: "2026-01-01T00:00:00").rendered())
    }

    @Test func aFileInTheTrashWithoutItsInfoGetsItsInfo() throws {
        let box = try Sandbox()
        let created: Int64 = 1_790_000_000_000_000_000
        _ = try intentBatch(box, name: "a.jpg", created: created)
        move(box, to: "a.jpg")
        let report = try box.runner().recover()
        #expect(report.batches.first?.items.first?.outcome == .trashed)
        #expect(report.repairs.count == 1)
        let info = try #require(box.info("a.jpg"))
        #expect(info.path == box.root.appending("a.jpg"))
        #expect(info.deletionDate == LocalTime(epochSeconds: created / 1_000_000_000).trashInfoText, "dated when the batch ran")
    }

    @Test func anInfoWithoutItsFileIsRemoved() throws {
        let box = try Sandbox()
        _ = try intentBatch(box)
        try writeInfo(box, "a.jpg")
        let report = try box.runner().recover()
        #expect(report.batches.first?.items.first?.outcome == .pending)
        #expect(box.infoFiles.isEmpty)
        #expect(Sandbox.read(box.root.appending("a.jpg")) == Sandbox.content(for: "a.jpg"))
    }

    @Test func aHalfWrittenInfoWithoutItsFileIsRemoved() throws {
        let box = try Sandbox()
        _ = try intentBatch(box)
        try Sandbox.write(box.homeTrash.appending("info/a.jpg.trashinfo"), Array("[Trash In".utf8))
        _ = try box.runner().recover()
        #expect(box.infoFiles.isEmpty)
    }

    /// A power cut before the chunk's sync kept the rename and the `.trashinfo`'s
    /// name but not its contents: the empty info is rewritten and the photo is trashed.
    @Test func aPowerCutLeavesAnEmptyInfoBesideTheMovedPhoto() throws {
        let box = try Sandbox()
        _ = try intentBatch(box)
        try Sandbox.write(box.homeTrash.appending("info/a.jpg.trashinfo"), [])
        move(box, to: "a.jpg")
        let report = try box.runner().recover()
        #expect(report.batches.first?.items.first?.outcome == .trashed)
        #expect(box.info("a.jpg")?.path == box.root.appending("a.jpg"))
    }

    @Test func bothPresentIsTrashedAsIs() throws {
        let box = try Sandbox()
        _ = try intentBatch(box, name: "a.2.jpg")
        try writeInfo(box, "a.2.jpg")
        move(box, to: "a.2.jpg")
        let report = try box.runner().recover()
        #expect(report.batches.first?.items.first?.outcome == .trashed && report.repairs.isEmpty)
        #expect(box.trashedFiles == ["a.2.jpg"] && box.infoFiles == ["a.2.jpg.trashinfo"])
    }

    @Test func neitherPresentIsReportedMissing() throws {
        let box = try Sandbox()
        _ = try intentBatch(box)
        _ = box.root.appending("a.jpg").withCString { unlink($0) }
        let report = try box.runner().recover()
        #expect(report.batches.first?.items.first?.outcome == .missing)
        #expect(report.batches.first?.state == .interrupted)
    }

    @Test func aPhotoWithTwoNamesKeepsOnlyItsTrashName() throws {
        let box = try Sandbox()
        _ = try intentBatch(box)
        try writeInfo(box, "a.jpg")
        _ = box.root.appending("a.jpg").withCString { from in box.homeTrash.appending("files/a.jpg").withCString { link(from, $0) } }
        let report = try box.runner().recover()
        #expect(report.batches.first?.items.first?.outcome == .trashed)
        #expect(!Sandbox.exists(box.root.appending("a.jpg")))
        #expect(try FileStatus.of(box.homeTrash.appending("files/a.jpg")).linkCount == 1)
    }

    @Test func anInterruptedRestoreWithThePhotoBackDropsTheStaleInfo() throws {
        let box = try Sandbox()
        let (journal, id) = try intentBatch(box)
        try writeInfo(box, "a.jpg")
        try journal.recordItem(batch: id, step: 1, state: .restoring, outcome: .trashed, detail: nil, moved: true)
        try journal.setBatchState(id, .done, undoRunning: true)
        let report = try box.runner().recover()
        #expect(report.batches.first?.state == .undone)
        #expect(report.batches.first?.items.first?.outcome == .restored)
        #expect(report.restored.map(\.photoID) == [1] && report.restored.first?.sameInode == true)
        #expect(box.infoFiles.isEmpty)
    }

    @Test func anInterruptedLinkRestoreDropsTheTrashName() throws {
        let box = try Sandbox()
        let (journal, id) = try intentBatch(box)
        try writeInfo(box, "a.jpg")
        _ = box.root.appending("a.jpg").withCString { from in box.homeTrash.appending("files/a.jpg").withCString { link(from, $0) } }
        try journal.recordItem(batch: id, step: 1, state: .restoring, outcome: .trashed, detail: nil, moved: true)
        try journal.setBatchState(id, .done, undoRunning: true)
        _ = try box.runner().recover()
        #expect(box.trashedFiles.isEmpty && box.infoFiles.isEmpty)
        #expect(try FileStatus.of(box.root.appending("a.jpg")).linkCount == 1)
    }

    @Test func anUndoThatNeverMovedThePhotoLeavesItTrashedAndUndoable() throws {
        let box = try Sandbox()
        let (journal, id) = try intentBatch(box)
        move(box, to: "a.jpg")
        try journal.recordItem(batch: id, step: 1, state: .restoring, outcome: .trashed, detail: nil, moved: true)
        try journal.setBatchState(id, .done, undoRunning: true)
        let runner = try box.runner()
        let report = try runner.recover()
        #expect(report.batches.first?.state == .done)
        #expect(report.batches.first?.items.first?.outcome == .trashed)
        #expect(box.info("a.jpg")?.path == box.root.appending("a.jpg"), "its missing info was written")
        #expect(try runner.undo(batch: id, requester: .me).result.restored == 1)
    }

    // MARK: names taken meanwhile

    /// Another program takes the chosen name in `info/` after the chunk's intents are
    /// committed: the photo gets the next name, journaled before its .trashinfo.
    @Test func aNameTakenAfterTheIntentIsReplacedAndJournaled() throws {
        let box = try Sandbox()
        try box.photo("a.jpg")
        try Sandbox.makeDirectories(box.homeTrash.appending("files"))
        try Sandbox.makeDirectories(box.homeTrash.appending("info"))
        let foreign = box.homeTrash.appending("info/a.jpg.trashinfo")
        let other = TrashInfo(path: "/elsewhere/a.jpg", deletionDate: "2026-01-01T00:00:00").rendered()
        let failpoints = Failpoints(point: .chunkIntent, count: 1, action: .run({ try? Sandbox.write(foreign, other) }))
        let runner = try box.runner(failpoints: failpoints)
        let outcome = try runner.run(plan: try box.plan(["a.jpg"]), requester: .me)
        #expect(outcome.result.trashed == 1)
        #expect(box.trashedFiles == ["a.2.jpg"])
        #expect(box.info("a.2.jpg")?.path == box.root.appending("a.jpg"))
        #expect(Sandbox.read(foreign) == other, "the other program's .trashinfo is untouched")
        let journal = try Journal(path: box.journalPath)
        #expect(try journal.items(of: outcome.result.batch).first?.trashName == "a.2.jpg")
        #expect(try runner.undo(batch: outcome.result.batch, requester: .me).result.restored == 1)
        #expect(Sandbox.read(foreign) == other)
    }

    /// The state a crash at `item.new_name` leaves: the journal names the new name,
    /// nothing of ours exists yet, and the other program's .trashinfo holds the first
    /// name. Recovery reports the photo at its path and touches nothing else.
    @Test func aCrashAfterANewNameIsRecovered() throws {
        let box = try Sandbox()
        _ = try intentBatch(box, name: "a.2.jpg")
        let foreign = box.homeTrash.appending("info/a.jpg.trashinfo")
        let other = TrashInfo(path: "/elsewhere/a.jpg", deletionDate: "2026-01-01T00:00:00").rendered()
        try Sandbox.write(foreign, other)
        let report = try box.runner().recover()
        #expect(report.batches.first?.items.first?.outcome == .pending)
        #expect(report.repairs.isEmpty)
        #expect(Sandbox.read(box.root.appending("a.jpg")) == Sandbox.content(for: "a.jpg"))
        #expect(Sandbox.read(foreign) == other)
    }
}
