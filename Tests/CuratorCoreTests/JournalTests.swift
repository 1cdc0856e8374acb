// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorStore
import CuratorSystem
import Glibc
import Testing

@Suite("Journal: records, durability, queries")
struct JournalTests {
    func planItem(_ id: Int64, _ path: ByteString) -> BatchPlanItem {
        BatchPlanItem(photoID: id, rootName: "pics", rootPath: "/srv/photos", relativePath: path,
                      identity: FileIdentity(device: UInt64.max - 1, inode: UInt64(1) << 63 + UInt64(id), size: 1000 + id,
                                              mtimeNs: 1_700_000_000_123_456_789))
    }

    @Test func isWALWithFullSynchronousInAFileOfItsOwn() throws {
        let box = try Sandbox()
        let journal = try Journal(path: box.journalPath)
        let durability = try journal.durability()
        #expect(durability.journalMode == "wal")
        #expect(durability.synchronous == 2, "synchronous=FULL")
    }

    /// A new journal's schema is one commit: each commit of the journal syncs its
    /// WAL (`synchronous=FULL`), and the first start of every daemon made seven,
    /// some 50 ms on a journaled disk. Counted in the WAL itself: a 32-byte header,
    /// then frames of a 24-byte header and a page, of which the last of each commit
    /// carries the database's size in its bytes 4..<8 (zero in the others).
    @Test func aNewJournalIsMadeInOneCommit() throws {
        let box = try Sandbox()
        let journal = try Journal(path: box.journalPath)
        let wal = try #require(Sandbox.read(ByteString(box.journalPath + "-wal")))
        func word(_ at: Int) -> Int { wal[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let pageSize = word(8)
        var commits = 0
        var frame = 32
        while frame + 24 + pageSize <= wal.count {
            if word(frame + 4) != 0 { commits += 1 }
            frame += 24 + pageSize
        }
        #expect(frame > 32, "the schema is in the WAL")
        #expect(commits == 1)
        #expect(try journal.durability().journalMode == "wal")
    }

    @Test func keepsThePlanInOrderWithBytesAndIdentities() throws {
        let box = try Sandbox()
        let raw = ByteString([0x61, 0xFF, 0x2F, 0x62, 0x00, 0x01].filter { $0 != 0 })
        let items = [planItem(7, "z.jpg"), planItem(3, raw), planItem(5, "a/b.jpg")]
        let id: Int64
        do {
            let journal = try Journal(path: box.journalPath)
            id = try journal.createBatch(uid: 1000, session: "ann's", createdNanoseconds: 42, items: items)
        }
        // Reopened: what was committed is there.
        let journal = try Journal(path: box.journalPath)
        let batch = try #require(try journal.batch(id))
        #expect(batch == JournalBatch(id: id, uid: 1000, session: "ann's", createdNanoseconds: 42, state: .running, undoRunning: false))
        let stored = try journal.items(of: id)
        #expect(stored.map(\.step) == [1, 2, 3])
        #expect(stored.map(\.photoID) == [7, 3, 5])
        #expect(stored[1].relativePath == raw)
        #expect(stored.map(\.identity) == items.map(\.identity))
        #expect(stored.allSatisfy { $0.state == .planned && $0.outcome == .pending && $0.rootPath == "/srv/photos" && !$0.moved })
        #expect(stored == JournalItem.planned(batch: id, items), "what a batch works from without reading it back")
    }

    /// Reads that stop at their first row must not keep a read transaction open:
    /// while one is, no checkpoint can move the WAL's frames into the file, and the
    /// journal's WAL grew by 10 MB per batch of 10 000 photos, for good.
    @Test func readsLeaveNoTransactionOpenSoTheWALCanBeCheckpointed() throws {
        let box = try Sandbox()
        let journal = try Journal(path: box.journalPath)
        let id = try journal.createBatch(uid: 1, session: "s", createdNanoseconds: 1, items: (1...50).map { planItem($0, ByteString("p\($0).jpg")) })
        try journal.setBatchState(id, .running, undoRunning: false)
        // Every kind of read the daemon makes between batches.
        _ = try journal.counts(of: id)
        _ = try journal.hasRunningBatch()
        _ = try journal.durability()
        _ = try journal.batch(id)
        _ = try journal.latestUndoable(uid: 1)
        _ = try journal.items(of: id)
        _ = try journal.recentBatches(uid: nil, limit: 5)
        // Another connection can empty the WAL only when no reader holds an old snapshot.
        let probe = try Database(path: box.journalPath)
        try probe.checkpoint()
        let wal = box.journalPath + "-wal"
        var status = stat()
        #expect(stat(wal, &status) != 0 || status.st_size == 0, "the WAL was emptied")
    }

    @Test func recordsStepsAndKeepsMovedOnceSet() throws {
        let box = try Sandbox()
        let journal = try Journal(path: box.journalPath)
        let id = try journal.createBatch(uid: 1, session: "s", createdNanoseconds: 1, items: [planItem(1, "a.jpg")])
        try journal.recordIntent(batch: id, step: 1, trashDirectory: "/t/Trash", trashName: ByteString([0xFE]), infoPath: "/srv/photos/a.jpg")
        var item = try #require(try journal.items(of: id).first)
        #expect(item.state == .intent && item.trashName == ByteString([0xFE]) && item.trashDirectory == "/t/Trash")
        try journal.recordItem(batch: id, step: 1, state: .trashed, outcome: .trashed, detail: nil, moved: true)
        try journal.recordItem(batch: id, step: 1, state: .restored, outcome: .restored, detail: "recreated a")
        item = try #require(try journal.items(of: id).first)
        #expect(item.state == .restored && item.outcome == .restored && item.detail == "recreated a" && item.moved)
        #expect(try journal.counts(of: id) == JournalBatchCounts(count: 1, trashed: 1, restored: 1, bytes: 1001,
                                                                    photos: .init(count: 1, trashed: 1, restored: 1)))
    }

