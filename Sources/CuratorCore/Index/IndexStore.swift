// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorStore
import CuratorSystem

/// The index's SQLite file: a cache of what is on disk, rebuildable from the folders.
/// Only the in-memory `PhotoIndex` reads it, once at start-up; afterwards it is
/// written through. No secondary indexes: lookups happen in memory, and the file
/// stays small (well under 300 bytes a photo).
final class IndexStore {
    let database: Database
    /// Checkpoints the index's WAL beside its writer (`commit`, `checkpointSoon`).
    let checkpointer: WALCheckpointer
    /// WAL frames (pages: 64 MB) a commit adds before it asks `checkpointer` for a
    /// pass, again each time the WAL has grown as much more (settable for tests). A pass syncs the WAL
    /// and the file, and on ext4 a sync makes every other write to the file system
    /// wait for its journal: passes during a first scan stalled the scan's own
    /// writes (after every commit past SQLite's 1 000 pages, cold starts of 100 000
    /// photos were slower than with SQLite's checkpoints inside the commits; every
    /// 4 096 pages, about as slow). So a scan's burst is checkpointed once it is over
    /// (`checkpointSoon`), and only a long one (a million photos write ~220 MB) before.
    var checkpointFrames = 16384
    /// Past this many, a commit checkpoints on its own connection after all: what
    /// the passes have not copied (they failed, or cannot keep up).
    static let boundFrames = 65536
    /// The WAL's length when a commit last asked for a pass.
    private var requestedAtFrames = 0
    /// 2: photos have a group and a role (issue 15); 3: sidecars are stored by
    /// record (`SidecarRecord`); 4: photos have a capture detail (`CaptureDetail`);
    /// 5: content hashes (`content_hashes`, exact duplicates); 6: the marks read
    /// from each sidecar (`sidecar_marks`, docs/XMP.md); 7: the stack search's
    /// measures packed a chunk of photos a row (`StackLookChunk`).
    /// A file of version 1 to 6 is migrated, a step per version.
    static let schemaVersion = 7
    /// Photo rows and sidecar records inserted, updated or deleted since opening: a
    /// restart over an unchanged tree must leave this at zero (reported in `status`).
    var photoWrites = 0
    /// Sidecars found among the photo rows by the last `loadPhotos` (an index of
    /// version 2 kept them there): the library moves them into records.
    private(set) var strayedSidecars: [Int64] = []
    /// Rows dropped while loading because a value in them is out of range for what
    /// it holds (only a corrupt or foreign file has one), each said in a warning.
    private(set) var droppedRows: [String] = []

    // Prepared once: scans and events run these per file.
    private lazy var upsertPhotoStatement = try? database.prepare(
        Self.upsertPhotoSQL)
    private static let upsertPhotoSQL =
        "INSERT OR REPLACE INTO photos(id, folder, name, size, mtime, dev, ino, type, capture, rank, grp, role, capture_detail) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)"
    private lazy var deletePhotoStatement = try? database.prepare("DELETE FROM photos WHERE id = ?")
    private lazy var insertFolderStatement = try? database.prepare("INSERT INTO folders(root, path) VALUES(?, ?)")
    private lazy var updateFolderStatement = try? database.prepare("UPDATE folders SET path = ? WHERE id = ?")
    private lazy var deleteFolderStatement = try? database.prepare("DELETE FROM folders WHERE id = ?")
    lazy var upsertSidecarsStatement = try? database.prepare(Self.upsertSidecarsSQL)
    lazy var deleteSidecarsStatement = try? database.prepare(Self.deleteSidecarsSQL)

    /// A cached statement, or a fresh one when preparing it once failed (the error then surfaces here).
    func statement(_ cached: Statement?, _ sql: String) throws -> Statement {
        if let cached { return cached }
        return try database.prepare(sql)
    }

