// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorStore
import CuratorSystem

/// Moves the photos of one batch to the trash, one at a time, recording each step
/// in the journal before taking it:
///
///   check identity → journal `intent` (trash, name) → create .trashinfo →
///   check identity again → renameat2(NOREPLACE) into files/ → fsync both
///   directories → journal `trashed`.
///
/// A photo that is not exactly what the plan pinned is left alone and reported.
/// One per batch; not Sendable.
final class PhotoTrasher {
    private let journal: Journal
    private let failpoints: Failpoints
    private let resolver: TrashResolver
    private let roots = RootDirectories()
    private let requester: Requester
    private let effectiveUID: UInt32
    private let batch: Int64

    init(journal: Journal, failpoints: Failpoints, resolver: TrashResolver, requester: Requester, effectiveUID: UInt32, batch: Int64) {
        self.journal = journal
        self.failpoints = failpoints
        self.resolver = resolver
        self.requester = requester
        self.effectiveUID = effectiveUID
        self.batch = batch
    }

    /// Trashes one photo or records why not; returns the item as now journaled.
    /// Throws only when the batch must stop (journal failure, failpoint).
    func trash(_ item: JournalItem, isProtected: Bool) throws(BatchError) -> JournalItem {
        var item = item
        func finish(_ state: JournalItemState, _ outcome: PhotoOutcome, _ detail: String?, moved: Bool = false) throws(BatchError) -> JournalItem {
            try journaling { () throws(SQLiteError) in
                try journal.recordItem(batch: batch, step: item.step, state: state, outcome: outcome, detail: detail, moved: moved)
            }
            try failpoints.reach(.itemJournaled)
            item.state = state
            item.outcome = outcome
            item.detail = detail
            item.moved = item.moved || moved
            return item
        }
        func failed(_ error: SystemError, _ doing: String) throws(BatchError) -> JournalItem {
            log.error("batch \(batch) step \(item.step): \(doing): \(error)")
            return try finish(.skipped, .error, error.errno.name)
        }

        if isProtected { return try finish(.skipped, .protected, "in a protected folder") }
        guard let path = item.photoPath else { return try finish(.skipped, .error, "invalid relative path") }

        // Find the photo from its root, through directories only, and check it is the one planned.
        let parent: DirectoryHandle
        let chain: [FileStatus]
        let status: FileStatus
        switch locate(path) {
        case .found(let p, let c, let s): (parent, chain, status) = (p, c, s)
        case .vanished: return try finish(.skipped, .vanished, nil)
        case .changed(let why): return try finish(.skipped, .changed, why)
        case .failed(let error): return try failed(error, "locating \(path.absolute)")
        }
        if let mismatch = item.identity.mismatch(status) { return try finish(.skipped, .changed, mismatch) }

        if requester.uid != effectiveUID {
            guard let directory = chain.last, AccessRule.maySearch(chain, requester),
                  AccessRule.mayRemove(status, from: directory, requester)
            else {
                return try finish(.skipped, .permissionDenied, "uid \(requester.uid) may not delete files in \(path.absolute.parent)")
            }
        }

        let trash: TrashDirectory
        switch resolver.trash(for: parent, uid: requester.uid) {
        case .trash(let found): trash = found
        case .unavailable(let reason): return try finish(.skipped, .noTrash, reason)
        }
        // Path= names the file where the kernel says it is (the root may be a symlink).
        let original = parent.resolvedPath().map { $0.appending(path.name) } ?? path.absolute
        guard let infoPath = trash.infoPath(forOriginal: original) else {
            return try finish(.skipped, .noTrash, "\(original) is not below the top directory of \(trash.path)")
        }
        let info = TrashInfo(path: infoPath, deletionDate: LocalTime.now().trashInfoText)

        /// Gives up on `name` after its .trashinfo was written. If the info cannot be
        /// removed, the item stays `intent` so that recovery removes it later.
        func abandon(_ name: ByteString, _ outcome: PhotoOutcome, _ detail: String?) throws(BatchError) -> JournalItem {
            do throws(SystemError) {
                try trash.removeInfo(name)
            } catch {
                log.error("batch \(batch) step \(item.step): removing \(trash.path)/info/\(name).trashinfo: \(error)")
                return try finish(.intent, outcome, detail)
            }
            return try finish(.skipped, outcome, detail)
        }

        for _ in 0..<100 {
            let name: ByteString
            do throws(SystemError) {
                name = try trash.freeName(for: path.name)
            } catch {
                return try failed(error, "choosing a name in \(trash.path)")
            }
            try journaling { () throws(SQLiteError) in
                try journal.recordIntent(batch: batch, step: item.step, trashDirectory: trash.path, trashName: name, infoPath: infoPath)
            }
            item.state = .intent
            item.trashDirectory = trash.path
            item.trashName = name
            item.infoPath = infoPath
            try failpoints.reach(.itemIntent)

            do throws(SystemError) {
                guard try trash.createInfo(name, info) else { continue }  // taken meanwhile: next name
            } catch {
                // The O_EXCL fallback may have left a partial file: abandon takes it away.
                log.error("batch \(batch) step \(item.step): writing \(trash.path)/info/\(name).trashinfo: \(error)")
                return try abandon(name, .error, error.errno.name)
            }
            try failpoints.reach(.itemInfoWritten)

            // Last look before the move, to keep the window for a swap small.
            switch lastLook(parent, path.name, item.identity) {
            case .same: break
            case .vanished: return try abandon(name, .vanished, nil)
            case .changed(let why): return try abandon(name, .changed, why)
            case .failed(let error): return try abandon(name, .error, error.errno.name)
            }
            try failpoints.reach(.itemVerified)

            do throws(SystemError) {
                try moveIntoTrash(parent, path.name, trash, name)
            } catch {
                switch error.errno {
                case .exists:
                    // files/<name> appeared after we chose it: drop our info and choose again.
                    do throws(SystemError) {
                        try trash.removeInfo(name)
                    } catch {
                        return try abandon(name, .error, error.errno.name)
                    }
                    continue
                case .noEntry: return try abandon(name, .vanished, nil)
                case .crossDevice: return try abandon(name, .noTrash, "\(trash.path) is on another mount than the photo")
                default:
                    log.error("batch \(batch) step \(item.step): moving \(path.absolute) to \(trash.path): \(error)")
                    return try abandon(name, .error, error.errno.name)
                }
            }
            try failpoints.reach(.itemRenamed)

            // What went into the trash must be the photo: a file swapped in between the
            // last look and the rename goes back where it was.
            if let moved = try? trash.files.status(of: name), !item.identity.isSameFile(moved) {
                return try putBack(parent, path, trash, name, finish: finish, abandon: abandon)
            }

            do throws(SystemError) {
                try parent.sync()
                try trash.files.sync()
            } catch {
                log.warning("batch \(batch) step \(item.step): \(error)")
            }
            try failpoints.reach(.itemSynced)
            return try finish(.trashed, .trashed, nil, moved: true)
        }
        return try finish(.skipped, .error, "no free name in \(trash.path) after 100 attempts")
    }

