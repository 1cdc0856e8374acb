// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorStore
import CuratorSystem

/// Steps 2-4 of a chunk, per photo, nothing synced: `.trashinfo` created,
/// renameat2(NOREPLACE) into `files/`, what arrived checked. Everything touched is
/// noted in `sync` so that the chunk's sync makes it durable before the outcome is
/// journaled; until then the journal says `intent` and recovery trusts the disk.
extension PhotoTrasher {
    /// Moves one photo whose intent is committed; returns how it ended. A name taken
    /// meanwhile by another program gets the next free one, journaled (one commit, a
    /// rare case) before its `.trashinfo` is created, so that the journal always
    /// names where the photo may be.
    /// `firstInfo` is how the first attempt's `.trashinfo` went when it was written
    /// ahead (`InfoWriterAhead`); nil to write it here.
    func move(_ item: inout JournalItem, _ planned: PlannedMove, sync: ChunkSync,
              firstInfo: InfoWriterAhead.Result? = nil) throws(BatchError) -> Ending {
        let trash = planned.trash
        let path = planned.path
        var name = planned.name

        /// Gives up on `name` after its .trashinfo was written. If the info cannot be
        /// removed, the item stays `intent` so that recovery removes it later.
        func abandon(_ outcome: PhotoOutcome, _ detail: String?) -> Ending {
            do throws(SystemError) {
                try trash.removeInfo(name, synced: false)
            } catch {
                log.error("batch \(batch) step \(item.step): removing \(trash.path)/info/\(name).trashinfo: \(error)")
                return Ending(state: .intent, outcome: outcome, detail: detail)
            }
            return Ending(state: .skipped, outcome: outcome, detail: detail)
        }

        for attempt in 0..<100 {
            if attempt > 0 {
                do throws(SystemError) {
                    name = try trash.freeName(for: path.name, fresh: true)
                } catch {
                    log.error("batch \(batch) step \(item.step): choosing a name in \(trash.path): \(error)")
                    return Ending(state: .skipped, outcome: .error, detail: error.errno.name)
                }
                let chosen = name
                try journaling { () throws(SQLiteError) in
                    try journal.recordIntent(batch: batch, step: item.step, trashDirectory: trash.path, trashName: chosen,
                                             infoPath: planned.infoPath, kind: trash.kind, owner: planned.owner)
                }
                item.trashName = name
                try failpoints.reach(.itemNewName)
            }

            do throws(SystemError) {
                switch attempt == 0 ? firstInfo : nil {
                case .written?: break
                case .taken?: continue  // taken meanwhile: next name
                case .failed(let error)?: throw error
                case nil:
                    guard try trash.writeInfoUnsynced(name, planned.info, beforeWriting: { [failpoints] in
                        try? failpoints.reach(.itemInfoCreated)
                    }, beforeNaming: { [failpoints] in
                        try? failpoints.reach(.itemInfoUnnamed)
                    }) else { continue }
                }
            } catch {
                // Nothing was named (it is written whole or not at all); abandon removes the name if it was.
                log.error("batch \(batch) step \(item.step): writing \(trash.path)/info/\(name).trashinfo: \(error)")
                sync.touched(trash, directory: nil, info: name)
                return abandon(.error, error.errno.name)
            }
            sync.touched(trash, directory: nil, info: name)
            try failpoints.reach(.itemInfoWritten)

            do throws(SystemError) {
                try moveIntoTrash(planned.parent, path.name, trash, name)
            } catch {
                switch error.errno {
                case .exists:
                    // files/<name> appeared after we chose it: drop our info and choose again.
                    // The removal is synced now: the journal is about to forget this name,
                    // and a power cut must not bring back a .trashinfo nobody knows of.
                    do throws(SystemError) {
                        try trash.removeInfo(name, synced: true)
                    } catch {
                        return abandon(.error, error.errno.name)
                    }
                    continue
                case .noEntry: return abandon(.vanished, nil)
                case .crossDevice: return abandon(.noTrash, "\(trash.path) is on another mount than the photo")
                default:
                    log.error("batch \(batch) step \(item.step): moving \(path.absolute) to \(trash.path): \(error)")
                    return abandon(.error, error.errno.name)
                }
            }
            sync.touched(trash, directory: planned.parent, info: nil)
            try failpoints.reach(.itemRenamed)

            // What went into the trash must be the photo as the plan found it, checked
            // once, on the moved file: a file swapped in, or the photo changed, since
            // the chunk's own check (step 1) goes back where it was.
            if let moved = try? trash.files.status(of: name), let why = item.identity.mismatch(moved) {
                do throws(SystemError) {
                    try trash.files.rename(name, to: planned.parent, as: path.name, noReplace: true)
                } catch {
                    // It stays in the trash with its .trashinfo, so any trash tool can restore it.
                    log.error("batch \(batch): a file not as planned (\(why)) was moved to \(trash.path)/files/\(name) and cannot be put back: \(error)")
                    return Ending(state: .skipped, outcome: .changed,
                                  detail: "\(why) during the move; it is in the trash as \(name.lossyString)")
                }
                return abandon(.changed, "\(why) during the move; put back")
            }
            return Ending(state: .trashed, outcome: .trashed, detail: nil, moved: true)
        }
        return Ending(state: .skipped, outcome: .error, detail: "no free name in \(trash.path) after 100 attempts")
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
}
