// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorStore

/// The photos' content hashes (exact duplicates), one row each of the photos that
/// share their size with another: most photos have none.
extension IndexStore {
    static let createContentHashesSQL = """
        CREATE TABLE IF NOT EXISTS content_hashes(id INTEGER PRIMARY KEY, size INTEGER NOT NULL, mtime INTEGER NOT NULL,
            head BLOB, full BLOB);
        """

    /// The step that adds the table to an index of the schema before it: on its
    /// own, so that it composes with any other migration (a table nothing else reads).
    func addContentHashes() throws {
        try database.execute(Self.createContentHashesSQL)
    }

    /// Every stored record by photo id; a hash of the wrong length is read as none
    /// (the file is then hashed again).
    func loadContentHashes() throws -> [Int64: HashRecord] {
        let s = try database.prepare("SELECT id, size, mtime, head, full FROM content_hashes")
        var records: [Int64: HashRecord] = [:]
        while try s.step() {
            records[s.int64(0)] = HashRecord(size: s.int64(1), mtimeNs: s.int64(2), head: Self.hash(s.blob(3)),
                                             full: Self.hash(s.blob(4)))
        }
        return records
    }

    func setContentHashes(_ id: Int64, _ record: HashRecord?) throws {
        guard let record else {
            try database.prepare("DELETE FROM content_hashes WHERE id = ?").bind(.int(id)).run()
            return
        }
        try database.prepare("INSERT OR REPLACE INTO content_hashes(id, size, mtime, head, full) VALUES(?,?,?,?,?)")
            .bind(.int(id), .int(record.size), .int(record.mtimeNs), Self.value(record.head), Self.value(record.full)).run()
    }

    private static func value(_ hash: ContentHash?) -> Statement.Value {
        guard let hash else { return .null }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for word in [hash.high, hash.low] {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return .blob(bytes)
    }

    private static func hash(_ bytes: [UInt8]) -> ContentHash? {
        guard bytes.count == 16 else { return nil }
        func word(_ start: Int) -> UInt64 { bytes[start..<(start + 8)].reduce(0) { $0 << 8 | UInt64($1) } }
        return ContentHash(high: word(0), low: word(8))
    }
}