    init(path: String) throws {
        database = try Database(path: path, durability: .normal)
        checkpointer = WALCheckpointer(path: path, durability: .normal, what: "index", threadName: "curatord-ickpt")
        // Everything is read once into memory at start: a small page cache suffices.
        try database.execute("PRAGMA cache_size=-512")
        // Checkpointed by passes that may copy a scan's whole burst: the WAL file is
        // cut back to 16 MB when it starts over, not kept at its largest.
        try database.execute("PRAGMA journal_size_limit=\(16 << 20)")
        database.countWALFrames()
        var version = try database.userVersion()
        if version == 1 {
            // Groups came in version 2: every photo is first its own group, shown;
            // each root's folders are grouped once its settings are set
            // (`PhotoLibrary.setGroupSettings`, which finds none recorded).
            try database.execute("""
                BEGIN;
                ALTER TABLE photos ADD COLUMN grp INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE photos ADD COLUMN role INTEGER NOT NULL DEFAULT 0;
                UPDATE photos SET grp = id;
                COMMIT;
                """)
            try database.setUserVersion(2)
            version = 2
        }
        if version == 2 {
            // Sidecar records came in version 3: the first load finds the sidecars
            // among the photo rows and the library moves them (`strayedSidecars`).
            try database.execute(Self.createSidecarsSQL)
            try database.setUserVersion(3)
            version = 3
        }
        if version == 3 {
            // Capture details came in version 4. Adding a column with a default
            // rewrites no row; the photos read before keep none until their file
            // changes (a rewrite of every row would cost a start its whole index).
            let has = try database.prepare("SELECT COUNT(*) FROM pragma_table_info('photos') WHERE name = 'capture_detail'")
                .firstRow { $0.int64(0) } ?? 0
            if has == 0 { try database.execute("ALTER TABLE photos ADD COLUMN capture_detail INTEGER NOT NULL DEFAULT 0") }
            try database.setUserVersion(4)
            version = 4
        }
        if version == 4 {
            // Content hashes came in version 5: a table of their own, empty until
            // the hasher fills it (`addContentHashes`).
            try addContentHashes()
            try database.setUserVersion(5)
            version = 5
        }
        if version == 5 {
            // Sidecars' marks came in version 6: a table of their own, empty until
            // the marks reader fills it (`addSidecarMarks`).
            try addSidecarMarks()
            try database.setUserVersion(6)
            version = 6
        }
        if version == 6 {
            // The stack search's measures came packed in version 7: its rows are
            // carried over (`packStackLooks`), the rest is as it was.
            try packStackLooks()
            try database.setUserVersion(7)
            version = 7
        }
        if version != Self.schemaVersion {
            if version != 0 {
                // A cache from another schema: drop it; the scan rebuilds it.
                try database.execute("DROP TABLE IF EXISTS photos; DROP TABLE IF EXISTS sidecars; DROP TABLE IF EXISTS content_hashes; DROP TABLE IF EXISTS stack_looks; DROP TABLE IF EXISTS sidecar_marks; DROP TABLE IF EXISTS folders; DROP TABLE IF EXISTS roots;")
            }
            try database.execute("""
                CREATE TABLE IF NOT EXISTS roots(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, path BLOB NOT NULL, device INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE IF NOT EXISTS folders(id INTEGER PRIMARY KEY, root INTEGER NOT NULL, path BLOB NOT NULL);
                CREATE TABLE IF NOT EXISTS photos(id INTEGER PRIMARY KEY, folder INTEGER NOT NULL, name BLOB NOT NULL,
                    size INTEGER NOT NULL, mtime INTEGER NOT NULL, dev INTEGER NOT NULL, ino INTEGER NOT NULL,
                    type TEXT NOT NULL, capture INTEGER NOT NULL, rank INTEGER NOT NULL,
                    grp INTEGER NOT NULL DEFAULT 0, role INTEGER NOT NULL DEFAULT 0, capture_detail INTEGER NOT NULL DEFAULT 0);
                \(Self.createSidecarsSQL)
                \(Self.createContentHashesSQL)
                \(Self.createSidecarMarksSQL)
                CREATE TABLE IF NOT EXISTS sessions(uid INTEGER NOT NULL, name TEXT NOT NULL, state BLOB NOT NULL, PRIMARY KEY(uid, name)) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
                """)
            try database.setUserVersion(Self.schemaVersion)
        }
        try addStackLooks()
    }

    // MARK: roots

    func loadRoots() throws -> [(id: Int32, name: String, path: ByteString, device: UInt64)] {
        let s = try database.prepare("SELECT id, name, path, device FROM roots")
        var result: [(Int32, String, ByteString, UInt64)] = []
        var bad: [Int64] = []
        while try s.step() {
            guard let id = Int32(exactly: s.int64(0)) else {
                bad.append(s.int64(0))
                continue
            }
            result.append((id, s.text(1), ByteString(s.blob(2)), UInt64(bitPattern: s.int64(3))))
        }
        for id in bad {
            drop("roots", id, "id \(id) is not a 32-bit root id", "DELETE FROM roots WHERE id = ?")
        }
        return result
    }

