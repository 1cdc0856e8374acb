// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorStore
import CuratorSystem
import Glibc

/// Emptying: the one step that cannot be undone, so it is told exactly what it will
/// delete (`trashed`, with a token over that list) and deletes exactly that, journaled
/// like a batch (docs/JOURNAL.md): every photo `emptying` in one commit, then per
/// photo the file and after it its `.trashinfo` removed, each only while it is still
/// the photo pinned in the journal; the directories synced; then `gone` (outcome
/// `emptied`) in one commit. A crash in between is settled by recovery from the disk.
extension BatchRunner {
    /// The photos of `uid`'s batches still in the trash, oldest first; `root` keeps
    /// one root's, `cutoff` those whose batch ran at or before it (seconds since the epoch).
    public func trashed(uid: UInt32, root: String? = nil, cutoff: Int64? = nil) throws(BatchError) -> TrashListResult {
        let entries = try trashedEntries(uid: uid, root: root, cutoff: cutoff).filter { Self.stillInTrash($0.item) }
        let photos = entries.map { Self.photo($0.item, createdNanoseconds: $0.createdNanoseconds) }
        return TrashListResult(photos: photos, count: photos.count, bytes: photos.reduce(0) { $0 + $1.size },
                               token: Self.token(entries.map(\.item)))
    }

    /// Empties what `trashed(uid:root:cutoff:)` lists now, if that is still what
    /// `token` was given for; else throws `invalidPlan` and deletes nothing.
    public func empty(uid: UInt32, root: String? = nil, cutoff: Int64? = nil, token: String) throws(BatchError) -> TrashEmptyResult {
        try live.check { (running) throws(BatchError) in try refuseWhileUnrecovered(live: running) }
        let entries = try trashedEntries(uid: uid, root: root, cutoff: cutoff)
        // The token is of the list as shown; a photo another tool took out meanwhile is
        // emptied as `missing`, which its journal then records.
        guard Self.token(entries.filter { Self.stillInTrash($0.item) }.map(\.item)) == token else {
            throw BatchError(.tokenMismatch, "what is in the trash changed since it was listed (a batch, an undo or "
                             + "another tool): list it again; nothing was emptied")
        }
        return try empty(entries.map(\.item))
    }

    /// `recycle_keep_days`: empties, for every user, what was trashed from each named
    /// root at or before its cutoff (seconds since the epoch). Returns the result.
    public func emptyExpired(cutoffs: [String: Int64]) throws(BatchError) -> TrashEmptyResult {
        guard !cutoffs.isEmpty else { return TrashEmptyResult(items: [], emptied: 0, skipped: 0, bytes: 0) }
        try live.check { (running) throws(BatchError) in try refuseWhileUnrecovered(live: running) }
        let due = try journaling { () throws(JournalError) in try journal.trashedItems(uid: nil) }.filter { entry in
            cutoffs[entry.item.rootName].map { entry.createdNanoseconds / 1_000_000_000 <= $0 } ?? false
        }
        return try empty(due.map(\.item))
    }

    /// Empties the given photos (found `trashed` in the journal just before).
    func empty(_ items: [JournalItem]) throws(BatchError) -> TrashEmptyResult {
        defer { checkpointer.request() }
        guard !items.isEmpty else { return TrashEmptyResult(items: [], emptied: 0, skipped: 0, bytes: 0) }
        try journaling { () throws(SQLiteError) in
            try journal.transaction { () throws(SQLiteError) in
                for item in items {
                    try journal.recordItem(batch: item.batch, step: item.step, state: .emptying, outcome: item.outcome,
                                           detail: item.detail)
                }
            }
        }
        try failpoints.reach(.emptyIntent)
        let observer = DiskObserver()
        var endings: [(item: JournalItem, outcome: PhotoOutcome, detail: String?)] = []
        var touched: [ByteString: TrashDirectory] = [:]
        for item in items {
            let ending = try emptyOne(item, observer: observer)
            if let trash = ending.trash { touched[trash.path] = trash }
            endings.append((item, ending.outcome, ending.detail))
            try failpoints.reach(.emptyRemoved)
        }
        for trash in touched.values {
            do throws(SystemError) {
                try trash.files.sync()
                if trash.kind.rules.recordsInfoFiles { try trash.info.sync() }
            } catch {
                log.warning("emptying: syncing \(trash.path): \(error)")
            }
        }
        try failpoints.reach(.emptySynced)
        try journaling { () throws(SQLiteError) in
            try journal.transaction { () throws(SQLiteError) in
                for (item, outcome, detail) in endings {
                    // Left in the trash (changed, unreadable): trashed again, emptied another time.
                    let state: JournalItemState = outcome == .emptied || outcome == .missing ? .gone : .trashed
                    try journal.recordItem(batch: item.batch, step: item.step, state: state,
                                           outcome: state == .trashed ? .trashed : outcome, detail: detail)
                }
            }
        }
        let results = endings.map { ending in
            var item = ending.item
            item.outcome = ending.outcome
            item.detail = ending.detail
            return item.result
        }
        let emptied = endings.filter { $0.outcome == .emptied }
        log.info("emptied \(emptied.count) of \(items.count) photos from the trash")
        return TrashEmptyResult(items: results, emptied: emptied.count, skipped: items.count - emptied.count,
                                bytes: emptied.reduce(0) { $0 + $1.item.size })
    }

