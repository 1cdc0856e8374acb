// SPDX-License-Identifier: GPL-2.0-or-later
import Glibc

/// A failed SQLite call: the result code, SQLite's message, and the SQL or file involved.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    public let code: Int32
    public let message: String
    public let sql: String?
    public let path: String?
    /// The errno behind an I/O failure (a full disk, a read-only remount), when SQLite kept one.
    public let systemErrno: Int32?

    public init(code: Int32, message: String, sql: String? = nil, path: String? = nil, systemErrno: Int32? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
        self.path = path
        self.systemErrno = systemErrno
    }

    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let path { text += " in \(path)" }
        if let systemErrno { text += " (errno \(systemErrno): \(String(cString: strerror(systemErrno))))" }
        if let sql { text += " (\(sql.prefix(120)))" }
        return text
    }
}