    @Test func findsWhatACrashLeftUnfinished() throws {
        let box = try Sandbox()
        let journal = try Journal(path: box.journalPath)
        let running = try journal.createBatch(uid: 1, session: "s", createdNanoseconds: 1, items: [planItem(1, "a")])
        let done = try journal.createBatch(uid: 1, session: "s", createdNanoseconds: 2, items: [planItem(2, "b")])
        let undoing = try journal.createBatch(uid: 1, session: "s", createdNanoseconds: 3, items: [planItem(3, "c")])
        let stuck = try journal.createBatch(uid: 1, session: "s", createdNanoseconds: 4, items: [planItem(4, "d")])
        try journal.setBatchState(done, .done, undoRunning: false)
        try journal.setBatchState(undoing, .done, undoRunning: true)
        try journal.setBatchState(stuck, .interrupted, undoRunning: false)
        try journal.recordItem(batch: stuck, step: 1, state: .intent, outcome: .error, detail: "cannot be inspected")
        #expect(try journal.batchesNeedingRecovery().map(\.id) == [running, undoing, stuck])
        #expect(try journal.hasRunningBatch())
        try journal.setBatchState(running, .interrupted, undoRunning: false)
        try journal.setBatchState(undoing, .partlyUndone, undoRunning: false)
        #expect(!(try journal.hasRunningBatch()))
    }

    @Test func latestUndoableIsTheNewestBatchWithPhotosInTheTrash() throws {
        let box = try Sandbox()
        let journal = try Journal(path: box.journalPath)
        let old = try journal.createBatch(uid: 5, session: "s", createdNanoseconds: 1, items: [planItem(1, "a")])
        let newer = try journal.createBatch(uid: 5, session: "s", createdNanoseconds: 2, items: [planItem(2, "b")])
        let others = try journal.createBatch(uid: 6, session: "s", createdNanoseconds: 3, items: [planItem(3, "c")])
        for id in [old, newer, others] {
            try journal.recordItem(batch: id, step: 1, state: .trashed, outcome: .trashed, detail: nil, moved: true)
            try journal.setBatchState(id, .done, undoRunning: false)
        }
        #expect(try journal.latestUndoable(uid: 5)?.id == newer)
        try journal.recordItem(batch: newer, step: 1, state: .restored, outcome: .restored, detail: nil)
        #expect(try journal.latestUndoable(uid: 5)?.id == old)
        #expect(try journal.latestUndoable(uid: 7) == nil)
    }

    @Test func runnerRefusesNewWorkUntilRecoveryRan() throws {
        let box = try Sandbox()
        try box.photo("a.jpg")
        try box.batchLeftRunning("a.jpg")
        let runner = try box.runner()
        let error = try #require(throws: BatchError.self) { try runner.run(plan: try box.plan(["a.jpg"]), requester: .me) }
        #expect(error.code == .recoveryPending)
        #expect(error.protocolError.code == .batchRunning)
        _ = try runner.recover()
        #expect(try runner.run(plan: try box.plan(["a.jpg"]), requester: .me).result.trashed == 1)
    }

    @Test func failpointSpecsParse() {
        #expect(Failpoints.parse("item.renamed:3")! == (.itemRenamed, 3))
        #expect(Failpoints.parse("undo.info_removed")! == (.undoInfoRemoved, 1))
        #expect(Failpoints.parse("item.renamed:0") == nil)
        #expect(Failpoints.parse("nope:1") == nil)
        #expect(Failpoints.parse("item.renamed:x") == nil)
        #expect(Failpoints(environment: ["CURATORD_FAILPOINT": "bogus"]).point == nil)
        let armed = Failpoints(environment: ["CURATORD_FAILPOINT": "batch.finished:2"])
        #expect(armed.point == .batchFinished && armed.count == 2)
        #expect(Set(Failpoint.allCases.map(\.rawValue)).count == Failpoint.allCases.count)
    }

    @Test func aThrowingFailpointFiresOnlyOnTheNthHit() throws {
        let failpoints = Failpoints(point: .itemRenamed, count: 3, action: .throwError)
        try failpoints.reach(.itemRenamed)
        try failpoints.reach(.chunkIntent)
        try failpoints.reach(.itemRenamed)
        #expect(throws: BatchError.self) { try failpoints.reach(.itemRenamed) }
        try failpoints.reach(.itemRenamed)
    }
}
