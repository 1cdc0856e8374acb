// SPDX-License-Identifier: GPL-2.0-or-later
import CSQLite
import CuratorSystem
import Glibc

/// One SQLite connection. Not thread-safe: it belongs to exactly one owner
/// (the index, or the journal), which serialises every call; debug builds check
/// that no two threads are ever in it at once (`ConnectionUser`).
public final class Database {
    let handle: OpaquePointer
    public let path: String
    private let durability: Durability
    /// Set while the connection runs with `synchronous=NORMAL` for one unsynced
    /// commit; a failure to set `FULL` back leaves it set, and the next transaction
    /// sets it back first (or fails): no commit is ever unsynced by accident.
    private var lowered = false
    private var cache: [String: Statement] = [:]
    #if DEBUG
    let user = ConnectionUser()
    #endif

    public enum Durability: Sendable { case normal, full }

    /// Opens (creating if needed) a WAL database, readable by its owner only
    /// (`makePrivate`). `full` syncs the WAL on every commit: what the journal
    /// needs; `normal` is enough for a rebuildable cache.
    public init(path: String, durability: Durability = .normal) throws(SQLiteError) {
        _ = Self.configured
        try Self.makePrivate(path)
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, message: message, path: path)
        }
        handle = db
        self.path = path
        self.durability = durability
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5000)
        try execute("PRAGMA journal_mode=WAL")
        try execute(durability == .full ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL")
        try execute("PRAGMA foreign_keys=ON")
    }

    /// Process-wide settings, made once before the first connection opens SQLite:
    /// no memory statistics (nothing reads them, and they cost a global lock around
    /// every allocation SQLite makes, several per row a batch writes).
    private static let configured: Void = {
        _ = curator_sqlite_skip_memory_statistics()
    }()

    /// Creates the database file 0600 before SQLite opens it, whatever the umask
    /// (SQLite would create it 0644 less the umask), and takes group and other
    /// bits off one that has them (and off a `-wal` or `-shm` left by a crash). SQLite
    /// gives the `-wal` and `-shm` files it creates the main file's mode, exactly,
    /// so they are 0600 too. The process umask is left alone: other threads
    /// create files. An empty file is a valid empty database.
    static func makePrivate(_ path: String) throws(SQLiteError) {
        do throws(SystemError) {
            let fd = try FileDescriptor.open(ByteString(path), O_RDWR | O_CREAT, mode: 0o600)
            try fd.closeAfter(path: path) { (fd) throws(SystemError) in
                let status = try FileStatus.of(descriptor: fd)
                guard status.isRegularFile else { throw SystemError("open", path: path, errno: .invalid) }
                if status.mode & 0o077 != 0 { try fd.changeMode(status.mode & 0o700, path: path) }
            }
            for suffix in ["-wal", "-shm"] {
                let side = path + suffix
                // Not there: SQLite creates it with the main file's mode.
                guard let sideFD = try? FileDescriptor.open(ByteString(side), O_RDONLY) else { continue }
                try sideFD.closeAfter(path: side) { (fd) throws(SystemError) in
                    if let status = try? FileStatus.of(descriptor: fd), status.isRegularFile, status.mode & 0o077 != 0 {
                        try fd.changeMode(status.mode & 0o700, path: side)
                    }
                }
            }
        } catch {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: "\(error.call): \(error.errno.message)", path: error.path ?? path,
                              systemErrno: error.errno.rawValue)
        }
    }

    deinit {
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    func error(_ rc: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(handle)), sql: sql, path: path, systemErrno: systemErrno(rc))
    }

    /// The errno of the I/O failure behind `rc`; nil for failures that are not I/O
    /// (sqlite3_system_errno keeps the last one, which may be older than `rc`).
    func systemErrno(_ rc: Int32) -> Int32? {
        guard [SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN].contains(rc & 0xff) else { return nil }
        let value = sqlite3_system_errno(handle)
        return value != 0 ? value : nil
    }

    /// Runs `body` as the one thread in the connection (checked in debug builds;
    /// nothing at all in release builds). `what` names the call for the report.
    @inline(__always)
    func exclusively<R, E: Error>(_ what: @autoclosure () -> String, _ body: () throws(E) -> R) throws(E) -> R {
        #if DEBUG
        let entered = user.enter(what(), path: path)
        defer { if entered { user.leave() } }
        #endif
        return try body()
    }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws(SQLiteError) {
        try exclusively(sql) { () throws(SQLiteError) in
            var message: UnsafeMutablePointer<CChar>?
            let rc = sqlite3_exec(handle, sql, nil, nil, &message)
            if rc != SQLITE_OK {
                let text = message.map { String(cString: $0) } ?? "error"
                sqlite3_free(message)
                throw SQLiteError(code: rc, message: text, sql: sql, path: path, systemErrno: systemErrno(rc))
            }
        }
    }

    /// A prepared statement, cached by its SQL text. One that is still being
    /// stepped (a loop over its rows has not ended) is refused rather than reset
    /// under that loop: a nested use of the same SQL would otherwise end the outer
    /// loop early without a word.
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try exclusively(sql) { () throws(SQLiteError) -> Statement in
            if let cached = cache[sql] {
                guard !cached.isBusy else { throw cached.stillRunning() }
                cached.reset()
                return cached
            }
            let statement = try Statement(database: self, sql: sql)
            cache[sql] = statement
            return statement
        }
    }

    /// Runs `body` in a transaction (BEGIN IMMEDIATE); rolls back if it throws.
    /// The thread running it is the connection's until it ends.
    ///
    /// `synced: false`, on a connection opened `full`: this one commit is written to
    /// the WAL but not synced. It becomes durable with the connection's next synced
    /// commit (the WAL is appended to, and its sync covers every frame before) or a
    /// checkpoint; a power cut before then loses it whole and never a later commit
    /// without it (the WAL is read back only up to its last intact commit). A kill of
    /// the process loses nothing: the frames are in the page cache.
    public func transaction<R>(synced: Bool = true, _ body: () throws -> R) throws -> R {
        try exclusively("transaction") { () throws -> R in
            if lowered || (!synced && durability == .full) {
                try execute(synced ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL")
                lowered = !synced
            }
            let result: R
            do {
                try execute("BEGIN IMMEDIATE")
                do {
                    result = try body()
                    try execute("COMMIT")
                } catch {
                    try? execute("ROLLBACK")
                    throw error
                }
            } catch {
                try? raiseSynchronous()
                throw error
            }
            try raiseSynchronous()
            return result
        }
    }

    /// `synchronous=FULL` again after an unsynced commit (a failure is thrown, and
    /// the next transaction tries again before it begins).
    private func raiseSynchronous() throws(SQLiteError) {
        guard lowered else { return }
        try execute("PRAGMA synchronous=FULL")
        lowered = false
    }

    public var lastInsertRowID: Int64 { exclusively("sqlite3_last_insert_rowid") { sqlite3_last_insert_rowid(handle) } }
    public var changes: Int { exclusively("sqlite3_changes") { Int(sqlite3_changes(handle)) } }

    public func userVersion() throws(SQLiteError) -> Int {
        try prepare("PRAGMA user_version").firstRow { Int($0.int64(0)) } ?? 0
    }

    public func setUserVersion(_ version: Int) throws(SQLiteError) {
        try execute("PRAGMA user_version=\(version)")
    }

    /// Checkpoints on their own once the WAL holds `pages` pages (SQLite's default: 1000).
    public func setAutocheckpoint(pages: Int) throws(SQLiteError) {
        try execute("PRAGMA wal_autocheckpoint=\(pages)")
    }

    /// Frames in the WAL after this connection's last commit, as SQLite's WAL hook
    /// reports it once `countWALFrames` installed it (0 until then).
    public private(set) var walFrames = 0

    /// Has every commit of this connection record the WAL's length in `walFrames`
    /// and checkpoint nothing itself: SQLite's automatic checkpoint is its WAL hook,
    /// which this one replaces. The owner then checkpoints (`checkpointPassively`,
    /// from a connection of its own on a thread of its own) when `walFrames` says so.
    public func countWALFrames() {
        let hook: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32 = { context, _, _, frames in
            if let context { Unmanaged<Database>.fromOpaque(context).takeUnretainedValue().walFrames = Int(frames) }
            return SQLITE_OK
        }
        // Unretained: the hook goes with the handle, which this object closes as it goes.
        exclusively("sqlite3_wal_hook") { _ = sqlite3_wal_hook(handle, hook, Unmanaged.passUnretained(self).toOpaque()) }
    }

    /// Copies what it can of the WAL into the main file without waiting for, or
    /// blocking, other connections (for a connection of its own, on its own thread).
    public func checkpointPassively() throws(SQLiteError) {
        try exclusively("wal_checkpoint(PASSIVE)") { () throws(SQLiteError) in
            var logFrames: Int32 = 0
            var checkpointed: Int32 = 0
            let rc = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, &logFrames, &checkpointed)
            guard rc == SQLITE_OK || rc == SQLITE_BUSY else { throw error(rc, sql: "wal_checkpoint(PASSIVE)") }
        }
    }

    /// Forces the WAL into the main file (used on clean shutdown).
    /// Throws when SQLite could not checkpoint (a statement still reading, say).
    public func checkpoint() throws(SQLiteError) {
        try exclusively("wal_checkpoint(TRUNCATE)") { () throws(SQLiteError) in
            // A cached SELECT stepped only once (a MAX(), a lookup) still holds its read
            // transaction, and a checkpoint cannot truncate under it: finish them all.
            for statement in cache.values { statement.reset() }
            var logFrames: Int32 = 0
            var checkpointed: Int32 = 0
            let rc = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, &logFrames, &checkpointed)
            guard rc == SQLITE_OK else { throw error(rc, sql: "wal_checkpoint(TRUNCATE): \(checkpointed) of \(logFrames) frames") }
        }
    }
}
