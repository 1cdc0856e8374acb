// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import CuratorTestSupport
import CuratorXMP
import Testing

/// The index keeps each sidecar's marks with the size and mtime they were read at.
@Suite struct SidecarMarksStoreTests {
    @Test func recordsComeBackAsStored() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.child("index.sqlite").lossyString
        let stored: [Int64: SidecarMarksRecord] = [
            7: SidecarMarksRecord(size: 10, mtimeNs: 20, marks: PhotoMarks(rating: 3, flag: .reject, label: .purple)),
            8: SidecarMarksRecord(size: 11, mtimeNs: 21, marks: PhotoMarks(rating: 0, flag: .pick)),
            // Says nothing: kept so, not as "unmarked".
            9: SidecarMarksRecord(size: 12, mtimeNs: 22, marks: nil),
            10: SidecarMarksRecord(size: 13, mtimeNs: 23, marks: .unmarked),
        ]
        do {
            let store = try IndexStore(path: path)
            for (id, record) in stored { try store.setSidecarMarks(id, record) }
            try store.setSidecarMarks(11, SidecarMarksRecord(size: 1, mtimeNs: 1, marks: nil))
            try store.setSidecarMarks(11, nil)
        }
        let records = try IndexStore(path: path).loadSidecarMarks()
        #expect(records == stored)
        #expect(records[7]?.isOf(size: 10, mtimeNs: 20) == true)
        #expect(records[7]?.isOf(size: 10, mtimeNs: 21) == false)
    }

    /// An index of version 5 gains the table in a step of its own, its photos and
    /// content hashes kept.
    @Test func aVersion5IndexIsMigrated() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.child("index.sqlite").lossyString
        do {
            let store = try IndexStore(path: path)
            try store.database.execute("INSERT INTO folders(id, root, path) VALUES(1, 1, x'')")
            try store.database.execute("""
                INSERT INTO photos(id, folder, name, size, mtime, dev, ino, type, capture, rank) VALUES(5, 1, x'612E6A7067', 3, 4, 1, 2, 'jpeg', 0, 0)
                """)
            try store.setContentHashes(5, HashRecord(size: 3, mtimeNs: 4, head: ContentHash(high: 5, low: 6)))
            try store.database.execute("DROP TABLE sidecar_marks")
            try store.database.setUserVersion(5)
        }
        let store = try IndexStore(path: path)
        #expect(try store.database.userVersion() == IndexStore.schemaVersion)
        #expect(try store.photoCount() == 1)
        #expect(try store.loadContentHashes().count == 1)
        #expect(try store.loadSidecarMarks().isEmpty)
        try store.setSidecarMarks(6, SidecarMarksRecord(size: 3, mtimeNs: 4, marks: PhotoMarks(rating: 2)))
        #expect(try store.loadSidecarMarks().count == 1)
    }
}
