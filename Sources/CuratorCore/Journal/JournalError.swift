// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorStore

/// Why the journal could not be read or written. The journal is the one file
/// that cannot be rebuilt, so a value in it that this version does not know is
/// an error that names where it is, never a guess at what it meant.
enum JournalError: Error, Sendable, CustomStringConvertible {
    /// SQLite failed (I/O, a full disk, a corrupt file).
    case database(SQLiteError)
    /// A value this version does not know: in `table`, at `row`, `column` holds
    /// `value`; `known` says what it may hold.
    case unknownValue(path: String, table: String, row: String, column: String, value: String, known: String)

    var description: String {
        switch self {
        case .database(let error): "\(error)"
        case .unknownValue(let path, let table, let row, let column, let value, let known):
            "\(path): \(table) row \(row): \(column) \"\(value)\" is not one this curatord knows (\(known)); "
                + "the journal is left as it is"
        }
    }

    /// Runs SQLite work, its errors as `.database`.
    static func sql<R>(_ body: () throws(SQLiteError) -> R) throws(JournalError) -> R {
        do {
            return try body()
        } catch {
            throw .database(error)
        }
    }
}