    func insertRoot(name: String, path: ByteString) throws -> Int32 {
        try database.prepare("INSERT INTO roots(name, path) VALUES(?, ?)").bind(.text(name), .blob(path.bytes)).run()
        return try Self.rowID(database.lastInsertRowID, table: "roots")
    }
    func updateRoot(id: Int32, path: ByteString, device: UInt64) throws {
        try database.prepare("UPDATE roots SET path = ?, device = ? WHERE id = ?")
            .bind(.blob(path.bytes), .int(Int64(bitPattern: device)), .int(Int64(id))).run()
    }

    // MARK: folders

    func loadFolders() throws -> [Folder] {
        let s = try database.prepare("SELECT id, root, path FROM folders")
        var result: [Folder] = []
        var bad: [(id: Int64, why: String)] = []
        while try s.step() {
            let (id, root) = (s.int64(0), s.int64(1))
            guard let folderID = Int32(exactly: id), let rootID = Int32(exactly: root) else {
                bad.append((id, Int32(exactly: id) == nil ? "id \(id) is not a 32-bit folder id" : "root \(root) is not a 32-bit root id"))
                continue
            }
            result.append(Folder(id: folderID, rootID: rootID, path: ByteString(s.blob(2))))
        }
        for (id, why) in bad {
            // Its photos go with it: the next scan indexes them again.
            drop("folders", id, why, "DELETE FROM photos WHERE folder = ?")
            drop("folders", id, nil, "DELETE FROM folders WHERE id = ?")
        }
        return result
    }

    func insertFolder(rootID: Int32, path: ByteString) throws -> Int32 {
        try statement(insertFolderStatement, "INSERT INTO folders(root, path) VALUES(?, ?)")
            .bind(.int(Int64(rootID)), .blob(path.bytes)).run()
        return try Self.rowID(database.lastInsertRowID, table: "folders")
    }
    func updateFolder(_ folder: Folder) throws {
        try statement(updateFolderStatement, "UPDATE folders SET path = ? WHERE id = ?")
            .bind(.blob(folder.path.bytes), .int(Int64(folder.id))).run()
    }

    func deleteFolder(id: Int32) throws {
        try statement(deleteFolderStatement, "DELETE FROM folders WHERE id = ?").bind(.int(Int64(id))).run()
    }

    // MARK: photos

    /// Every stored photo of a known folder into `load`, in id order. `rootOf` gives
    /// a folder's root (the folders are loaded first), so no join is made: a photo
    /// whose folder is not known is left out, as the join left it. Each row's
    /// columns are read in place (no `Photo`, name array or type `String` per row:
    /// loading was most of a warm restart's main thread). The sidecars' records are
    /// read alongside, each sidecar given in its place in id order.
    func loadPhotos(into load: inout PhotoLoad, rootOf: (Int32) -> Int32?) throws {
        let s = try database.prepare("SELECT id, folder, name, size, mtime, dev, ino, type, capture, rank, grp, role, capture_detail FROM photos")
        var sidecars = try SidecarCursor(self)
        var bad: [(id: Int64, why: String)] = []
        strayedSidecars = []
        func addSidecar(_ row: SidecarRecord.Row, _ name: UnsafeBufferPointer<UInt8>) {
            guard Self.photoIDs.contains(row.id), let rootID = rootOf(row.folderID) else { return }
            load.add(id: row.id, rootID: rootID, folderID: row.folderID, name: name, device: row.device, inode: row.inode,
                     size: row.size, mtimeNs: row.mtimeNs, type: row.type, captureRaw: row.captureRaw, rank: row.rank,
                     groupID: Self.photoIDs.contains(row.groupID) ? row.groupID : row.id, role: row.role)
        }
        while try s.step() {
            let id = s.int64(0)
            try sidecars.take(below: id, addSidecar)
            // loadFolders dropped the folders whose ids are out of range; this only
            // guards against a file changed under us.
            guard let folderID = Int32(exactly: s.int64(1)) else {
                bad.append((id, "its folder is not a 32-bit id"))
                continue
            }
            guard let rootID = rootOf(folderID) else { continue }
            guard Self.photoIDs.contains(id) else {
                bad.append((id, "id \(id) is not between 1 and 2^53"))
                continue
            }
            let type = s.withText(7) { PhotoType(wireName: $0) } ?? .jpeg  // a guess the next scan corrects
            if type.isSidecar { strayedSidecars.append(id) }
            // A group or role out of range is a guess too: the folder's next grouping sets it.
            let stored = s.int64(10)
            let group = Self.photoIDs.contains(stored) ? stored : id
            let role = UInt8(exactly: s.int64(11)).flatMap(GroupRole.init(rawValue:)) ?? (type.isSidecar ? .undecided : .shown)
            let (size, mtime, device, inode) = (s.int64(3), s.int64(4), UInt64(bitPattern: s.int64(5)), UInt64(bitPattern: s.int64(6)))
            let (capture, rank) = (s.int64(8), s.int64(9))
            let detail = CaptureDetail(raw: UInt32(truncatingIfNeeded: s.int64(12)))
            let fits = s.withBlob(2) { name -> Bool in
                // No file system has such a name, and the name arena cannot hold it.
                guard name.count <= NameArena.longestName else { return false }
                load.add(id: id, rootID: rootID, folderID: folderID, name: name, device: device, inode: inode, size: size,
                         mtimeNs: mtime, type: type, captureRaw: capture, rank: rank, groupID: group, role: role,
                         captureDetail: detail)
                return true
            }
            if !fits { bad.append((id, "its name is longer than \(NameArena.longestName) bytes")) }
        }
        try sidecars.take(below: .max, addSidecar)
        for (id, why) in bad { drop("photos", id, why, "DELETE FROM photos WHERE id = ?") }
        // Its sidecars are indexed again by the next scan, under new ids.
        for (record, why) in sidecars.unreadable { drop("sidecars", record, why, Self.deleteSidecarsSQL) }
    }

