// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import CuratorTestSupport
import Testing

/// The index keeps each photo's stack measures, packed a chunk of photos a row, with
/// a check of the size and mtime they were made of.
@Suite struct StackLookStoreTests {
    private func look(_ id: Int64, size: Int64 = 1000, mtimeNs: Int64 = 2000) -> StackLook {
        StackLook(size: size + id, mtimeNs: mtimeNs, dHash: 0xF0E1_D2C3_B4A5_9687 ^ UInt64(id), sharpness: 10 * Double(id),
                  camera: CameraKey.key(make: "Canon", model: "EOS \(id % 3)", serial: nil))
    }

    @Test func measuresComeBackAsStoredAndOnlyForTheirFile() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.child("index.sqlite").lossyString
        let ids: [Int64] = [1, 2, 19, 20, 21, 31, 100, 1 << 40]
        do {
            let store = try IndexStore(path: path)
            for id in ids { try store.setStackLook(id, look(id)) }
            try store.setStackLook(2, nil)
            try store.setStackLook(100, nil)
        }
        let store = try IndexStore(path: path)
        let looks = try store.loadStackLooks()
        #expect(looks == Dictionary(uniqueKeysWithValues: ids.filter { $0 != 2 && $0 != 100 }.map { ($0, look($0)) }))
        #expect(looks[31]?.valid(size: 1031, mtimeNs: 2000) != nil)
        #expect(looks[31]?.valid(size: 1031, mtimeNs: 2001) == nil)
        #expect(looks[31]?.valid(size: 1030, mtimeNs: 2000) == nil)
        // A chunk whose last photo left is no row.
        #expect(try store.database.prepare("SELECT COUNT(*) FROM stack_looks WHERE chunk = ?").bind(.int(100 / Int64(StackLookChunk.slots)))
            .firstRow { $0.int64(0) } == 0)
    }

    /// Stored as read back: the sharpness on its scale orders frames as the measure
    /// does, and keeps its value within a small fraction.
    @Test func theSharpnessKeepsItsOrder() {
        let measures: [Double] = [0, 0.5, 1, 12.25, 12.5, 400, 401, 65_000, 4e9]
        let stored = measures.map { StackLook(size: 1, mtimeNs: 1, dHash: 0, sharpness: $0, camera: 0).sharpness }
        #expect(stored == stored.sorted() && Set(stored).count == measures.count)
        for (measure, back) in zip(measures, stored) { #expect(abs(back - measure) <= measure * 0.001) }
    }

    /// The bound: the duplicate search and the stack search together add at
    /// most 24 bytes a photo to the index, every photo measured and one in twenty
    /// sharing its size with another (content hashes).
    @Test func theIndexGrowsAtMost24BytesAPhoto() throws {
        let scratch = try ScratchDirectory()
        let store = try IndexStore(path: scratch.child("index.sqlite").lossyString)
        func bytes() throws -> Int64 {
            try store.database.execute("VACUUM")
            return try store.database.prepare("SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()")
                .firstRow { $0.int64(0) } ?? 0
        }
        let before = try bytes()
        let photos: Int64 = 20_000
        try store.database.transaction {
            for id in 1...photos {
                try store.setStackLook(id, look(id, size: 3_000_000, mtimeNs: 1_700_000_000_000_000_000 + id))
                if id % 20 == 0 {
                    let hash = ContentHash(high: UInt64(id) &* 0x9E37_79B9_7F4A_7C15, low: UInt64(id))
                    try store.setContentHashes(id, HashRecord(size: 3_000_000 + id, mtimeNs: 1_700_000_000_000_000_000 + id,
                                                              head: hash, full: hash))
                }
            }
        }
        let perPhoto = Double(try bytes() - before) / Double(photos)
        #expect(perPhoto <= 24, "\(perPhoto) bytes a photo")
    }

    /// An index of version 6 (a row per photo, the size and mtime in full, the
    /// sharpness a real, a 64-bit camera) keeps its measures through the step to
    /// version 7, and its photos and hashes.
    @Test func aVersion6IndexIsMigratedWithItsMeasures() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.child("index.sqlite").lossyString
        let wideCamera: UInt64 = 0xDEAD_BEEF_0000_0000  // its low half 0: must not read as no camera
        do {
            let store = try IndexStore(path: path)
            try store.database.execute("INSERT INTO folders(id, root, path) VALUES(1, 1, x'')")
            try store.database.execute("""
                INSERT INTO photos(id, folder, name, size, mtime, dev, ino, type, capture, rank) VALUES(5, 1, x'612E6A7067', 3, 4, 1, 2, 'jpeg', 0, 0)
                """)
            try store.setContentHashes(5, HashRecord(size: 3, mtimeNs: 4, head: ContentHash(high: 5, low: 6)))
            try store.database.execute("""
                DROP TABLE stack_looks;
                CREATE TABLE stack_looks(id INTEGER PRIMARY KEY, size INTEGER NOT NULL, mtime INTEGER NOT NULL,
                    dhash INTEGER NOT NULL, sharpness REAL NOT NULL, camera INTEGER NOT NULL);
                """)
            for (id, size, mtime, dhash, sharpness, camera) in [
                (Int64(5), Int64(3), Int64(4), Int64(bitPattern: 0xFFFF_0000_FFFF_0000), 412.5, Int64(bitPattern: wideCamera)),
                (Int64(40), Int64(7_000_000), Int64(1_700_000_000_123_456_789), Int64(0x0123), 3.0, Int64(0)),
            ] {
                try store.database.prepare("INSERT INTO stack_looks(id, size, mtime, dhash, sharpness, camera) VALUES(?,?,?,?,?,?)")
                    .bind(.int(id), .int(size), .int(mtime), .int(dhash), .double(sharpness), .int(camera)).run()
            }
            try store.database.setUserVersion(6)
        }
        let store = try IndexStore(path: path)
        #expect(try store.database.userVersion() == IndexStore.schemaVersion)
        #expect(try store.photoCount() == 1)
        #expect(try store.loadContentHashes().count == 1)
        let looks = try store.loadStackLooks()
        #expect(looks.count == 2)
        #expect(looks[5] == StackLook(size: 3, mtimeNs: 4, dHash: 0xFFFF_0000_FFFF_0000, sharpness: 412.5, camera: CameraKey.narrowed(wideCamera)))
        #expect(looks[5]?.valid(size: 3, mtimeNs: 4) != nil && looks[5]?.camera != CameraKey.unknown)
        #expect(looks[40]?.valid(size: 7_000_000, mtimeNs: 1_700_000_000_123_456_789) != nil)
        #expect(looks[40]?.camera == CameraKey.unknown && looks[40]?.dHash == 0x0123)
        #expect(try store.database.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'stack_looks_v6'").firstRow { $0.int64(0) } == 0)
    }
}
