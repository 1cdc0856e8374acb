// SPDX-License-Identifier: GPL-2.0-or-later

/// A failed SQLite call: the result code, SQLite's message, and the SQL or file involved.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    public let code: Int32
    public let message: String
    public let sql: String?
    public let path: String?

    public init(code: Int32, message: String, sql: String? = nil, path: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
        self.path = path
    }

    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let path { text += " in \(path)" }
        if let sql { text += " (\(sql.prefix(120)))" }
        return text
    }
}
