// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorStore
import CuratorSystem

/// Puts the photos of one batch back at their original paths, recording each step
/// before taking it:
///
///   journal `restoring` → renameat2(NOREPLACE) from files/ to the original path
///   (link + unlink where the file system lacks NOREPLACE) → fsync both
///   directories → remove the .trashinfo → journal `restored`.
///
/// Nothing standing at a path is ever overwritten: that photo is a `conflict` and
/// stays in the trash. The .trashinfo goes only once the file is back, so a crash
/// leaves at worst a stale entry, never an unrestorable file. One per undo.
final class PhotoRestorer {
    private let journal: Journal
    private let failpoints: Failpoints
    private let observer = DiskObserver()
    private let requester: Requester
    private let effectiveUID: UInt32
    private let batch: Int64

    init(journal: Journal, failpoints: Failpoints, requester: Requester, effectiveUID: UInt32, batch: Int64) {
        self.journal = journal
        self.failpoints = failpoints
        self.requester = requester
        self.effectiveUID = effectiveUID
        self.batch = batch
    }

    /// Restores one trashed photo or records why not.
    func restore(_ item: JournalItem) throws(BatchError) -> (JournalItem, RestoredPhoto?) {
        var item = item
        func finish(_ state: JournalItemState, _ outcome: PhotoOutcome, _ detail: String?) throws(BatchError) -> JournalItem {
            do {
                try journal.recordItem(batch: batch, step: item.step, state: state, outcome: outcome, detail: detail)
            } catch {
                throw BatchError(.journal, "journal: \(error)")
            }
            try failpoints.reach(.undoJournaled)
            item.state = state
            item.outcome = outcome
            item.detail = detail
            return item
        }
        /// Stays in the trash, for a later undo.
        func stays(_ outcome: PhotoOutcome, _ detail: String?) throws(BatchError) -> (JournalItem, RestoredPhoto?) {
            (try finish(.trashed, outcome, detail), nil)
        }

        guard let path = item.photoPath, let name = item.trashName, item.trashDirectory != nil else {
            return (try finish(.gone, .error, "the journal does not say where this photo went"), nil)
        }
        do {
            try journal.recordItem(batch: batch, step: item.step, state: .restoring, outcome: item.outcome, detail: item.detail)
        } catch {
            throw BatchError(.journal, "journal: \(error)")
        }
        try failpoints.reach(.undoIntent)

        // Still in the trash under its name?
        let look: DiskObserver.Observation
        do throws(SystemError) {
            look = try observer.observe(item)
        } catch {
            log.error("undo of batch \(batch) step \(item.step): \(error)")
            return try stays(.error, error.errno.name)
        }
        guard look.facts.trashFile == .same, let trash = look.trash else {
            return try gone(item, look, finish: finish)
        }

        // Its directory, recreated below the root if it went away.
        let root: DirectoryHandle
        do throws(SystemError) {
            root = try observer.roots.handle(path.root)
        } catch {
            return try stays(.error, "\(error.errno.name): the root \(path.root) cannot be opened")
        }
        var parent = root
        var chain: [FileStatus] = []
        var recreated: [ByteString] = []
        var below = ByteString.empty
        for component in path.directories {
            below = below.appending(component)
            switch openOrCreate(component, in: parent, chain: &chain) {
            case .opened(let next): parent = next
            case .created(let next):
                parent = next
                recreated.append(below)
            case .refused(let why): return try stays(.permissionDenied, why)
            case .blocked: return try stays(.conflict, "\(below.lossyString) is no longer a directory")
            case .failed(let error): return try stays(.error, error.errno.name)
            }
        }
        if requester.uid != effectiveUID {
            let parentStatus = try? parent.status()
            guard let parentStatus, AccessRule.maySearch(chain, requester), AccessRule.mayCreate(in: parentStatus, requester) else {
                return try stays(.permissionDenied, "uid \(requester.uid) may not create files in \(path.absolute.parent)")
            }
        }

        do throws(SystemError) {
            try moveBack(trash, name, parent, path.name)
        } catch {
            switch error.errno {
            case .exists: return try stays(.conflict, "a file now stands at \(path.relative.lossyString)")
            default:
                log.error("undo of batch \(batch) step \(item.step): \(error)")
                return try stays(.error, error.errno.name)
            }
        }
        try failpoints.reach(.undoRenamed)
        do throws(SystemError) {
            try parent.sync()
            try trash.files.sync()
        } catch {
            log.warning("undo of batch \(batch) step \(item.step): \(error)")
        }

        let back = (try? parent.status(of: path.name)) ?? nil
        let detail = recreated.isEmpty ? nil : "recreated \(recreated.map(\.lossyString).joined(separator: ", "))"
        do throws(SystemError) {
            try trash.removeInfo(name)
        } catch {
            // Left `restoring`: recovery will see the photo back and remove the stale info.
            log.error("undo of batch \(batch) step \(item.step): \(error)")
            _ = try finish(.restoring, .restored, detail)
            return (item, back.map { item.restoredPhoto(at: $0, byOtherTool: false, recreated: recreated) })
        }
        try failpoints.reach(.undoInfoRemoved)
        let restored = try finish(.restored, .restored, detail)
        return (restored, back.map { item.restoredPhoto(at: $0, byOtherTool: false, recreated: recreated) })
    }