    private enum Located {
        case found(DirectoryHandle, [FileStatus], FileStatus)
        case vanished
        case changed(String)
        case failed(SystemError)
    }

    private func locate(_ path: PhotoPath) -> Located {
        do throws(SystemError) {
            let (parent, chain) = try path.openParent(from: try roots.handle(path.root))
            guard let status = try parent.status(of: path.name) else { return .vanished }
            return .found(parent, chain, status)
        } catch {
            switch error.errno {
            case .noEntry: return .vanished
            case .tooManyLinks, .notDirectory: return .changed("a directory on its path was replaced")
            default: return .failed(error)
            }
        }
    }

    private enum LastLook {
        case same
        case vanished
        case changed(String)
        case failed(SystemError)
    }

    private func lastLook(_ parent: DirectoryHandle, _ name: ByteString, _ identity: FileIdentity) -> LastLook {
        do throws(SystemError) {
            guard let now = try parent.status(of: name) else { return .vanished }
            return identity.mismatch(now).map { .changed($0) } ?? .same
        } catch {
            return .failed(error)
        }
    }

    /// renameat2(NOREPLACE); where the file system lacks it (EINVAL), a plain rename
    /// after checking the name is free: `files/` is the user's own 0700 directory.
    private func moveIntoTrash(_ parent: DirectoryHandle, _ name: ByteString, _ trash: TrashDirectory, _ trashName: ByteString) throws(SystemError) {
        do {
            try parent.rename(name, to: trash.files, as: trashName, noReplace: true)
        } catch where error.errno == .invalid {
            if try trash.files.status(of: trashName) != nil {
                throw SystemError("rename", path: trash.path.appending("files").appending(trashName).lossyString, errno: .exists)
            }
            try parent.rename(name, to: trash.files, as: trashName, noReplace: false)
        }
    }

    private func putBack(_ parent: DirectoryHandle, _ path: PhotoPath, _ trash: TrashDirectory, _ name: ByteString,
                         finish: (JournalItemState, PhotoOutcome, String?, Bool) throws(BatchError) -> JournalItem,
                         abandon: (ByteString, PhotoOutcome, String?) throws(BatchError) -> JournalItem) throws(BatchError) -> JournalItem {
        do throws(SystemError) {
            try trash.files.rename(name, to: parent, as: path.name, noReplace: true)
        } catch {
            // It stays in the trash with its .trashinfo, so any trash tool can restore it.
            log.error("batch \(batch): a file not in the plan was moved to \(trash.path)/files/\(name) and cannot be put back: \(error)")
            return try finish(.skipped, .changed, "replaced during the move; the other file is in the trash as \(name.lossyString)", false)
        }
        return try abandon(name, .changed, "replaced during the move; put back")
    }

    private func journaling(_ body: () throws(SQLiteError) -> Void) throws(BatchError) {
        do {
            try body()
        } catch {
            throw BatchError(.journal, "journal: \(error)")
        }
    }
}
