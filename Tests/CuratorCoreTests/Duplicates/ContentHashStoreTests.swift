// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import CuratorTestSupport
import Testing

/// The index keeps content hashes with the size and mtime they were made of.
@Suite struct ContentHashStoreTests {
    @Test func recordsComeBackAsStored() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.child("index.sqlite").lossyString
        let full = ContentHash(high: 0x0102_0304_0506_0708, low: 0xF0E0_D0C0_B0A0_9080)
        do {
            let store = try IndexStore(path: path)
            try store.setContentHashes(7, HashRecord(size: 10, mtimeNs: 20, head: ContentHash(high: 1, low: 2), full: full))
            try store.setContentHashes(8, HashRecord(size: 11, mtimeNs: 21, head: ContentHash(high: 3, low: 4)))
            try store.setContentHashes(9, HashRecord(size: 12, mtimeNs: 22))
            try store.setContentHashes(9, nil)
        }
        let records = try IndexStore(path: path).loadContentHashes()
        #expect(records == [7: HashRecord(size: 10, mtimeNs: 20, head: ContentHash(high: 1, low: 2), full: full),
                            8: HashRecord(size: 11, mtimeNs: 21, head: ContentHash(high: 3, low: 4))])
        #expect(records[7]?.valid(size: 10, mtimeNs: 20) != nil)
        #expect(records[7]?.valid(size: 10, mtimeNs: 21) == nil)
        #expect(records[7]?.valid(size: 9, mtimeNs: 20) == nil)
    }

    /// An index of version 4 gains the table in a step of its own, its photos kept.
    @Test func aVersion4IndexIsMigrated() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.child("index.sqlite").lossyString
        do {
            let store = try IndexStore(path: path)
            try store.database.execute("INSERT INTO folders(id, root, path) VALUES(1, 1, x'')")
            try store.database.execute("""
                INSERT INTO photos(id, folder, name, size, mtime, dev, ino, type, capture, rank) VALUES(5, 1, x'612E6A7067', 3, 4, 1, 2, 'jpeg', 0, 0)
                """)
            try store.database.execute("DROP TABLE content_hashes")
            try store.database.setUserVersion(4)
        }
        let store = try IndexStore(path: path)
        #expect(try store.database.userVersion() == IndexStore.schemaVersion)
        #expect(try store.photoCount() == 1)
        #expect(try store.loadContentHashes().isEmpty)
        try store.setContentHashes(5, HashRecord(size: 3, mtimeNs: 4, head: ContentHash(high: 5, low: 6)))
        #expect(try store.loadContentHashes().count == 1)
    }
}
