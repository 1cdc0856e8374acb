// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorStore
import CuratorSystem
import Glibc
import Testing

/// The journal cannot be rebuilt: a value in it that this version does not know is
/// an error naming the table, the row and the value, and the file is left exactly
/// as it was for a human; never a guess (an unknown state read as `interrupted`
/// would have recovery act on a photo it knows nothing true about).
@Suite("Journal: unknown values are refused, not guessed")
struct JournalStrictnessTests {
    /// A journal with one batch of three photos, closed; then `sql` run on the file
    /// as a person (or a newer curatord) would.
    static func journal(editedWith sql: String) throws -> Sandbox {
        let box = try Sandbox()
        do {
            let journal = try Journal(path: box.journalPath)
            let items = (1...3).map {
                BatchPlanItem(photoID: $0, rootName: "pics", rootPath: "/srv/photos", relativePath: ByteString("p\($0).jpg"),
                              identity: FileIdentity(device: 1, inode: UInt64($0), size: 10, mtimeNs: 1))
            }
            let id = try journal.createBatch(uid: 1000, session: "s", createdNanoseconds: 1, items: items)
            try journal.setBatchState(id, .done, undoRunning: false)
        }
        let database = try Database(path: box.journalPath, durability: .full)
        try database.execute(sql)
        try database.checkpoint()
        return box
    }

    static func bytes(_ box: Sandbox) -> [UInt8]? { Sandbox.read(ByteString(box.journalPath)) }

    static func refusal(_ box: Sandbox) -> JournalError? {
        do {
            _ = try Journal(path: box.journalPath)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        ("UPDATE items SET state = 'flying' WHERE step = 2", "items", "batch 1, step 2", "state", "flying"),
        ("UPDATE items SET outcome = 'vaporised' WHERE step = 3", "items", "batch 1, step 3", "outcome", "vaporised"),
        ("UPDATE batches SET state = 'paused' WHERE id = 1", "batches", "id 1", "state", "paused"),
        ("UPDATE batches SET uid = 4294968296 WHERE id = 1", "batches", "id 1", "uid", "4294968296"),
        ("PRAGMA user_version = 7", "journal", "PRAGMA", "user_version", "7"),
    ])
    func anUnknownValueIsRefusedAtOpenAndTheFileLeftAsItIs(_ edit: (sql: String, table: String, row: String, column: String, value: String)) throws {
        let box = try Self.journal(editedWith: edit.sql)
        let before = Self.bytes(box)
        let error = try #require(Self.refusal(box), "opened a journal holding \(edit.value)")
        guard case .unknownValue(let path, let table, let row, let column, let value, _) = error else {
            Issue.record("not an unknown value: \(error)")
            return
        }
        #expect(path == box.journalPath && table == edit.table && row == edit.row && column == edit.column && value == edit.value)
        #expect(error.description.contains("\(edit.table) row \(edit.row): \(edit.column) \"\(edit.value)\""), "\(error)")
        #expect(Self.bytes(box) == before, "the journal is left as it was")

        // The batch engine, and so the daemon's start-up, refuses it the same way.
        let refused = try #require(throws: BatchError.self) { try box.runner() }
        #expect(refused.code == .journalUnreadable && refused.message.contains("\"\(edit.value)\""), "\(refused)")
        #expect(Self.bytes(box) == before)
    }

    /// A value changed under a running daemon is refused where it is read, and the
    /// request fails with the place named: nothing is decided on a guess.
    @Test func aValueChangedWhileOpenIsRefusedWhereItIsRead() throws {
        let box = try Self.journal(editedWith: "SELECT 1")
        let runner = try box.runner()
        let other = try Database(path: box.journalPath, durability: .full)
        try other.execute("UPDATE items SET state = 'flying' WHERE step = 2")
        let error = try #require(throws: BatchError.self) { try runner.result(of: 1) }
        #expect(error.code == .journalUnreadable)
        #expect(error.message.contains("items row batch 1, step 2: state \"flying\""), "\(error)")
        try other.execute("UPDATE items SET state = 'skipped' WHERE step = 2; UPDATE batches SET state = 'paused'")
        let history = try #require(throws: BatchError.self) { try runner.history(uid: nil) }
        #expect(history.message.contains("batches row id 1: state \"paused\""), "\(history)")
    }

    @Test func everyKnownValueIsRead() throws {
        let box = try Self.journal(editedWith: "SELECT 1")
        let database = try Database(path: box.journalPath, durability: .full)
        var step: Int64 = 100
        for state in JournalItemState.allCases {
            for outcome in PhotoOutcome.allCases {
                step += 1
                try database.prepare("""
                    INSERT INTO items(batch, step, photo, root_name, root_path, rel_path, dev, ino, size, mtime_ns, state, outcome)
                    VALUES(1, ?, 1, 'pics', x'2f', x'61', 1, 1, 1, 1, ?, ?)
                    """).bind(.int(step), .text(state.rawValue), .text(outcome.rawValue)).run()
            }
        }
        for state in BatchState.allCases {
            try database.prepare("INSERT INTO batches(uid, session, created_ns, state) VALUES(0, 's', 1, ?)").bind(.text(state.rawValue)).run()
        }
        let journal = try Journal(path: box.journalPath)
        #expect(try journal.recentBatches(uid: nil, limit: 100).count == BatchState.allCases.count + 1)
        #expect(try journal.items(of: 1).count > 3)
    }
}