    /// Not in the trash any more: restored by another tool, or purged.
    private func gone(_ item: JournalItem, _ look: DiskObserver.Observation,
                      finish: (JournalItemState, PhotoOutcome, String?) throws(BatchError) -> JournalItem) throws(BatchError) -> (JournalItem, RestoredPhoto?) {
        if look.facts.trashFile == .absent, look.facts.info == .matching || look.facts.info == .unreadable,
           let trash = look.trash, let name = item.trashName {
            do throws(SystemError) {
                try trash.removeInfo(name)
            } catch {
                log.warning("undo of batch \(batch) step \(item.step): removing a stale .trashinfo: \(error)")
            }
        }
        if look.facts.original == .same, let status = look.original {
            let done = try finish(.gone, .missing, "already back at its path (restored by another tool)")
            return (done, item.restoredPhoto(at: status, byOtherTool: true, recreated: []))
        }
        let why = look.facts.trashFile == .other ? "another file holds its name in the trash" : "no longer in the trash (purged)"
        return (try finish(.gone, .missing, why), nil)
    }

    private enum Step {
        case opened(DirectoryHandle)
        case created(DirectoryHandle)
        case refused(String)
        /// Something that is not a directory (or a symlink) stands there.
        case blocked
        case failed(SystemError)
    }

    /// Opens a directory component without following symlinks, recreating it when it
    /// is missing (owned by the requester when we are root acting for someone else).
    private func openOrCreate(_ name: ByteString, in parent: DirectoryHandle, chain: inout [FileStatus]) -> Step {
        do throws(SystemError) {
            let status = try parent.status()
            chain.append(status)
            do {
                return .opened(try parent.openDirectory(name))
            } catch where error.errno == .noEntry {
                if requester.uid != effectiveUID, !AccessRule.mayCreate(in: status, requester) {
                    return .refused("uid \(requester.uid) may not recreate \(parent.path.appending(name))")
                }
                try parent.makeDirectory(name, mode: 0o777)
                if effectiveUID == 0, requester.uid != 0 {
                    try parent.changeOwner(name, uid: requester.uid, gid: requester.gid)
                }
                return .created(try parent.openDirectory(name))
            }
        } catch {
            return error.errno == .tooManyLinks || error.errno == .notDirectory ? .blocked : .failed(error)
        }
    }

    /// renameat2(NOREPLACE); on a file system without it (EINVAL), link + unlink,
    /// which never overwrites either. EEXIST means something stands at the path.
    private func moveBack(_ trash: TrashDirectory, _ name: ByteString, _ parent: DirectoryHandle, _ target: ByteString) throws(SystemError) {
        do {
            try trash.files.rename(name, to: parent, as: target, noReplace: true)
        } catch where error.errno == .invalid {
            try trash.files.link(name, to: parent, as: target)
            do {
                try trash.files.remove(name)
            } catch {
                // Two names for one photo would block the next undo: take the new one back.
                _ = try? parent.remove(target)
                throw error
            }
        }
    }
}
