// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorStore

/// Sidecars are stored by 64 ids in a record (`SidecarRecord`), not a row each.
extension IndexStore {
    static let createSidecarsSQL =
        "CREATE TABLE IF NOT EXISTS sidecars(record INTEGER PRIMARY KEY, count INTEGER NOT NULL, rows BLOB NOT NULL);"

    /// Stores record `record` (`SidecarRecord`'s bytes of `count` sidecars); nil: the record goes.
    func setSidecars(record: Int64, _ stored: (bytes: [UInt8], count: Int)?) throws {
        photoWrites += 1
        guard let stored else {
            try statement(deleteSidecarsStatement, Self.deleteSidecarsSQL).bind(.int(record)).run()
            return
        }
        try statement(upsertSidecarsStatement, Self.upsertSidecarsSQL)
            .bind(.int(record), .int(Int64(stored.count)), .blob(stored.bytes)).run()
    }

    static let upsertSidecarsSQL = "INSERT OR REPLACE INTO sidecars(record, count, rows) VALUES(?, ?, ?)"
    static let deleteSidecarsSQL = "DELETE FROM sidecars WHERE record = ?"

    /// Sidecars stored, by the records' counts.
    func sidecarCount() throws -> Int {
        try database.prepare("SELECT COALESCE(SUM(count), 0) FROM sidecars").firstRow { Int($0.int64(0)) } ?? 0
    }

    /// The highest id of a stored sidecar that a load can read (0 for none).
    func maxSidecarID() throws -> Int64 {
        let s = try database.prepare("SELECT record, rows FROM sidecars WHERE record <= ? ORDER BY record DESC")
            .bind(.int(SidecarRecord.record(of: Self.photoIDs.upperBound)))
        while try s.step() {
            let record = s.int64(0)
            let rows = try? s.withBlob(1) { bytes throws(SidecarRecordError) in try SidecarRecord.decode(bytes, record: record) }
            if let last = rows?.last(where: { Self.photoIDs.contains($0.id) }) { return last.id }
        }
        return 0
    }

    /// The stored sidecars in id order, a record at a time: `loadPhotos` reads them
    /// between the photo rows, so that the load sees every row in id order.
    struct SidecarCursor {
        private let statement: Statement
        private var bytes: [UInt8] = []
        private var rows: [SidecarRecord.Row] = []
        private var next = 0
        private var ended = false
        /// Records that could not be read, each with what is wrong.
        private(set) var unreadable: [(record: Int64, why: String)] = []

        init(_ store: IndexStore) throws {
            statement = try store.database.prepare("SELECT record, rows FROM sidecars")
        }

        /// Calls `body` with each sidecar whose id is below `limit` not yet given,
        /// and its name's bytes (valid during the call).
        mutating func take(below limit: Int64, _ body: (SidecarRecord.Row, UnsafeBufferPointer<UInt8>) -> Void) throws {
            while true {
                if next == rows.count {
                    guard try readRecord() else { return }
                    continue
                }
                guard rows[next].id < limit else { return }
                let row = rows[next]
                next += 1
                bytes.withUnsafeBufferPointer { body(row, UnsafeBufferPointer(rebasing: $0[row.name])) }
            }
        }

        /// The next readable record into `rows`; false after the last.
        private mutating func readRecord() throws -> Bool {
            while !ended {
                guard try statement.step() else {
                    ended = true
                    break
                }
                let record = statement.int64(0)
                bytes = statement.blob(1)
                do {
                    rows = try bytes.withUnsafeBufferPointer { b throws(SidecarRecordError) in try SidecarRecord.decode(b, record: record) }
                    next = 0
                    if !rows.isEmpty { return true }
                } catch {
                    unreadable.append((record, error.description))
                    rows = []
                    next = 0
                }
            }
            return false
        }
    }
}