    /// Photo rows and stored sidecars.
    func photoCount() throws -> Int {
        try (database.prepare("SELECT COUNT(*) FROM photos").firstRow { Int($0.int64(0)) } ?? 0) + sidecarCount()
    }

    /// Photo ids are positive and below 2^53, so that they stay exact in a JSON number
    /// (a double in most clients) and the next id never overflows.
    static let photoIDs: ClosedRange<Int64> = 1...(1 << 53)

    /// The highest id of a photo row or a stored sidecar.
    func maxPhotoID() throws -> Int64 {
        let rows = try database.prepare("SELECT COALESCE(MAX(id), 0) FROM photos WHERE id BETWEEN ? AND ?")
            .bind(.int(Self.photoIDs.lowerBound), .int(Self.photoIDs.upperBound)).firstRow { $0.int64(0) } ?? 0
        return max(rows, try maxSidecarID())
    }

    func upsertPhoto(_ p: Photo) throws {
        photoWrites += 1
        try statement(upsertPhotoStatement, Self.upsertPhotoSQL)
            .bind(.int(p.id), .int(Int64(p.folderID)), .blob(p.name.bytes), .int(p.identity.size), .int(p.identity.mtimeNs),
                  .int(Int64(bitPattern: p.identity.device)), .int(Int64(bitPattern: p.identity.inode)),
                  .text(p.type.wireName), .int(p.capture.raw), .int(p.rank), .int(p.groupID), .int(Int64(p.role.rawValue)),
                  .int(Int64(p.captureDetail.raw)))
            .run()
    }

    /// How far photo ids have been handed out (0 when never); a value out of range
    /// is said and ignored.
    func reservedPhotoID() throws -> Int64 {
        let value = try database.prepare("SELECT value FROM meta WHERE key = 'reserved_photo_id'").firstRow { $0.int64(0) } ?? 0
        guard value == 0 || Self.photoIDs.contains(value) else {
            droppedRows.append("meta row reserved_photo_id: \(value) is not between 1 and 2^53")
            log.warning("\(database.path): meta row reserved_photo_id: \(value) is not between 1 and 2^53; ignored")
            return 0
        }
        return value
    }

    func setReservedPhotoID(_ value: Int64) throws {
        try database.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES('reserved_photo_id', ?)").bind(.int(value)).run()
    }

    /// The grouping a root's rows were last grouped with (`GroupSettings.storedValue`),
    /// nil when never (a new root, or an index from before groups).
    func groupSettings(root: Int32) throws -> Int64? {
        try database.prepare("SELECT value FROM meta WHERE key = ?").bind(.text("groups.\(root)")).firstRow { $0.int64(0) }
    }

