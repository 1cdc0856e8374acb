// SPDX-License-Identifier: GPL-2.0-or-later
import CSQLite
@testable import CuratorStore
import CuratorSystem
import Foundation
import Glibc
import Synchronization
import Testing

/// The connection itself: WAL, private files, what `firstRow` does for the WAL,
/// transactions, and the check that one thread at a time is in it.
struct DatabaseTests {
    /// (The umask is the whole test process's: it is left as it is, 022 or so.)
    @Test func aDatabaseIsWALAndItsFilesArePrivate() throws {
        let scratch = try TemporaryDirectory()
        let database = try scratch.database(rows: 1)
        #expect(try database.prepare("PRAGMA journal_mode").firstRow { $0.text(0) } == "wal")
        #expect(scratch.mode("test.sqlite") == 0o600)
        #expect(scratch.mode("test.sqlite-wal") == 0o600)
        #expect(scratch.mode("test.sqlite-shm") == 0o600)
    }

    @Test func filesLeftOpenToOthersAreMadePrivateAtTheNextOpen() throws {
        let scratch = try TemporaryDirectory()
        do { _ = try scratch.database(rows: 1) }
        for name in ["test.sqlite", "test.sqlite-wal", "test.sqlite-shm"] where scratch.mode(name) != nil {
            chmod(scratch.file(name), 0o644)
        }
        let database = try scratch.database()
        #expect(try database.prepare("SELECT COUNT(*) FROM t").firstRow { $0.int(0) } == 1)
        #expect(scratch.mode("test.sqlite") == 0o600)
        #expect(scratch.mode("test.sqlite-wal") == 0o600)
    }

    #if CURATOR_FAULT_INJECTION
    /// A file that cannot be made private is not opened, and the error says why and where.
    @Test func aDatabaseThatCannotBeMadePrivateIsNotOpened() throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.file("test.sqlite")
        _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644])
        let plan = FaultPlan(Fault(.fchmod, .fail(.notPermitted)))
        do {
            _ = try plan.run { () throws(SQLiteError) in try Database(path: path) }
            Issue.record("opened a file readable by others")
        } catch {
            #expect(error.code == SQLITE_CANTOPEN)
            #expect(error.systemErrno == EPERM)
            #expect(error.path == path)
            #expect(error.message == "fchmod: Operation not permitted")
        }
        #expect(plan.missed.isEmpty)
    }
    #endif

    /// `firstRow` ends the statement's read transaction: another connection can
    /// then truncate the WAL. A statement left on its row pins it.
    @Test func firstRowLetsTheWALBeCheckpointed() throws {
        let scratch = try TemporaryDirectory()
        let reader = try scratch.database(rows: 100)
        let checkpointer = try Database(path: scratch.file("test.sqlite"))
        sqlite3_busy_timeout(checkpointer.handle, 50)  // refused at once, not after 5 s
        #expect(try reader.prepare("SELECT v FROM t WHERE id = ?").bind(.int(5)).firstRow { $0.text(0) } == "row 5")
        try checkpointer.checkpoint()
        #expect(scratch.size("test.sqlite-wal") == 0)

        try reader.prepare("INSERT INTO t(v) VALUES(?)").bind(.text("more")).run()
        let pinned = try reader.prepare("SELECT v FROM t ORDER BY id")
        #expect(try pinned.step())
        #expect(throws: SQLiteError.self, "a statement on a row holds the WAL") { try checkpointer.checkpoint() }
        pinned.reset()
        try checkpointer.checkpoint()
        #expect(scratch.size("test.sqlite-wal") == 0)
    }

    @Test func aTransactionRollsBackWhatItsBodyDidWhenTheBodyThrows() throws {
        struct Refused: Error {}
        let scratch = try TemporaryDirectory()
        let database = try scratch.database(rows: 1)
        #expect(throws: Refused.self) {
            try database.transaction {
                try database.prepare("INSERT INTO t(v) VALUES(?)").bind(.text("gone")).run()
                throw Refused()
            }
        }
        #expect(try database.prepare("SELECT COUNT(*) FROM t").firstRow { $0.int(0) } == 1)
        try database.transaction { try database.prepare("INSERT INTO t(v) VALUES(?)").bind(.text("kept")).run() }
        #expect(try database.prepare("SELECT COUNT(*) FROM t").firstRow { $0.int(0) } == 2)
        #expect(database.changes == 1)
        #expect(database.lastInsertRowID == 2)
    }

    @Test func theUserVersionIsKept() throws {
        let scratch = try TemporaryDirectory()
        do {
            let database = try scratch.database()
            #expect(try database.userVersion() == 0)
            try database.setUserVersion(7)
        }
        #expect(try scratch.database().userVersion() == 7)
    }

    // MARK: one thread at a time

    #if DEBUG
    /// Connections are opened NOMUTEX: a second thread in one while the first is
    /// (here: inside a transaction) is reported. In the daemon the report is a
    /// trap; the test records it instead.
    @Test func aSecondThreadInTheConnectionIsReported() throws {
        let scratch = try TemporaryDirectory()
        let database = try scratch.database(rows: 1)
        let reports = Mutex<[String]>([])
        database.user.onViolation = { message in reports.withLock { $0.append(message) } }
        let inside = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let box = UncheckedBox(database)
        Thread.detachNewThread {
            inside.wait()
            try? box.value.execute("SELECT 1")
            done.signal()
        }
        try database.transaction {
            try database.prepare("INSERT INTO t(v) VALUES(?)").bind(.text("mine")).run()  // the same thread again: fine
            inside.signal()
            done.wait()
        }
        let seen = reports.withLock { $0 }
        #expect(seen.count == 1, "\(seen)")
        #expect(seen.first?.hasPrefix("\(scratch.file("test.sqlite")): SELECT 1 on thread ") == true, "\(seen)")
        #expect(seen.first?.contains("while thread") == true)
    }

    /// One thread after another, as the index is used under the state lock: no report.
    @Test func threadsTakingTurnsAreFine() throws {
        let scratch = try TemporaryDirectory()
        let database = try scratch.database(rows: 1)
        let reports = Mutex<[String]>([])
        database.user.onViolation = { message in reports.withLock { $0.append(message) } }
        let box = UncheckedBox(database)
        for _ in 0..<3 {
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                try? box.value.prepare("INSERT INTO t(v) VALUES(?)").bind(.text("turn")).run()
                done.signal()
            }
            done.wait()
            #expect(try database.prepare("SELECT COUNT(*) FROM t").firstRow { $0.int(0) } ?? 0 > 1)
        }
        #expect(reports.withLock { $0 }.isEmpty)
        #expect(try database.prepare("SELECT COUNT(*) FROM t").firstRow { $0.int(0) } == 4)
    }
    #endif
}

/// Hands a non-Sendable value to another thread.
final class UncheckedBox<T>: @unchecked Sendable {
    // @unchecked: the tests order every use of `value` with semaphores.
    let value: T
    init(_ value: T) { self.value = value }
}
