// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorStore
import CuratorSystem

/// The index's SQLite file: a cache of what is on disk, rebuildable from the folders.
/// Only the in-memory `PhotoIndex` reads it, once at start-up; afterwards it is
/// written through. No secondary indexes: lookups happen in memory, and the file
/// stays small (well under 300 bytes a photo).
final class IndexStore {
    let database: Database
    static let schemaVersion = 1
    /// Photo rows inserted, updated or deleted since opening: a restart over an
    /// unchanged tree must leave this at zero (reported in `status`).
    private(set) var photoWrites = 0

    // Prepared once: scans and events run these per file.
    private lazy var upsertPhotoStatement = try? database.prepare(
        "INSERT OR REPLACE INTO photos(id, folder, name, size, mtime, dev, ino, type, capture, rank) VALUES(?,?,?,?,?,?,?,?,?,?)")
    private lazy var deletePhotoStatement = try? database.prepare("DELETE FROM photos WHERE id = ?")
    private lazy var insertFolderStatement = try? database.prepare("INSERT INTO folders(root, path) VALUES(?, ?)")
    private lazy var updateFolderStatement = try? database.prepare("UPDATE folders SET path = ? WHERE id = ?")
    private lazy var deleteFolderStatement = try? database.prepare("DELETE FROM folders WHERE id = ?")

    /// A cached statement, or a fresh one when preparing it once failed (the error then surfaces here).
    private func statement(_ cached: Statement?, _ sql: String) throws -> Statement {
        if let cached { return cached }
        return try database.prepare(sql)
    }

    init(path: String) throws {
        database = try Database(path: path, durability: .normal)
        // Everything is read once into memory at start: a small page cache suffices.
        try database.execute("PRAGMA cache_size=-512")
        let version = try database.userVersion()
        if version != Self.schemaVersion {
            if version != 0 {
                // A cache from another schema: drop it; the scan rebuilds it.
                try database.execute("DROP TABLE IF EXISTS photos; DROP TABLE IF EXISTS folders; DROP TABLE IF EXISTS roots;")
            }
            try database.execute("""
                CREATE TABLE IF NOT EXISTS roots(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, path BLOB NOT NULL, device INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE IF NOT EXISTS folders(id INTEGER PRIMARY KEY, root INTEGER NOT NULL, path BLOB NOT NULL);
                CREATE TABLE IF NOT EXISTS photos(id INTEGER PRIMARY KEY, folder INTEGER NOT NULL, name BLOB NOT NULL,
                    size INTEGER NOT NULL, mtime INTEGER NOT NULL, dev INTEGER NOT NULL, ino INTEGER NOT NULL,
                    type TEXT NOT NULL, capture INTEGER NOT NULL, rank INTEGER NOT NULL);
                CREATE TABLE IF NOT EXISTS sessions(uid INTEGER NOT NULL, name TEXT NOT NULL, state BLOB NOT NULL, PRIMARY KEY(uid, name)) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
                """)
            try database.setUserVersion(Self.schemaVersion)
        }
    }

    // MARK: roots

    func loadRoots() throws -> [(id: Int32, name: String, path: ByteString, device: UInt64)] {
        let s = try database.prepare("SELECT id, name, path, device FROM roots")
        var result: [(Int32, String, ByteString, UInt64)] = []
        while try s.step() { result.append((Int32(s.int64(0)), s.text(1), ByteString(s.blob(2)), UInt64(bitPattern: s.int64(3)))) }
        return result
    }

    func insertRoot(name: String, path: ByteString) throws -> Int32 {
        try database.prepare("INSERT INTO roots(name, path) VALUES(?, ?)").bind(.text(name), .blob(path.bytes)).run()
        return Int32(database.lastInsertRowID)
    }

    func updateRoot(id: Int32, path: ByteString, device: UInt64) throws {
        try database.prepare("UPDATE roots SET path = ?, device = ? WHERE id = ?")
            .bind(.blob(path.bytes), .int(Int64(bitPattern: device)), .int(Int64(id))).run()
    }

    // MARK: folders

    func loadFolders() throws -> [Folder] {
        let s = try database.prepare("SELECT id, root, path FROM folders")
        var result: [Folder] = []
        while try s.step() { result.append(Folder(id: Int32(s.int64(0)), rootID: Int32(s.int64(1)), path: ByteString(s.blob(2)))) }
        return result
    }

