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

    /// A commit that grows the WAL past `checkpointFrames` pages copies nothing into
    /// the main file itself (SQLite's automatic checkpoint did, inside the commit and
    /// so inside the state lock): it asks the index's checkpointer, whose pass then
    /// copies the WAL on its own thread, and the next commit starts the WAL over.
    /// Below that, nothing is copied until `checkpointSoon` (a scan is over).
    @Test func theWALIsCheckpointedBesideTheWriterNotInItsCommit() throws {
        let dir = try ScratchDirectory()
        let path = dir.child("index.sqlite").lossyString
        let store = try IndexStore(path: path)
        store.checkpointFrames = 300
        func mainFileBytes() -> Int {
            var status = stat()
            return stat(path, &status) == 0 ? Int(status.st_size) : -1
        }
        func passes() -> Int { store.checkpointer.passes.load(ordering: .acquiring) }
        func waitForPasses(_ count: Int) {
            let deadline = MonotonicClock.nanoseconds() + 10_000_000_000
            while passes() < count && MonotonicClock.nanoseconds() < deadline { usleep(2000) }
        }
        func write(pages: Int) throws {
            try store.begin()
            for _ in 0..<pages { try store.database.execute("INSERT INTO filler VALUES(zeroblob(4000))") }
            try store.commit()
        }
        try store.database.execute("CREATE TABLE filler(x BLOB)")
        let before = mainFileBytes()
        // Below the threshold: no pass asked, nothing copied.
        try write(pages: 100)
        #expect(store.database.walFrames >= 100)
        usleep(50_000)
        #expect(passes() == 0)
        #expect(mainFileBytes() == before)
        var failure: (any Error)?
        store.checkpointer.holdingPasses {
            do { try write(pages: 250) } catch { failure = error }
            #expect(store.database.walFrames > store.checkpointFrames)
            #expect(mainFileBytes() == before, "the commit checkpointed: \(before) bytes became \(mainFileBytes())")
        }
        if let failure { throw failure }
        waitForPasses(1)
        #expect(passes() == 1)
        #expect(mainFileBytes() > 300 * 4096, "the pass copied the WAL into the main file")
        try write(pages: 1)
        #expect(store.database.walFrames < 10, "the WAL started over: \(store.database.walFrames) frames")
        // A burst below the threshold, then the scan's end: one pass, asked once.
        let copied = mainFileBytes()
        try write(pages: 200)
        store.checkpointSoon()
        store.checkpointSoon()
        waitForPasses(2)
        usleep(50_000)
        #expect(passes() == 2)
        #expect(mainFileBytes() > copied + 150 * 4096)
    }

    /// At shutdown the index is checkpointed in full (`TRUNCATE`), which SQLite
    /// refuses while the checkpointer's own pass runs (a scan that just finished asks
    /// for one): `close` waits for that pass, and no pass starts after it.
    @Test func theLastCheckpointWaitsForAPassThatIsRunning() throws {
        let dir = try ScratchDirectory()
        for attempt in 0..<4 {
            let path = dir.child(ByteString("last-checkpoint-\(attempt).sqlite")).lossyString
            let store = try IndexStore(path: path)
            try store.database.execute("CREATE TABLE filler(x BLOB)")
            try store.begin()
            for _ in 0..<4000 { try store.database.execute("INSERT INTO filler VALUES(zeroblob(4000))") }
            try store.commit()
            store.checkpointSoon()
            // The pass starts copying some 16 MB (tens of milliseconds); the shutdown's
            // checkpoint comes while it runs.
            usleep(1000)
            store.checkpointer.close()
            try store.database.checkpoint()
            var status = stat()
            #expect(stat(path + "-wal", &status) == 0 && status.st_size == 0, "the WAL was not truncated")
            // A pass asked after `close` copies nothing.
            let copied = stat(path, &status) == 0 ? status.st_size : -1
            try store.begin()
            for _ in 0..<500 { try store.database.execute("INSERT INTO filler VALUES(zeroblob(4000))") }
            try store.commit()
            let before = store.checkpointer.passes.load(ordering: .acquiring)
            store.checkpointer.request()
            let deadline = MonotonicClock.nanoseconds() + 10_000_000_000
            while store.checkpointer.passes.load(ordering: .acquiring) == before && MonotonicClock.nanoseconds() < deadline { usleep(1000) }
            #expect(store.checkpointer.passes.load(ordering: .acquiring) == before + 1)
            #expect(stat(path, &status) == 0 && status.st_size == copied, "a pass after close copied the WAL")
        }
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
                INSERT INTO photos VALUES(2, \(Int64(1) << 33), x'622e6a7067', 10, 1, 1, 2, 'jpeg', 0, 1, 0, 0, 0);
                INSERT INTO photos VALUES(3, 77, x'632e6a7067', 10, 1, 1, 3, 'jpeg', 0, 1, 0, 0, 0);
                INSERT INTO photos VALUES(\(Int64.max), \(folder), x'642e6a7067', 10, 1, 1, 4, 'jpeg', 0, 1, 0, 0, 0);
                INSERT INTO photos VALUES(-5, \(folder), x'652e6a7067', 10, 1, 1, 5, 'jpeg', 0, 1, 0, 0, 0);
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

    /// A name no file system has (longer than the name arena holds) drops its row;
    /// loading it trapped before.
    @Test func aStoredNameTooLongForAFileDropsItsRow() throws {
        let dir = try ScratchDirectory()
        let path = dir.child("index.sqlite").lossyString
        do {
            let store = try IndexStore(path: path)
            let root = try store.insertRoot(name: "pics", path: "/p")
            let folder = try store.insertFolder(rootID: root, path: "")
            try store.upsertPhoto(Self.photo(1, root: root, folder: folder, "a.jpg", inode: 1))
            try store.database.execute("INSERT INTO photos VALUES(2, \(folder), zeroblob(70000), 10, 1, 1, 2, 'jpeg', 0, 1, 2, 0, 0)")
        }
        let store = try IndexStore(path: path)
        let library = try PhotoLibrary(store: store)
        #expect(library.photos.values.map(\.id) == [1])
        #expect(store.droppedRows.count == 1 && store.droppedRows.first?.contains("photos row 2") == true, "\(store.droppedRows)")
        #expect(try IndexStore(path: path).photoCount() == 1)
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

/// Memory and `index.sqlite` never disagree: a transaction that fails half-way
/// (here SQLite itself refuses a row, through a trigger in the real file) is rolled
/// back in both, and the ids handed out in it are not lost to a restart.
@Suite struct LibraryRollbackTests {
    /// What a library holds, in a form two libraries can be compared by.
    struct Snapshot: Equatable {
        var photos: [Int64: Photo]
        var folders: [Int32: Folder]
        var byName: [String: Int64]
        var byInode: [Int64: Int64]
        var members: [Int32: [String]]
        var counts: [Int32: Int]
        var bytes: [Int32: Int64]
        var pending: [Int32: Int]
        var below: [Int32: [Int32]]

        init(_ library: PhotoLibrary, root: Int32) {
            photos = Dictionary(uniqueKeysWithValues: library.photos.values.map { ($0.id, $0) })
            folders = library.folders
            byName = [:]
            byInode = [:]
            for photo in photos.values {
                byName[library.relativePath(of: photo).lossyString] = library.photoID(root: root, relativePath: library.relativePath(of: photo))
                byInode[Int64(photo.identity.inode)] = library.photoID(device: photo.identity.device, inode: photo.identity.inode)
            }
            members = Dictionary(uniqueKeysWithValues: library.folders.keys.map { id in
                (id, library.members(ofFolder: id).map { "\($0.name.lossyString)=\($0.id)" })
            })
            counts = library.countByRoot.filter { $0.value != 0 }
            bytes = library.bytesByRoot.filter { $0.value != 0 }
            pending = library.pendingCaptureByRoot.filter { $0.value != 0 }
            below = Dictionary(uniqueKeysWithValues: library.folders.values.map { folder in
                (folder.id, library.folders(root: root, within: folder.path).map(\.id).sorted())
            })
        }
    }

    final class Fixture {
        let dir: ScratchDirectory
        let path: String
        var library: PhotoLibrary
        let root: Int32

        init() throws {
            dir = try ScratchDirectory()
            path = dir.child("index.sqlite").lossyString
            let store = try IndexStore(path: path)
            root = try store.insertRoot(name: "pics", path: "/p")
            // SQLite refuses any photo named boom.jpg: a failure in the middle of a transaction.
            try store.database.execute("""
                CREATE TRIGGER refuse_boom BEFORE INSERT ON photos WHEN NEW.name = CAST('boom.jpg' AS BLOB)
                BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;
                """)
            library = try PhotoLibrary(store: store)
        }

        func reopened() throws -> PhotoLibrary { try PhotoLibrary(store: IndexStore(path: path)) }

        func add(_ path: ByteString, inode: UInt64) throws -> Int64? {
            let folder = try library.ensureFolder(root: root, path: path.parent)
            let change = try library.upsert(root: root, folder: folder, name: path.lastComponent,
                                            identity: FileIdentity(device: 7, inode: inode, size: Int64(inode) * 10, mtimeNs: 1),
                                            type: .jpeg)
            if case .added(let photo)? = change { return photo.id }
            return nil
        }
    }

    @Test func aFailedTransactionLeavesMemoryAsTheFileHasIt() throws {
        let f = try Fixture()
        let a = try #require(try f.add("a/1.jpg", inode: 1))
        let b = try #require(try f.add("a/2.jpg", inode: 2))
        _ = try f.add("b/c/3.jpg", inode: 3)
        try f.library.setCapture(b, .known(100))
        let before = Snapshot(f.library, root: f.root)
        #expect(before == Snapshot(try f.reopened(), root: f.root), "the fixture itself agrees")

        #expect(throws: (any Error).self) {
            try f.library.batch {
                _ = try f.add("new/deeper/4.jpg", inode: 4)               // new folders, a new id
                _ = try f.add("a/1.jpg", inode: 11)                       // rewritten in place
                let folder = try f.library.ensureFolder(root: f.root, path: "moved")
                _ = try f.library.move(b, toFolder: folder, name: "2-renamed.jpg")
                try f.library.setCapture(a, .none)
                try f.library.setRank(a, 42)
                try f.library.moveFolderTree(root: f.root, from: "b", to: "z/b")
                _ = try f.library.removeTree(root: f.root, path: "z")
                _ = try f.add("a/boom.jpg", inode: 99)                    // SQLite refuses: all of it rolls back
            }
        }
        #expect(Snapshot(f.library, root: f.root) == before, "memory is rolled back with SQLite")
        #expect(Snapshot(try f.reopened(), root: f.root) == before, "and the file holds what it held")

        // The library goes on working from there, in step with the file.
        _ = try f.add("a/5.jpg", inode: 5)
        #expect(Snapshot(f.library, root: f.root) == Snapshot(try f.reopened(), root: f.root))
    }

    @Test func idsHandedOutAreNeverHandedOutAgainAfterARestart() throws {
        let f = try Fixture()
        // The first id of a fresh index reserves a block in the same transaction,
        // which is rolled back: memory must forget that reservation too.
        #expect(throws: (any Error).self) {
            try f.library.batch {
                _ = try f.add("1.jpg", inode: 1)
                _ = try f.add("boom.jpg", inode: 2)
            }
        }
        let kept = try #require(try f.add("2.jpg", inode: 3))
        _ = try f.library.remove(kept)  // trashed, say: its id stays taken (an undo brings it back)
        f.library = try f.reopened()
        let next = try #require(try f.add("3.jpg", inode: 4))
        #expect(next > kept, "id \(kept) was handed out before the restart; \(next) came after")
    }
}
