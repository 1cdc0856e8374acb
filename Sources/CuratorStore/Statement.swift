// SPDX-License-Identifier: GPL-2.0-or-later
import CSQLite

/// A prepared statement: prepared in `init`, finalized in `deinit`.
/// Parameters are bound, never spliced into SQL text.
public final class Statement {
    let handle: OpaquePointer
    unowned let database: Database
    public let sql: String

    init(database: Database, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw database.error(rc, sql: sql) }
        handle = statement
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Ends the statement's run (and its read transaction) and clears its bindings.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    public enum Value {
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

    @discardableResult
    public func bind(_ values: [Value]) throws(SQLiteError) -> Statement {
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
        return self
    }

    /// Advances; true when a row is available.
    public func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.error(rc, sql: sql)
        }
    }

    /// The first row, as `read` takes it, or nil when there is none; the statement
    /// is reset after. A statement left on a row keeps its read transaction open,
    /// and in WAL mode no checkpoint can pass it: the WAL then grows without end.
    public func firstRow<R>(_ read: (Statement) -> R) throws(SQLiteError) -> R? {
        defer { sqlite3_reset(handle) }
        guard try step() else { return nil }
        return read(self)
    }

    /// Runs to completion, ignoring rows.
    public func run() throws(SQLiteError) {
        while try step() {}
        sqlite3_reset(handle)
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
}