    func insertFolder(rootID: Int32, path: ByteString) throws -> Int32 {
        try statement(insertFolderStatement, "INSERT INTO folders(root, path) VALUES(?, ?)")
            .bind(.int(Int64(rootID)), .blob(path.bytes)).run()
        return Int32(database.lastInsertRowID)
    }

    func updateFolder(_ folder: Folder) throws {
        try statement(updateFolderStatement, "UPDATE folders SET path = ? WHERE id = ?")
            .bind(.blob(folder.path.bytes), .int(Int64(folder.id))).run()
    }

    func deleteFolder(id: Int32) throws {
        try statement(deleteFolderStatement, "DELETE FROM folders WHERE id = ?").bind(.int(Int64(id))).run()
    }

    // MARK: photos

    func loadPhotos(_ body: (Photo) -> Void) throws {
        let s = try database.prepare("SELECT p.id, f.root, p.folder, p.name, p.size, p.mtime, p.dev, p.ino, p.type, p.capture, p.rank FROM photos p JOIN folders f ON f.id = p.folder")
        while try s.step() {
            let type = PhotoType(wireName: s.text(8)) ?? .jpeg
            body(Photo(id: s.int64(0), rootID: Int32(s.int64(1)), folderID: Int32(s.int64(2)), name: ByteString(s.blob(3)),
                       identity: FileIdentity(device: UInt64(bitPattern: s.int64(6)), inode: UInt64(bitPattern: s.int64(7)),
                                              size: s.int64(4), mtimeNs: s.int64(5)),
                       type: type, capture: CaptureState(raw: s.int64(9)), rank: s.int64(10)))
        }
    }

    func photoCount() throws -> Int {
        try database.prepare("SELECT COUNT(*) FROM photos").firstRow { Int($0.int64(0)) } ?? 0
    }

    func maxPhotoID() throws -> Int64 {
        try database.prepare("SELECT COALESCE(MAX(id), 0) FROM photos").firstRow { $0.int64(0) } ?? 0
    }

    func upsertPhoto(_ p: Photo) throws {
        photoWrites += 1
        try statement(upsertPhotoStatement,
                      "INSERT OR REPLACE INTO photos(id, folder, name, size, mtime, dev, ino, type, capture, rank) VALUES(?,?,?,?,?,?,?,?,?,?)")
            .bind(.int(p.id), .int(Int64(p.folderID)), .blob(p.name.bytes), .int(p.identity.size), .int(p.identity.mtimeNs),
                  .int(Int64(bitPattern: p.identity.device)), .int(Int64(bitPattern: p.identity.inode)),
                  .text(p.type.wireName), .int(p.capture.raw), .int(p.rank))
            .run()
    }

    func reservedPhotoID() throws -> Int64 {
        try database.prepare("SELECT value FROM meta WHERE key = 'reserved_photo_id'").firstRow { $0.int64(0) } ?? 0
    }

    func setReservedPhotoID(_ value: Int64) throws {
        try database.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES('reserved_photo_id', ?)").bind(.int(value)).run()
    }

    func deletePhoto(id: Int64) throws {
        photoWrites += 1
        try statement(deletePhotoStatement, "DELETE FROM photos WHERE id = ?").bind(.int(id)).run()
    }

    // MARK: sessions

    func loadSessions() throws -> [(uid: UInt32, name: String, state: [UInt8])] {
        let s = try database.prepare("SELECT uid, name, state FROM sessions")
        var result: [(UInt32, String, [UInt8])] = []
        while try s.step() { result.append((UInt32(truncatingIfNeeded: s.int64(0)), s.text(1), s.blob(2))) }
        return result
    }

    func saveSession(uid: UInt32, name: String, state: [UInt8]) throws {
        try database.prepare("INSERT OR REPLACE INTO sessions(uid, name, state) VALUES(?, ?, ?)")
            .bind(.int(Int64(uid)), .text(name), .blob(state)).run()
    }

    func deleteSession(uid: UInt32, name: String) throws {
        try database.prepare("DELETE FROM sessions WHERE uid = ? AND name = ?").bind(.int(Int64(uid)), .text(name)).run()
    }

    func begin() throws { try database.execute("BEGIN") }
    func commit() throws { try database.execute("COMMIT") }
}
