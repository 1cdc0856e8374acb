// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorStore
import CuratorSystem

/// The durable record of batches: a SQLite file of its own (never the index, which
/// can be rebuilt; this cannot), WAL with synchronous=FULL, so that each record is
/// on disk when its call returns. Every step is recorded *before* it is taken.
/// See docs/JOURNAL.md.
///
/// One connection, shared by a batch's thread and the helper that journals the
/// next chunk's intents while the batch thread moves photos: each method runs its
/// statements, and each transaction its whole body, under `lock`.
// @unchecked: once `init` has returned, `database` (opened without SQLite's mutex)
// is used only with `lock` held (its constant `path` excepted), and no statement
// outlives the method that prepared it. The lock is
// recursive because a transaction's body calls the locked record methods.
final class Journal: @unchecked Sendable {
    private let database: Database
    private let lock = StateLock(recursive: true)
    /// 2: `items.trash_kind` (issue 13: a root's trash may be a recycle folder) and
    ///    `items.owner`, the uid that owned each photo when it was trashed.
    static let schemaVersion = 3

    /// The WAL is checkpointed by `WALCheckpointer` after each batch; this
    /// connection does it itself only past this many pages (64 MB).
    static let autocheckpointPages = 16384

    /// Opens the journal, refusing one this version cannot read whole (a newer
    /// schema, a state or outcome it does not know): such a file is left exactly
    /// as it is, for a human, and nothing is recovered from it.
    ///
    /// `another`: a further connection to a journal this process has already opened
    /// (and so checked and migrated): batches on different roots run at once, each
    /// on a connection of its own, and SQLite orders their commits (WAL: one writer
    /// at a time, each commit a few milliseconds; readers never wait).
    init(path: String, another: Bool = false) throws(JournalError) {
        database = try JournalError.sql { () throws(SQLiteError) in try Database(path: path, durability: .full) }
        try JournalError.sql { () throws(SQLiteError) in try database.setAutocheckpoint(pages: Self.autocheckpointPages) }
        if another { return }
        try checkReadable()
        try JournalError.sql { () throws(SQLiteError) in try migrate() }
        // The file's own directory entry must survive a power cut too.
        let parent = ByteString(path).parent
        do {
            try syncDirectory(parent.isEmpty ? "." : parent)
        } catch {
            log.warning("journal: \(error)")
        }
    }

    /// Every value the journal holds must be one this version knows: a guess (an
    /// unknown state read as `interrupted`, say) would have recovery act on it.
    /// Costs one pass over the items at start (some 25 ms of CPU per 100 000).
    private func checkReadable() throws(JournalError) {
        let path = database.path
        let version = try JournalError.sql { () throws(SQLiteError) in try database.userVersion() }
        guard version <= Self.schemaVersion else {
            throw .unknownValue(path: path, table: "journal", row: "PRAGMA", column: "user_version", value: "\(version)",
                                known: "schema \(Self.schemaVersion) or older: a newer curatord wrote it")
        }
        guard version > 0 else { return }  // a new file: nothing in it yet
        let batchStates = try distinct("SELECT DISTINCT state FROM batches")
        if let value = batchStates.first(where: { BatchState(rawValue: $0[0]) == nil })?[0] {
            let row = try first("SELECT id FROM batches WHERE state = ? ORDER BY id LIMIT 1", [.text(value)]) { "id \($0.int64(0))" } ?? "?"
            throw .unknownValue(path: path, table: "batches", row: row, column: "state", value: value, known: Self.known(BatchState.self))
        }
        if let (id, uid) = try first("SELECT id, uid FROM batches WHERE uid < 0 OR uid > 4294967295 ORDER BY id LIMIT 1", [], {
            ($0.int64(0), $0.int64(1))
        }) {
            throw .unknownValue(path: path, table: "batches", row: "id \(id)", column: "uid", value: "\(uid)", known: "a uid from 0 to 4294967295")
        }
        // One pass in key order, nothing sorted.
        let states = JournalItemState.allCases.map(\.rawValue)
        let outcomes = PhotoOutcome.allCases.map(\.rawValue)
        let unknownItem = "SELECT batch, step, state, outcome FROM items WHERE state NOT IN (\(Self.placeholders(states.count))) "
            + "OR outcome NOT IN (\(Self.placeholders(outcomes.count))) ORDER BY batch, step LIMIT 1"
        if let (row, state, outcome) = try first(unknownItem, (states + outcomes).map { .text($0) }, {
            ("batch \($0.int64(0)), step \($0.int64(1))", $0.text(2), $0.text(3))
        }) {
            if !states.contains(state) {
                throw .unknownValue(path: path, table: "items", row: row, column: "state", value: state, known: Self.known(JournalItemState.self))
            }
            throw .unknownValue(path: path, table: "items", row: row, column: "outcome", value: outcome, known: Self.known(PhotoOutcome.self))
        }
    }