    /// Deletes one photo's file (only while it is the photo pinned), then its info.
    private func emptyOne(_ item: JournalItem, observer: DiskObserver)
        throws(BatchError) -> (outcome: PhotoOutcome, detail: String?, trash: TrashDirectory?) {
        guard let directory = item.trashDirectory, let name = item.trashName else { return (.missing, "not in a trash", nil) }
        let trash: TrashDirectory
        do throws(SystemError) {
            trash = try observer.trash(directory, kind: item.trashKind, root: item.rootPath)
            guard let status = try trash.files.status(of: name) else {
                _ = try trash.removeInfo(name, synced: false)
                return (.missing, "no longer in the trash (purged or restored elsewhere)", trash)
            }
            // All of it (device, inode, size, mtime): a file put there after the photo was
            // deleted by hand may have its inode number again.
            if let why = item.identity.mismatch(status) {
                return (.changed, "\(directory.appending(name)) is no longer the photo trashed (\(why)); left alone", nil)
            }
            _ = try trash.files.remove(name)
            _ = try trash.removeInfo(name, synced: false)
        } catch {
            log.error("emptying \(directory)/\(name): \(error)")
            if error.errno == .noEntry { return (.missing, "its trash \(directory) is gone", nil) }
            return (.error, error.errno.name, nil)
        }
        return (.emptied, nil, trash)
    }

    private func trashedEntries(uid: UInt32, root: String?, cutoff: Int64?)
        throws(BatchError) -> [(item: JournalItem, createdNanoseconds: Int64)] {
        try journaling { () throws(JournalError) in try journal.trashedItems(uid: uid) }.filter { entry in
            (root == nil || entry.item.rootName == root)
                && (cutoff.map { entry.createdNanoseconds / 1_000_000_000 <= $0 } ?? true)
        }
    }

    /// Whether a photo the journal records in the trash is still there: trash-restore,
    /// gio or a file manager may have put it back (or purged it) since, which the
    /// journal learns at the next undo or emptying. Another file under its name stays
    /// listed (emptying leaves it alone as `changed`, and says so); one that cannot be
    /// looked at (its trash unreadable, unmounted) is as the journal says.
    static func stillInTrash(_ item: JournalItem) -> Bool {
        guard let directory = item.trashDirectory, let name = item.trashName else { return false }
        let location = item.trashKind.rules.location(of: name, in: directory)
        let status: FileStatus?
        do {
            status = try FileStatus.ifExists(location)
        } catch {
            return true
        }
        return status != nil
    }

    static func photo(_ item: JournalItem, createdNanoseconds: Int64) -> TrashedPhoto {
        let location: ByteString = if let directory = item.trashDirectory, let name = item.trashName {
            item.trashKind.rules.location(of: name, in: directory)
        } else {
            ""
        }
        return TrashedPhoto(batch: item.batch, step: item.step, id: item.photoID, root: item.rootName,
                            path: item.relativePath.lossyString,
                            pathRaw: item.relativePath.utf8String == nil ? item.relativePath.base64 : nil, size: item.size,
                            trashedAt: LocalTime(epochSeconds: createdNanoseconds / 1_000_000_000).rfc3339Text,
                            kind: item.trashKind, location: location.lossyString, group: item.unit)
    }

    /// 16 hex digits of FNV-1a over what the list names: the photos (batch, step,
    /// device, inode) in order. Not a secret: the caller's own photos are re-listed
    /// and checked at confirm time; it only says "the same list as shown".
    static func token(_ items: [JournalItem]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ value: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) {
                hash ^= (value >> UInt64(shift)) & 0xff
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        mix(UInt64(items.count))
        for item in items {
            mix(UInt64(bitPattern: item.batch))
            mix(UInt64(item.step))
            mix(item.identity.device)
            mix(item.identity.inode)
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
