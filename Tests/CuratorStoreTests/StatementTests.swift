// SPDX-License-Identifier: GPL-2.0-or-later
import CSQLite
@testable import CuratorStore
import Testing

/// What the SQLite wrapper takes from GRDB: as many values as the SQL has `?`s,
/// and a statement being gone through is never handed out again (a nested use
/// used to reset the outer loop without a word).
struct StatementTests {
    static let select = "SELECT id FROM t ORDER BY id"

    // MARK: arguments

    @Test(arguments: [[Statement.Value.int(9)], [.int(9), .text("x"), .null]])
    func aWrongNumberOfValuesIsRefusedNamingTheSQL(_ values: [Statement.Value]) throws {
        let scratch = try TemporaryDirectory()
        let database = try scratch.database()
        let sql = "INSERT INTO t(id, v) VALUES(?, ?)"
        do {
            try database.prepare(sql).bind(values).run()
            Issue.record("\(values.count) values were bound to two parameters")
        } catch {
            #expect(error.code == SQLITE_MISUSE)
            #expect(error.sql == sql)
            #expect(error.message == "\(values.count) values bound to a statement that takes 2")
            #expect(error.description.contains(sql))
        }
        #expect(try database.prepare("SELECT COUNT(*) FROM t").firstRow { $0.int(0) } == 0, "nothing was written")
    }

    /// Without any bind, every `?` would be NULL.
    @Test func aStatementThatTakesValuesIsNotRunWithoutThem() throws {
        let scratch = try TemporaryDirectory()
        let database = try scratch.database()
        let sql = "INSERT INTO t(v) VALUES(?)"
        #expect(throws: SQLiteError.self) { try database.prepare(sql).run() }
        // Bound once, it runs again with the same values; prepared anew, they are gone.
        let statement = try database.prepare(sql).bind(.text("a"))
        try statement.run()
        try statement.run()
        #expect(throws: SQLiteError.self) { try database.prepare(sql).run() }
        #expect(try database.prepare("SELECT COUNT(*) FROM t WHERE v = 'a'").firstRow { $0.int(0) } == 2)
        #expect(try database.prepare("SELECT COUNT(*) FROM t WHERE v IS NULL").firstRow { $0.int(0) } == 0)
    }

    @Test func aStatementWithoutParametersNeedsNoBind() throws {
        let scratch = try TemporaryDirectory()
        let database = try scratch.database(rows: 2)
        #expect(try database.prepare("SELECT COUNT(*) FROM t").firstRow { $0.int(0) } == 2)
        #expect(try database.prepare("SELECT COUNT(*) FROM t").bind([]).firstRow { $0.int(0) } == 2)
    }

    // MARK: a statement in use

    /// The outer loop goes through every row once. Before, the nested `prepare`
    /// reset the statement under it and handed it out: the outer loop started over
    /// at the first row, for as long as the nested use came back.
    @Test func aNestedUseOfAStatementBeingSteppedIsRefused() throws {
        let scratch = try TemporaryDirectory()
        let database = try scratch.database(rows: 3)
        let outer = try database.prepare(Self.select)
        var seen: [Int] = []
        var refused = 0
        while try outer.step(), seen.count < 10 {
            seen.append(outer.int(0))
            do {
                _ = try database.prepare(Self.select).firstRow { $0.int(0) }
            } catch {
                #expect(error.code == SQLITE_MISUSE)
                #expect(error.sql == Self.select)
                refused += 1
            }
        }
        #expect(seen == [1, 2, 3])
        #expect(refused == 3)
        // The loop is over: the statement is handed out again.
        #expect(!outer.isBusy)
        #expect(try database.prepare(Self.select).firstRow { $0.int(0) } == 1)
    }

    /// A statement held across calls (the index keeps its upsert) is not bound
    /// afresh under a loop going through it either.
    @Test func bindingAStatementBeingSteppedIsRefused() throws {
        let scratch = try TemporaryDirectory()
        let database = try scratch.database(rows: 3)
        let statement = try database.prepare("SELECT id FROM t WHERE id >= ? ORDER BY id").bind(.int(1))
        #expect(try statement.step())
        #expect(statement.isBusy)
        #expect(throws: SQLiteError.self) { try statement.bind(.int(3)) }
        #expect(try statement.step())
        #expect(statement.int(0) == 2, "the loop went on where it was")
    }

    /// Another SQL text is another statement: nesting those is what loops do.
    @Test func differentStatementsNest() throws {
        let scratch = try TemporaryDirectory()
        let database = try scratch.database(rows: 3)
        let outer = try database.prepare(Self.select)
        var pairs: [(Int, String)] = []
        while try outer.step() {
            let id = outer.int(0)
            let text = try database.prepare("SELECT v FROM t WHERE id = ?").bind(.int(Int64(id))).firstRow { $0.text(0) }
            pairs.append((id, text ?? "?"))
        }
        #expect(pairs.map(\.0) == [1, 2, 3])
        #expect(pairs.map(\.1) == ["row 1", "row 2", "row 3"])
    }

    /// A step that fails ends the run: the statement is not left busy (and refused ever after).
    @Test func aFailedStepLeavesTheStatementUsable() throws {
        let scratch = try TemporaryDirectory()
        let database = try scratch.database(rows: 1)
        let sql = "INSERT INTO t(id, v) VALUES(?, ?)"
        #expect(throws: SQLiteError.self) { try database.prepare(sql).bind(.int(1), .text("again")).run() }
        let statement = try database.prepare(sql)
        #expect(!statement.isBusy)
        try statement.bind(.int(2), .text("two")).run()
    }

    // MARK: errors

    @Test func aFailureCarriesTheCodeTheMessageTheSQLAndTheFile() throws {
        let scratch = try TemporaryDirectory()
        let database = try scratch.database()
        do {
            _ = try database.prepare("SELECT x FROM nowhere")
            Issue.record("prepared")
        } catch {
            #expect(error.code == SQLITE_ERROR)
            #expect(error.message == "no such table: nowhere")
            #expect(error.sql == "SELECT x FROM nowhere")
            #expect(error.path == scratch.file("test.sqlite"))
        }
        do {
            try database.prepare("INSERT INTO t(id, v) VALUES(?, ?)").bind(.int(1), .null).run()
            try database.prepare("INSERT INTO t(id, v) VALUES(?, ?)").bind(.int(1), .null).run()
            Issue.record("a duplicate key was inserted")
        } catch {
            #expect(error.code == SQLITE_CONSTRAINT | (6 << 8), "the extended code: SQLITE_CONSTRAINT_PRIMARYKEY")
        }
    }
}
