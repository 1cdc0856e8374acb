// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorStore

/// The photos' measures for the stack search, one row per measured photo.
extension IndexStore {
    static let createStackLooksSQL = """
        CREATE TABLE IF NOT EXISTS stack_looks(id INTEGER PRIMARY KEY, size INTEGER NOT NULL, mtime INTEGER NOT NULL,
            dhash INTEGER NOT NULL, sharpness REAL NOT NULL, camera INTEGER NOT NULL);
        """

    /// A table nothing else reads, added to an index of any schema when missing: it
    /// composes with every migration step, and a cache dropped for its schema
    /// drops it too.
    func addStackLooks() throws {
        try database.execute(Self.createStackLooksSQL)
    }

    func loadStackLooks() throws -> [Int64: StackLook] {
        let s = try database.prepare("SELECT id, size, mtime, dhash, sharpness, camera FROM stack_looks")
        var looks: [Int64: StackLook] = [:]
        while try s.step() {
            looks[s.int64(0)] = StackLook(size: s.int64(1), mtimeNs: s.int64(2), dHash: UInt64(bitPattern: s.int64(3)),
                                          sharpness: s.double(4), camera: UInt64(bitPattern: s.int64(5)))
        }
        return looks
    }

    func setStackLook(_ id: Int64, _ look: StackLook?) throws {
        guard let look else {
            try database.prepare("DELETE FROM stack_looks WHERE id = ?").bind(.int(id)).run()
            return
        }
        try database.prepare("INSERT OR REPLACE INTO stack_looks(id, size, mtime, dhash, sharpness, camera) VALUES(?,?,?,?,?,?)")
            .bind(.int(id), .int(look.size), .int(look.mtimeNs), .int(Int64(bitPattern: look.dHash)), .double(look.sharpness),
                  .int(Int64(bitPattern: look.camera))).run()
    }
}
