// SPDX-License-Identifier: GPL-2.0-or-later
import CSQLite

/// A prepared statement: prepared in `init`, finalized in `deinit`.
/// Parameters are bound, never spliced into SQL text, and exactly as many as the
/// SQL has: a missing one would silently be NULL, an extra one silently dropped.
public final class Statement {
    let handle: OpaquePointer
    unowned let database: Database
    public let sql: String
    /// How many `?` the SQL has.
    public let parameterCount: Int
    /// Whether values are bound since the last `reset` (which clears them).
    private var bound = false

    init(database: Database, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw database.error(rc, sql: sql) }
        handle = statement
        self.database = database
        self.sql = sql
        parameterCount = Int(sqlite3_bind_parameter_count(statement))
    }

    deinit { sqlite3_finalize(handle) }

    /// True between a first step that returned a row and the end of the run (the
    /// last row, a reset): someone is going through its rows.
    public var isBusy: Bool { sqlite3_stmt_busy(handle) != 0 }

    func stillRunning() -> SQLiteError {
        SQLiteError(code: SQLITE_MISUSE, message: "the statement is in use: a loop over its rows has not ended, "
                    + "and using it again would end that loop early", sql: sql, path: database.path)
    }

    /// Ends the statement's run (and its read transaction) and clears its bindings.
    public func reset() {
        database.exclusively("reset: \(sql)") {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
            bound = false
        }
    }

    public enum Value: Sendable {
        case int(Int64)
        case text(String)
        case blob([UInt8])
        case double(Double)
        case null
    }

    @discardableResult
    public func bind(_ values: Value...) throws(SQLiteError) -> Statement {
        try bind(values)
    }

    /// Binds `values` to the `?`s in order, after ending a run that had ended
    /// anyway. Refused: a count that differs from the SQL's, and a statement whose
    /// rows are being gone through (`isBusy`: binding would reset that loop).
    @discardableResult
    public func bind(_ values: [Value]) throws(SQLiteError) -> Statement {
        try database.exclusively("bind: \(sql)") { () throws(SQLiteError) in try bindValues(values) }
        return self
    }

    private func bindValues(_ values: [Value]) throws(SQLiteError) {
        guard values.count == parameterCount else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "\(values.count) values bound to a statement that takes \(parameterCount)",
                              sql: sql, path: database.path)
        }
        guard !isBusy else { throw stillRunning() }
        sqlite3_reset(handle)
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch value {
            case .int(let v): rc = sqlite3_bind_int64(handle, index, v)
            case .double(let v): rc = sqlite3_bind_double(handle, index, v)
            case .null: rc = sqlite3_bind_null(handle, index)
            case .text(let v): rc = sqlite3_bind_text(handle, index, v, -1, curator_sqlite_transient())
            case .blob(let v):
                rc = v.withUnsafeBytes { buf in
                    // A zero-length blob still needs a non-null pointer to be a blob, not NULL.
                    sqlite3_bind_blob(handle, index, buf.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buf.count), curator_sqlite_transient())
                }
            }
            if rc != SQLITE_OK { throw database.error(rc, sql: sql) }
        }
        bound = true
    }

    /// Advances; true when a row is available. A statement that takes values and
    /// has none bound is refused (each `?` would be NULL). After a failure the run
    /// is over (reset), so the statement is not left busy.
    public func step() throws(SQLiteError) -> Bool {
        try database.exclusively("step: \(sql)") { () throws(SQLiteError) -> Bool in
            guard bound || parameterCount == 0 else {
                throw SQLiteError(code: SQLITE_MISUSE, message: "no values bound to a statement that takes \(parameterCount)",
                                  sql: sql, path: database.path)
            }
            let rc = sqlite3_step(handle)
            switch rc {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            default:
                let error = database.error(rc, sql: sql)
                sqlite3_reset(handle)
                throw error
            }
        }
    }

    /// The first row, as `read` takes it, or nil when there is none; the statement
    /// is reset after. A statement left on a row keeps its read transaction open,
    /// and in WAL mode no checkpoint can pass it: the WAL then grows without end.
    public func firstRow<R>(_ read: (Statement) -> R) throws(SQLiteError) -> R? {
        try database.exclusively("firstRow: \(sql)") { () throws(SQLiteError) -> R? in
            defer { sqlite3_reset(handle) }
            guard try step() else { return nil }
            return read(self)
        }
    }

    /// Runs to completion, ignoring rows.
    public func run() throws(SQLiteError) {
        try database.exclusively("run: \(sql)") { () throws(SQLiteError) in
            while try step() {}
            sqlite3_reset(handle)
        }
    }

    public var columnCount: Int32 { sqlite3_column_count(handle) }

    public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    public func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    public func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    public func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    public func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    /// A blob's bytes where SQLite holds them, valid only inside `body` (until the
    /// next step or column read): loading a million rows made an `Array` of each
    /// name only to copy it again.
    public func withBlob<R>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        // The pointer first, then the count (SQLite's documented order for a blob).
        let pointer = sqlite3_column_blob(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: UInt8.self), count: count))
    }

    /// A text's UTF-8 bytes where SQLite holds them, valid only inside `body`.
    public func withText<R>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let pointer = sqlite3_column_text(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeBufferPointer(start: pointer, count: count))
    }
}