    func setGroupSettings(_ value: Int64, root: Int32) throws {
        try database.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)").bind(.text("groups.\(root)"), .int(value)).run()
    }

    func deletePhoto(id: Int64) throws {
        photoWrites += 1
        try statement(deletePhotoStatement, "DELETE FROM photos WHERE id = ?").bind(.int(id)).run()
    }

    // MARK: sessions

    func loadSessions() throws -> [(uid: UInt32, name: String, state: [UInt8])] {
        let s = try database.prepare("SELECT uid, name, state FROM sessions")
        var result: [(UInt32, String, [UInt8])] = []
        var bad: [(uid: Int64, name: String)] = []
        while try s.step() {
            // Never truncated: uid 4294968296 is not uid 1000, and must not get that user's session.
            guard let uid = UInt32(exactly: s.int64(0)) else {
                bad.append((s.int64(0), s.text(1)))
                continue
            }
            result.append((uid, s.text(1), s.blob(2)))
        }
        for (uid, name) in bad {
            droppedRows.append("sessions row (\(uid), \(name)): uid \(uid) is not a 32-bit uid")
            log.warning("\(database.path): sessions row (\(uid), \(name)): uid \(uid) is not a 32-bit uid; the session is dropped")
            do {
                try database.prepare("DELETE FROM sessions WHERE uid = ? AND name = ?").bind(.int(uid), .text(name)).run()
            } catch {
                log.warning("\(database.path): cannot drop that session row: \(error)")
            }
        }
        return result
    }

    func saveSession(uid: UInt32, name: String, state: [UInt8]) throws {
        try database.prepare("INSERT OR REPLACE INTO sessions(uid, name, state) VALUES(?, ?, ?)")
            .bind(.int(Int64(uid)), .text(name), .blob(state)).run()
    }

    func deleteSession(uid: UInt32, name: String) throws {
        try database.prepare("DELETE FROM sessions WHERE uid = ? AND name = ?").bind(.int(Int64(uid)), .text(name)).run()
    }

    // MARK: stored values out of range

    /// The id SQLite gave a new row, as the 32-bit id the index uses for roots and
    /// folders; an error, not a trap, when a corrupt row pushed ids past 2^31.
    static func rowID(_ id: Int64, table: String) throws -> Int32 {
        guard let exact = Int32(exactly: id) else {
            throw IndexStoreError("\(table): the new row's id \(id) is not a 32-bit id (a corrupt index: remove index.sqlite to rebuild it)")
        }
        return exact
    }

    /// Drops a row that cannot be loaded, saying why (`why` nil: a second statement for the same row).
    private func drop(_ table: String, _ id: Int64, _ why: String?, _ sql: String) {
        if let why {
            droppedRows.append("\(table) row \(id): \(why)")
            log.warning("\(database.path): \(table) row \(id): \(why); the row is dropped (the index is a cache: a scan rebuilds what it held)")
        }
        do {
            try database.prepare(sql).bind(.int(id)).run()
        } catch {
            log.warning("\(database.path): cannot drop \(table) row \(id): \(error)")
        }
    }

    func begin() throws { try database.execute("BEGIN") }
    /// Commits, with no checkpoint inside the commit: a first scan commits every few
    /// hundred photos inside a hold of the state lock, and SQLite's automatic
    /// checkpoint, in the commit that took the WAL past 1 000 pages (five times in a
    /// first scan of 100 000 photos: copying 4 MB into the main file and syncing
    /// both), held the lock, and with it every request, for as long as the disk
    /// took. The WAL is checkpointed beside the writer instead, each time it has
    /// grown by `checkpointFrames`, and after a scan (`checkpointSoon`).
    func commit() throws {
        try database.execute("COMMIT")
        let frames = database.walFrames
        if frames < requestedAtFrames { requestedAtFrames = 0 }  // the WAL started over
        if frames >= Self.boundFrames {
            try? database.checkpointPassively()
        } else if frames - requestedAtFrames >= checkpointFrames {
            checkpointer.request()
            requestedAtFrames = frames
        }
    }

    /// Asks for a pass now, where the WAL holds what a pass should copy: a scan is
    /// over, the writes that follow are few (events, a batch's removals).
    func checkpointSoon() {
        guard database.walFrames > requestedAtFrames else { return }
        checkpointer.request()
        requestedAtFrames = database.walFrames
    }
}

/// The index file holds something the index cannot use.
struct IndexStoreError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
