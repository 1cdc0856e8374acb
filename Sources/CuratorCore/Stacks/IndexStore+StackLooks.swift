// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorStore

/// The photos' measures for the stack search, a row per chunk of consecutive photo
/// ids (`StackLookChunk`).
extension IndexStore {
    static let createStackLooksSQL = """
        CREATE TABLE IF NOT EXISTS stack_looks(chunk INTEGER PRIMARY KEY, looks BLOB NOT NULL);
        """

    /// A table nothing else reads, added to an index of any schema when missing: it
    /// composes with every migration step, and a cache dropped for its schema
    /// drops it too.
    func addStackLooks() throws {
        try database.execute(Self.createStackLooksSQL)
    }

    /// The step to version 7: the table of version 6 and before had a row per photo
    /// (its size and mtime, the hash, the sharpness as a real, a 64-bit camera); its
    /// measures are carried over into chunks, so that no photo is measured again.
    func packStackLooks() throws {
        let old = try database.prepare("SELECT COUNT(*) FROM pragma_table_info('stack_looks') WHERE name = 'dhash'")
            .firstRow { $0.int64(0) } ?? 0
        guard old > 0 else { return }
        try database.transaction {
            try database.execute("ALTER TABLE stack_looks RENAME TO stack_looks_v6")
            try addStackLooks()
            let s = try database.prepare("SELECT id, size, mtime, dhash, sharpness, camera FROM stack_looks_v6 ORDER BY id")
            var chunks: [Int64: StackLookChunk] = [:]
            while try s.step() {
                let id = s.int64(0)
                guard id > 0 else { continue }
                let camera = UInt64(bitPattern: s.int64(5))
                chunks[StackLookChunk.chunk(of: id), default: StackLookChunk()][StackLookChunk.slot(of: id)] = StackLook(
                    size: s.int64(1), mtimeNs: s.int64(2), dHash: UInt64(bitPattern: s.int64(3)), sharpness: s.double(4),
                    camera: CameraKey.narrowed(camera))
            }
            for (chunk, looks) in chunks { try storeChunk(chunk, looks) }
            try database.execute("DROP TABLE stack_looks_v6")
        }
    }

    func loadStackLooks() throws -> [Int64: StackLook] {
        let s = try database.prepare("SELECT chunk, looks FROM stack_looks")
        var looks: [Int64: StackLook] = [:]
        while try s.step() {
            let chunk = s.int64(0)
            // A chunk out of the ids' range or a blob of another shape (a corrupt or
            // foreign row) is left out: its photos are measured again.
            guard chunk >= 0, chunk < Int64.max / Int64(StackLookChunk.slots), let stored = StackLookChunk(bytes: s.blob(1)) else { continue }
            for slot in 0..<StackLookChunk.slots {
                if let look = stored[slot] { looks[StackLookChunk.firstID(of: chunk) + Int64(slot)] = look }
            }
        }
        return looks
    }

    func setStackLook(_ id: Int64, _ look: StackLook?) throws {
        let chunk = StackLookChunk.chunk(of: id)
        let stored = try database.prepare("SELECT looks FROM stack_looks WHERE chunk = ?").bind(.int(chunk))
            .firstRow { StackLookChunk(bytes: $0.blob(0)) }
        var looks = stored.flatMap { $0 } ?? StackLookChunk()
        looks[StackLookChunk.slot(of: id)] = look
        try storeChunk(chunk, looks)
    }

    private func storeChunk(_ chunk: Int64, _ looks: StackLookChunk) throws {
        if looks.isEmpty {
            try database.prepare("DELETE FROM stack_looks WHERE chunk = ?").bind(.int(chunk)).run()
        } else {
            try database.prepare("INSERT OR REPLACE INTO stack_looks(chunk, looks) VALUES(?, ?)").bind(.int(chunk), .blob(looks.bytes)).run()
        }
    }
}
