// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorStore
import CuratorSystem
import Glibc
import Testing

/// What the index file holds is checked as it is loaded: a value out of range for
/// what it stands for (only a corrupt or foreign file has one) drops its row and is
/// said, never trapped on, never truncated into another value.
@Suite struct IndexStoreTests {
    static func photo(_ id: Int64, root: Int32, folder: Int32, _ name: ByteString, inode: UInt64) -> Photo {
        Photo(id: id, rootID: root, folderID: folder, name: name,
              identity: FileIdentity(device: 1, inode: inode, size: 10, mtimeNs: 1), type: .jpeg, capture: .none, rank: 1)
    }

    @Test func valuesOutOfRangeDropTheirRowsAndAreSaid() throws {
        let dir = try ScratchDirectory()
        let path = dir.child("index.sqlite").lossyString
        let root: Int32
        do {
            let store = try IndexStore(path: path)
            root = try store.insertRoot(name: "pics", path: "/p")
            let folder = try store.insertFolder(rootID: root, path: "")
            try store.upsertPhoto(Self.photo(1, root: root, folder: folder, "a.jpg", inode: 1))
            // As a broken file could hold them, written behind the store's back.
            try store.database.execute("""
                INSERT INTO roots(id, name, path) VALUES(\(Int64(1) << 40), 'huge', x'2f71');
                INSERT INTO folders(id, root, path) VALUES(\(Int64(1) << 33), \(root), x'62');
                INSERT INTO folders(id, root, path) VALUES(77, \(Int64(1) << 40), x'63');
                INSERT INTO photos VALUES(2, \(Int64(1) << 33), x'622e6a7067', 10, 1, 1, 2, 'jpeg', 0, 1);
                INSERT INTO photos VALUES(3, 77, x'632e6a7067', 10, 1, 1, 3, 'jpeg', 0, 1);
                INSERT INTO photos VALUES(\(Int64.max), \(folder), x'642e6a7067', 10, 1, 1, 4, 'jpeg', 0, 1);
                INSERT INTO photos VALUES(-5, \(folder), x'652e6a7067', 10, 1, 1, 5, 'jpeg', 0, 1);
                INSERT INTO sessions VALUES(\((Int64(1) << 32) + 1000), 'mine', x'7b7d');
                INSERT INTO meta VALUES('reserved_photo_id', \(Int64.max));
                """)
        }
        let store = try IndexStore(path: path)
        let library = try PhotoLibrary(store: store)
        #expect(library.photos.values.map(\.id) == [1])
        #expect(library.folders.count == 1)
        #expect(try store.loadRoots().map(\.name) == ["pics"])
        #expect(try store.loadSessions().isEmpty, "uid 2^32 + 1000 is not uid 1000")
        #expect(store.droppedRows.count == 7, "\(store.droppedRows)")
        #expect(store.droppedRows.contains { $0.contains("folders row 8589934592") && $0.contains("not a 32-bit folder id") })
        #expect(store.droppedRows.contains { $0.contains("folders row 77") && $0.contains("root 1099511627776") })
        #expect(store.droppedRows.contains { $0.contains("photos row 9223372036854775807") })
        #expect(store.droppedRows.contains { $0.contains("reserved_photo_id") })
        // The rows are gone from the file, and ids go on from the good ones.
        let reopened = try IndexStore(path: path)
        #expect(try reopened.photoCount() == 1)
        #expect(try reopened.loadFolders().count == 1)
        let change = try library.batch {
            try library.upsert(root: root, folder: try #require(library.folderID(root: root, path: "")), name: "z.jpg",
                               identity: FileIdentity(device: 1, inode: 9, size: 1, mtimeNs: 1), type: .jpeg)
        }
        guard case .added(let added)? = change else { throw Failure("no photo added") }
        #expect(added.id == 2)
    }

    @Test func aNewRowIdPastThirtyTwoBitsIsAnErrorNotATrap() throws {
        let dir = try ScratchDirectory()
        let store = try IndexStore(path: dir.child("index.sqlite").lossyString)
        let root = try store.insertRoot(name: "pics", path: "/p")
        try store.database.execute("INSERT INTO folders(id, root, path) VALUES(\(Int32.max), \(root), x'62')")
        #expect(throws: IndexStoreError.self) { try store.insertFolder(rootID: root, path: "c") }
        try store.database.execute("INSERT INTO roots(id, name, path) VALUES(\(Int32.max), 'last', x'2f71')")
        #expect(throws: IndexStoreError.self) { try store.insertRoot(name: "next", path: "/r") }
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