    /// "?, ?, ?": the values themselves are bound.
    private static func placeholders(_ count: Int) -> String { Array(repeating: "?", count: count).joined(separator: ", ") }

    private static func known<T: CaseIterable & RawRepresentable>(_: T.Type) -> String where T.RawValue == String {
        T.allCases.map(\.rawValue).joined(separator: ", ")
    }

    /// Every row of a query of text columns (a few distinct values).
    private func distinct(_ sql: String) throws(JournalError) -> [[String]] {
        try locked { () throws(SQLiteError) in
            let statement = try database.prepare(sql)
            defer { statement.reset() }
            var rows: [[String]] = []
            while try statement.step() { rows.append((0..<statement.columnCount).map { statement.text($0) }) }
            return rows
        }
    }

    private func first<R>(_ sql: String, _ values: [Statement.Value], _ read: (Statement) -> R) throws(JournalError) -> R? {
        try locked { () throws(SQLiteError) in try database.prepare(sql).bind(values).firstRow(read) }
    }

    /// `body`'s statements under the lock, an SQLite error as the journal's.
    private func locked<R>(_ body: () throws(SQLiteError) -> R) throws(JournalError) -> R {
        try lock.withLock { () throws(JournalError) -> R in try JournalError.sql(body) }
    }

    /// Creates or upgrades the schema in one transaction: each statement on its own
    /// was a commit, and each commit of the journal a WAL sync (`synchronous=FULL`),
    /// seven of them for a new file (some 50 ms of every first start on a journaled
    /// disk). One commit also leaves no half-migrated file after a crash.
    private func migrate() throws(SQLiteError) {
        guard try database.userVersion() < Self.schemaVersion else { return }
        try inTransaction { () throws(SQLiteError) in try migrateInTransaction() }
    }

    private func migrateInTransaction() throws(SQLiteError) {
        let version = try database.userVersion()
        guard version < Self.schemaVersion else { return }  // another daemon's start migrated it meanwhile
        try database.execute("""
            CREATE TABLE IF NOT EXISTS batches(
                id INTEGER PRIMARY KEY,
                uid INTEGER NOT NULL,
                session TEXT NOT NULL,
                created_ns INTEGER NOT NULL,
                state TEXT NOT NULL,
                undo_running INTEGER NOT NULL DEFAULT 0
            );
            CREATE INDEX IF NOT EXISTS batches_uid ON batches(uid, id);
            CREATE TABLE IF NOT EXISTS items(
                batch INTEGER NOT NULL REFERENCES batches(id),
                step INTEGER NOT NULL,
                photo INTEGER NOT NULL,
                root_name TEXT NOT NULL,
                root_path BLOB NOT NULL,
                rel_path BLOB NOT NULL,
                dev INTEGER NOT NULL,
                ino INTEGER NOT NULL,
                size INTEGER NOT NULL,
                mtime_ns INTEGER NOT NULL,
                state TEXT NOT NULL,
                outcome TEXT NOT NULL,
                detail TEXT,
                trash_dir BLOB,
                trash_name BLOB,
                info_path BLOB,
                moved INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY(batch, step)
            ) WITHOUT ROWID;
            """)
        if version < 2 {
            // Every row written before is a freedesktop trash's.
            try database.execute("ALTER TABLE items ADD COLUMN trash_kind TEXT NOT NULL DEFAULT 'freedesktop'")
            // Whose photo it was: its owner sees the batch in its history and may undo
            // that photo (NULL for photos trashed before: only the batch's user may).
            try database.execute("ALTER TABLE items ADD COLUMN owner INTEGER")
        }
        if version < 3 {
            // The group (issue 15) a file was trashed with, by the group's id: the
            // files of one unit are all trashed or all left in place (NULL: alone).
            try database.execute("ALTER TABLE items ADD COLUMN unit INTEGER")
        }
        try database.setUserVersion(Self.schemaVersion)
    }

