// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorStore
import CuratorSystem
import Foundation
import Glibc
import Testing

/// A power cut that takes back the journal's unsynced commits: a batch's commits of
/// a chunk's outcomes are not synced on their own (docs/JOURNAL.md, step 6), so a
/// power cut may lose them. Simulated by cutting the WAL back to the batch's last
/// synced commit, with the disk as the chunks' syncs left it; recovery must find
/// every photo where the batch put it and settle the lost records from the disk.
@Suite("Power cut: a batch's unsynced outcome commits lost")
struct PowerCutTests {
    /// Three chunks of two: the outcomes of chunks 2 and 3 are unsynced when the
    /// batch's end is about to be committed (chunk 1's were synced with chunk 3's intents).
    static let names: [ByteString] = ["2024/a.jpg", "2024/b.jpg", "2024/c.jpg", "2025/d.jpg", "2025/e.jpg", "2025/f.jpg"]
    static let chunkSize = 2
    /// The photo that changes between its `.trashinfo` and its move: put back by the check after its move (step 4).
    static let changedStep = 4

    /// The WAL of `bytes` cut after its `commits`-th commit from the start (a
    /// frame whose "database size after commit" is not 0 ends a commit).
    static func wal(_ bytes: [UInt8], keepingCommits commits: Int) -> [UInt8] {
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let pageSize = word(8)
        var offset = 32
        var kept = 0
        while kept < commits, offset + 24 + pageSize <= bytes.count {
            let isCommit = word(offset + 4) != 0
            offset += 24 + pageSize
            if isCommit { kept += 1 }
        }
        return Array(bytes[..<offset])
    }

    /// Commits in a WAL.
    static func commitCount(_ bytes: [UInt8]) -> Int {
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        let pageSize = word(8)
        var offset = 32
        var commits = 0
        while offset + 24 + pageSize <= bytes.count {
            if word(offset + 4) != 0 { commits += 1 }
            offset += 24 + pageSize
        }
        return commits
    }

    @Test func lostOutcomeCommitsAreSettledFromTheDisk() throws {
        let box = try Sandbox()
        for name in Self.names { try box.photo(name) }
        let changed = box.root.appending(Self.names[Self.changedStep - 1])
        // On the batch thread, once photo 4's info is written: it grows, so it is put back after its move.
        let failpoints = Failpoints(point: .itemInfoWritten, count: Self.changedStep, action: .run {
            let fd = try? FileDescriptor.open(changed, O_WRONLY | O_APPEND)
            _ = try? fd?.closeAfter { (fd) throws(SystemError) in try fd.writeAll(Array("edited".utf8)) }
        })
        var journal: (db: [UInt8], wal: [UInt8])?
        var answer: Result<BatchOutcome, any Error>?
        do {
            let runner = try box.runner(failpoints: failpoints, chunkSize: Self.chunkSize)
            // No checkpoint may copy the WAL into the file before it is read: the file and
            // the WAL are then exactly what the batch wrote.
            runner.checkpointer.holdingPasses {
                answer = Result { try runner.run(plan: try box.plan(Self.names), requester: .me) }
                journal = (Sandbox.read(ByteString(box.journalPath)) ?? [], Sandbox.read(ByteString(box.journalPath + "-wal")) ?? [])
            }
            while runner.checkpointer.passes.load(ordering: .acquiring) == 0 { usleep(1000) }  // the batch's, let go
        }
        let outcome = try #require(try answer?.get())
        #expect(outcome.result.items.map(\.outcome) == [.trashed, .trashed, .trashed, .changed, .trashed, .trashed],
                "the client was told: photo 4 changed")
        let (db, wal) = try #require(journal)

        // The WAL's commits: the schema, the batch, intents 1, intents 2, outcomes 1
        // (unsynced), intents 3 (synced: outcomes 1 with it), outcomes 2 and 3
        // (unsynced), the batch's end (synced). The power cut comes just before that
        // last sync: the disk keeps everything up to intents 3.
        let commits = Self.commitCount(wal)
        #expect(commits == 9)
        // The disk after the cut, as a journal of its own (no connection of the
        // crashed process has it open).
        let path = box.base.appending("after-the-cut.sqlite").lossyString
        try Sandbox.write(ByteString(path), db)
        try Sandbox.write(ByteString(path + "-wal"), Self.wal(wal, keepingCommits: commits - 3))

        // What the journal holds after the cut, before recovery: the simulation lost
        // what it should and nothing more.
        let cut = try Journal(path: path)
        let states = try cut.items(of: outcome.result.batch).map(\.state)
        #expect(states == [.trashed, .trashed, .intent, .intent, .intent, .intent])
        #expect(try cut.batch(outcome.result.batch)?.state == .running)

        let runner = try BatchRunner(journalPath: path, trash: box.configuration, failpoints: .disarmed)  // the restart
        let report = try runner.recover()
        #expect(report.batches.map(\.state) == [.interrupted])
        let items = try #require(report.batches.first?.items)
        #expect(items.map(\.outcome) == [.trashed, .trashed, .trashed, .pending, .trashed, .trashed],
                "each photo where the batch left it; only photo 4's reason is lost")
        // Photo 4 is at its path, as edited, with no .trashinfo; the others are in the
        // trash, each with its whole info.
        #expect(Sandbox.read(changed) == Sandbox.content(for: Self.names[Self.changedStep - 1]) + Array("edited".utf8))
        #expect(box.trashedFiles.count == 5 && box.infoFiles.count == 5)
        for (index, name) in Self.names.enumerated() where index != Self.changedStep - 1 {
            let trashName = name.lastComponent
            #expect(Sandbox.read(box.homeTrash.appending("files").appending(trashName)) == Sandbox.content(for: name))
            #expect(box.info(trashName)?.path == box.root.appending(name))
        }
        #expect(report.repairs.isEmpty, "nothing on disk needed repair")

        // And the batch undoes whole.
        let undo = try runner.undo(batch: outcome.result.batch, requester: .me)
        #expect(undo.result.restored == 5 && undo.result.state == .undone)
        for (index, name) in Self.names.enumerated() where index != Self.changedStep - 1 {
            #expect(Sandbox.read(box.root.appending(name)) == Sandbox.content(for: name))
        }
        #expect(box.trashedFiles.isEmpty && box.infoFiles.isEmpty)
    }

    /// The unsynced commit is the outcomes' only: every other commit of a batch still
    /// syncs, and the connection is back at `synchronous=FULL` after it.
    @Test func theJournalIsFullySyncedAgainAfterAnUnsyncedCommit() throws {
        let box = try Sandbox()
        let journal = try Journal(path: box.journalPath)
        #expect(try journal.durability().synchronous == 2)
        try journal.transactionUnsynced { () throws(SQLiteError) in
            #expect(try journal.durability().synchronous == 1, "NORMAL inside the unsynced commit")
        }
        #expect(try journal.durability().synchronous == 2, "FULL again after it")
        try journal.transaction { () throws(SQLiteError) in
            #expect(try journal.durability().synchronous == 2)
        }
        // A failing body leaves it FULL too.
        #expect(throws: SQLiteError.self) {
            try journal.transactionUnsynced { () throws(SQLiteError) in
                throw SQLiteError(code: 1, message: "boom", path: box.journalPath)
            }
        }
        #expect(try journal.durability().synchronous == 2)
    }
}