    private func inTransaction<R>(synced: Bool = true, _ body: () throws(SQLiteError) -> R) throws(SQLiteError) -> R {
        try lock.withLock { () throws(SQLiteError) -> R in
            do {
                return try database.transaction(synced: synced) { try body() }
            } catch let error as SQLiteError {
                throw error
            } catch {
                throw SQLiteError(code: -1, message: "\(error)", path: database.path)
            }
        }
    }

    /// Runs several records as one transaction: one commit, one WAL sync, for a
    /// whole chunk of photos.
    func transaction<R>(_ body: () throws(SQLiteError) -> R) throws(SQLiteError) -> R {
        try inTransaction(body)
    }

    /// Like `transaction`, but the commit is not synced: it is durable once this
    /// connection's next commit is (every commit but this kind syncs the WAL, and that
    /// sync covers the frames before it), and a power cut before then loses it whole.
    /// Only for records that recovery can work out again from the disk and the synced
    /// records before them: a chunk's outcomes (docs/JOURNAL.md, step 6).
    func transactionUnsynced<R>(_ body: () throws(SQLiteError) -> R) throws(SQLiteError) -> R {
        try inTransaction(synced: false, body)
    }

    // MARK: writing

    /// Records the batch and its whole ordered plan, in one transaction, before the first move.
    /// Not synced: nothing is touched before the first chunk's intents are committed,
    /// synced, and the WAL's later synced commit makes this one durable with it (a kill
    /// loses neither; a power cut before it loses a batch that had done nothing).
    func createBatch(uid: UInt32, session: String, createdNanoseconds: Int64, items: [BatchPlanItem]) throws(SQLiteError) -> Int64 {
        try inTransaction(synced: false) { () throws(SQLiteError) -> Int64 in
            try database.prepare("INSERT INTO batches(uid, session, created_ns, state) VALUES(?, ?, ?, ?)")
                .bind(.int(Int64(uid)), .text(session), .int(createdNanoseconds), .text(BatchState.running.rawValue)).run()
            let id = database.lastInsertRowID
            let insert = try database.prepare("""
                INSERT INTO items(batch, step, photo, root_name, root_path, rel_path, dev, ino, size, mtime_ns, state, outcome, unit)
                VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for (index, item) in items.enumerated() {
                try insert.bind(.int(id), .int(Int64(index + 1)), .int(item.photoID), .text(item.rootName),
                                .blob(item.rootPath.bytes), .blob(item.relativePath.bytes),
                                .int(Int64(bitPattern: item.identity.device)), .int(Int64(bitPattern: item.identity.inode)),
                                .int(item.identity.size), .int(item.identity.mtimeNs),
                                .text(JournalItemState.planned.rawValue), .text(PhotoOutcome.pending.rawValue),
                                item.unit.map { .int($0) } ?? .null).run()
            }
            return id
        }
    }

    /// The trash and name chosen for a photo, recorded before its `.trashinfo` is
    /// written. For a recycle folder, `trashDirectory` is the folder the photo goes
    /// into (`<root>/.recycle/<user>/<its folder>`), and `infoPath` its original path.
    /// `owner`: the file's owner, as the plan found it.
    func recordIntent(batch: Int64, step: Int, trashDirectory: ByteString, trashName: ByteString, infoPath: ByteString,
                      kind: TrashKind = .freedesktop, owner: UInt32? = nil) throws(SQLiteError) {
        try lock.withLock { () throws(SQLiteError) in try database.prepare("""
            UPDATE items SET state = ?, trash_dir = ?, trash_name = ?, info_path = ?, trash_kind = ?, owner = coalesce(?, owner)
            WHERE batch = ? AND step = ?
            """).bind(.text(JournalItemState.intent.rawValue), .blob(trashDirectory.bytes), .blob(trashName.bytes),
                      .blob(infoPath.bytes), .text(kind.rawValue), owner.map { .int(Int64($0)) } ?? .null,
                      .int(batch), .int(Int64(step))).run() }
    }

    /// A photo's new state and reported outcome. `moved` is only ever set, never cleared.
    func recordItem(batch: Int64, step: Int, state: JournalItemState, outcome: PhotoOutcome, detail: String?, moved: Bool = false) throws(SQLiteError) {
        try lock.withLock { () throws(SQLiteError) in try database.prepare("""
            UPDATE items SET state = ?, outcome = ?, detail = ?, moved = (moved OR ?) WHERE batch = ? AND step = ?
            """).bind(.text(state.rawValue), .text(outcome.rawValue), detail.map { .text($0) } ?? .null,
                      .int(moved ? 1 : 0), .int(batch), .int(Int64(step))).run() }
    }

    /// A file of a group put back because its group could not go to the trash whole
    /// (issue 15): left, as if never moved (`moved` cleared: the batch did not trash it).
    func recordPutBack(batch: Int64, step: Int, outcome: PhotoOutcome, detail: String) throws(SQLiteError) {
        try lock.withLock { () throws(SQLiteError) in try database.prepare("UPDATE items SET state = ?, outcome = ?, detail = ?, moved = 0 WHERE batch = ? AND step = ?")
            .bind(.text(JournalItemState.skipped.rawValue), .text(outcome.rawValue), .text(detail), .int(batch), .int(Int64(step))).run() }
    }

    /// The same new state and outcome (no detail) for the consecutive steps
    /// `steps`: a chunk of photos that were all trashed, in one statement rather
    /// than one per photo.
    func recordItems(batch: Int64, steps: ClosedRange<Int>, state: JournalItemState, outcome: PhotoOutcome, moved: Bool) throws(SQLiteError) {
        try lock.withLock { () throws(SQLiteError) in try database.prepare("""
            UPDATE items SET state = ?, outcome = ?, detail = NULL, moved = (moved OR ?) WHERE batch = ? AND step BETWEEN ? AND ?
            """).bind(.text(state.rawValue), .text(outcome.rawValue), .int(moved ? 1 : 0), .int(batch),
                      .int(Int64(steps.lowerBound)), .int(Int64(steps.upperBound))).run() }
    }

    /// A new state only (the outcome and detail kept) for the consecutive steps
    /// `steps`: an undo's chunk of photos `restoring`, in one statement.
    func recordStates(batch: Int64, steps: ClosedRange<Int>, state: JournalItemState) throws(SQLiteError) {
        try lock.withLock { () throws(SQLiteError) in try database.prepare("UPDATE items SET state = ? WHERE batch = ? AND step BETWEEN ? AND ?")
            .bind(.text(state.rawValue), .int(batch), .int(Int64(steps.lowerBound)), .int(Int64(steps.upperBound))).run() }
    }

    func setBatchState(_ batch: Int64, _ state: BatchState, undoRunning: Bool) throws(SQLiteError) {
        try lock.withLock { () throws(SQLiteError) in try database.prepare("UPDATE batches SET state = ?, undo_running = ? WHERE id = ?")
            .bind(.text(state.rawValue), .int(undoRunning ? 1 : 0), .int(batch)).run() }
    }

    // MARK: reading

    private static let batchColumns = "id, uid, session, created_ns, state, undo_running"

    /// A batch row, every value checked: an unknown state is an error, not a guess.
    private func readBatch(_ s: Statement) throws(JournalError) -> JournalBatch {
        let id = s.int64(0)
        guard let uid = UInt32(exactly: s.int64(1)) else {
            throw JournalError.unknownValue(path: database.path, table: "batches", row: "id \(id)", column: "uid",
                                            value: "\(s.int64(1))", known: "a uid from 0 to 4294967295")
        }
        guard let state = BatchState(rawValue: s.text(4)) else {
            throw JournalError.unknownValue(path: database.path, table: "batches", row: "id \(id)", column: "state", value: s.text(4),
                                            known: BatchState.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return JournalBatch(id: id, uid: uid, session: s.text(2), createdNanoseconds: s.int64(3), state: state,
                            undoRunning: s.int64(5) != 0)
    }

    private func batches(_ sql: String, _ values: [Statement.Value]) throws(JournalError) -> [JournalBatch] {
        try rows(sql, values, readBatch)
    }

    /// Every row of `sql`, each read by `read`, which may refuse it; the statement is
    /// reset however it ends, so that no read transaction is left open.
    private func rows<R>(_ sql: String, _ values: [Statement.Value],
                         _ read: (Statement) throws(JournalError) -> R) throws(JournalError) -> [R] {
        try lock.withLock { () throws(JournalError) -> [R] in
            let statement = try JournalError.sql { () throws(SQLiteError) in try database.prepare(sql).bind(values) }
            defer { statement.reset() }
            var result: [R] = []
            while try JournalError.sql({ () throws(SQLiteError) in try statement.step() }) {
                result.append(try read(statement))
            }
            return result
        }
    }

    func batch(_ id: Int64) throws(JournalError) -> JournalBatch? {
        try batches("SELECT \(Self.batchColumns) FROM batches WHERE id = ?", [.int(id)]).first
    }

    /// Batches a crash left unfinished: running, undoing, or with a photo mid-step.
    func batchesNeedingRecovery() throws(JournalError) -> [JournalBatch] {
        try batches("""
            SELECT \(Self.batchColumns) FROM batches
            WHERE state = ? OR undo_running != 0
               OR id IN (SELECT batch FROM items WHERE state IN (?, ?, ?))
            ORDER BY id
            """, [.text(BatchState.running.rawValue), .text(JournalItemState.intent.rawValue), .text(JournalItemState.restoring.rawValue),
                  .text(JournalItemState.emptying.rawValue)])
    }

    /// The roots (by name) a batch's photos are in.
    func rootNames(of batch: Int64) throws(JournalError) -> Set<String> {
        Set(try distinct("SELECT DISTINCT root_name FROM items WHERE batch = \(batch)").map { $0[0] })
    }

    /// The newest batch of `uid` that still has photos in the trash.
    func latestUndoable(uid: UInt32) throws(JournalError) -> JournalBatch? {
        try batches("""
            SELECT \(Self.batchColumns) FROM batches
            WHERE uid = ? AND state != ? AND id IN (SELECT batch FROM items WHERE state IN (?, ?))
            ORDER BY id DESC LIMIT 1
            """, [.int(Int64(uid)), .text(BatchState.running.rawValue), .text(JournalItemState.trashed.rawValue),
                  .text(JournalItemState.intent.rawValue)]).first
    }

    /// Newest first: `uid`'s batches, and the batches of others that moved photos `uid` owned.
    func recentBatches(involving uid: UInt32, limit: Int) throws(JournalError) -> [JournalBatch] {
        try batches("""
            SELECT \(Self.batchColumns) FROM batches
            WHERE uid = ? OR id IN (SELECT batch FROM items WHERE owner = ? AND moved)
            ORDER BY id DESC LIMIT ?
            """, [.int(Int64(uid)), .int(Int64(uid)), .int(Int64(limit))])
    }

    /// Newest first; all users when `uid` is nil.
    func recentBatches(uid: UInt32?, limit: Int) throws(JournalError) -> [JournalBatch] {
        if let uid {
            return try batches("SELECT \(Self.batchColumns) FROM batches WHERE uid = ? ORDER BY id DESC LIMIT ?",
                               [.int(Int64(uid)), .int(Int64(limit))])
        }
        return try batches("SELECT \(Self.batchColumns) FROM batches ORDER BY id DESC LIMIT ?", [.int(Int64(limit))])
    }

    /// A batch's counts; of `owner`'s photos only, when given.
    func counts(of batch: Int64, owner: UInt32? = nil) throws(SQLiteError) -> JournalBatchCounts {
        try lock.withLock { () throws(SQLiteError) in try database.prepare("""
            SELECT count(*), coalesce(sum(moved), 0), coalesce(sum(state = ?), 0), coalesce(sum(CASE WHEN moved THEN size ELSE 0 END), 0),
                   count(DISTINCT \(Self.photoKey)), count(DISTINCT CASE WHEN moved THEN \(Self.photoKey) END),
                   count(DISTINCT CASE WHEN state = ? THEN \(Self.photoKey) END)
            FROM items WHERE batch = ? AND (? IS NULL OR owner = ?)
            """).bind(.text(JournalItemState.restored.rawValue), .text(JournalItemState.restored.rawValue), .int(batch),
                      owner.map { .int(Int64($0)) } ?? .null, owner.map { .int(Int64($0)) } ?? .null)
            .firstRow {
                JournalBatchCounts(count: $0.int(0), trashed: $0.int(1), restored: $0.int(2), bytes: $0.int64(3),
                                   photos: .init(count: $0.int(4), trashed: $0.int(5), restored: $0.int(6)))
            }
            ?? JournalBatchCounts(count: 0, trashed: 0, restored: 0, bytes: 0) }
    }

    /// One photo of a batch: a group's files share their `unit`; a file alone is its own
    /// (groups and photos are numbered apart, hence the letter).
    private static let photoKey = "CASE WHEN unit IS NULL THEN 'p' || photo ELSE 'g' || unit END"

    private static let itemColumns = """
        batch, step, photo, root_name, root_path, rel_path, dev, ino, size, mtime_ns, state, outcome, detail,
        trash_dir, trash_name, info_path, moved, trash_kind, owner, unit
        """

    /// The photos of a batch in plan order.
    func items(of batch: Int64) throws(JournalError) -> [JournalItem] {
        try readItems("SELECT \(Self.itemColumns) FROM items WHERE batch = ? ORDER BY step", [.int(batch)])
    }

    /// The photos of `uid`'s batches that are in the trash by our hand, oldest batch
    /// first, each with its batch's time (nanoseconds since the epoch).
    /// Every user's when `uid` is nil.
    func trashedItems(uid: UInt32?) throws(JournalError) -> [(item: JournalItem, createdNanoseconds: Int64)] {
        try rows("""
            SELECT \(Self.itemColumns.split(separator: ",").map { "items." + $0.trimmingPrefix(while: \.isWhitespace) }
                      .joined(separator: ", ")), batches.created_ns
            FROM items JOIN batches ON batches.id = items.batch
            WHERE (? OR batches.uid = ?) AND items.state = ? ORDER BY items.batch, items.step
            """, [.int(uid == nil ? 1 : 0), .int(Int64(uid ?? 0)), .text(JournalItemState.trashed.rawValue)]) { (s) throws(JournalError) in
            (try readItem(s), s.int64(20))  // after the 20 item columns
        }
    }

    /// Photos of every batch that a batch's undo, recovery or another tool put back
    /// at their original path (`restored`, and `gone` which covers that case too).
    func itemsBackOrGone() throws(JournalError) -> [JournalItem] {
        try readItems("SELECT \(Self.itemColumns) FROM items WHERE state IN (?, ?) ORDER BY batch, step",
                      [.text(JournalItemState.restored.rawValue), .text(JournalItemState.gone.rawValue)])
    }

    private func readItems(_ sql: String, _ values: [Statement.Value]) throws(JournalError) -> [JournalItem] {
        try rows(sql, values, readItem)
    }

    /// An item row, every value checked: an unknown state or outcome is an error, not a guess.
    private func readItem(_ s: Statement) throws(JournalError) -> JournalItem {
        let row = "batch \(s.int64(0)), step \(s.int64(1))"
        guard let state = JournalItemState(rawValue: s.text(10)) else {
            throw JournalError.unknownValue(path: database.path, table: "items", row: row, column: "state", value: s.text(10),
                                            known: JournalItemState.allCases.map(\.rawValue).joined(separator: ", "))
        }
        guard let outcome = PhotoOutcome(rawValue: s.text(11)) else {
            throw JournalError.unknownValue(path: database.path, table: "items", row: row, column: "outcome", value: s.text(11),
                                            known: PhotoOutcome.allCases.map(\.rawValue).joined(separator: ", "))
        }
        guard let kind = TrashKind(rawValue: s.text(17)) else {
            throw JournalError.unknownValue(path: database.path, table: "items", row: row, column: "trash_kind", value: s.text(17),
                                            known: TrashKind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return JournalItem(
            batch: s.int64(0), step: s.int(1), photoID: s.int64(2), rootName: s.text(3),
            rootPath: ByteString(s.blob(4)), relativePath: ByteString(s.blob(5)),
            identity: FileIdentity(device: UInt64(bitPattern: s.int64(6)), inode: UInt64(bitPattern: s.int64(7)),
                                   size: s.int64(8), mtimeNs: s.int64(9)),
            state: state, outcome: outcome,
            detail: s.isNull(12) ? nil : s.text(12),
            trashDirectory: s.isNull(13) ? nil : ByteString(s.blob(13)),
            trashName: s.isNull(14) ? nil : ByteString(s.blob(14)),
            infoPath: s.isNull(15) ? nil : ByteString(s.blob(15)),
            moved: s.int64(16) != 0, trashKind: kind,
            owner: s.isNull(18) ? nil : UInt32(exactly: s.int64(18)),
            unit: s.isNull(19) ? nil : s.int64(19))
    }

    /// Photos now in the trash by our hand (photo id and pinned identity), so that
    /// one restored by any means gets its former id back.
    func trashedPhotos() throws(SQLiteError) -> [Burial] {
        try lock.withLock { () throws(SQLiteError) in try trashedPhotosLocked() }
    }

    private func trashedPhotosLocked() throws(SQLiteError) -> [Burial] {
        let statement = try database.prepare("SELECT photo, dev, ino, size, mtime_ns, root_name, rel_path FROM items WHERE state = ?")
            .bind(.text(JournalItemState.trashed.rawValue))
        var result: [Burial] = []
        while try statement.step() {
            let s = statement
            result.append(Burial(id: s.int64(0), identity: FileIdentity(device: UInt64(bitPattern: s.int64(1)),
                                                                        inode: UInt64(bitPattern: s.int64(2)),
                                                                        size: s.int64(3), mtimeNs: s.int64(4)),
                                 rootName: s.text(5), relativePath: ByteString(s.blob(6))))
        }
        return result
    }

    /// The batches recorded as running or being undone: those this process is
    /// carrying out now, and any that a crash or a failed journal write left for the
    /// next start's recovery.
    func runningBatches() throws(SQLiteError) -> [Int64] {
        try lock.withLock { () throws(SQLiteError) -> [Int64] in
            let statement = try database.prepare("SELECT id FROM batches WHERE state = ? OR undo_running != 0 ORDER BY id")
                .bind(.text(BatchState.running.rawValue))
            defer { statement.reset() }
            var ids: [Int64] = []
            while try statement.step() { ids.append(statement.int64(0)) }
            return ids
        }
    }

    /// True while some batch is recorded as running or being undone.
    func hasRunningBatch() throws(SQLiteError) -> Bool { try !runningBatches().isEmpty }

    /// `journal_mode` and `synchronous` as SQLite reports them (for tests and `status`).
    func durability() throws(SQLiteError) -> (journalMode: String, synchronous: Int) {
        try lock.withLock { () throws(SQLiteError) in
            let journalMode = try database.prepare("PRAGMA journal_mode").firstRow { $0.text(0) } ?? ""
            return (journalMode, try database.prepare("PRAGMA synchronous").firstRow { $0.int(0) } ?? -1)
        }
    }
}
