// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Glibc

/// Step 1 of a chunk, per photo: find it from its root without following symlinks,
/// check it is the photo planned and that the requester may delete it, choose its
/// trash (by mount) and a free name. Changes nothing on disk.
extension PhotoTrasher {
    /// A photo ready to move. A class: a chunk's moves are handed between threads
    /// and lists several times, and a copy of these five fields was five retains.
    final class PlannedMove {
        let parent: DirectoryHandle
        let path: PhotoPath
        let trash: TrashDirectory
        let name: ByteString
        let info: TrashInfo
        var infoPath: ByteString { info.path }

        init(parent: DirectoryHandle, path: PhotoPath, trash: TrashDirectory, name: ByteString, info: TrashInfo) {
            self.parent = parent
            self.path = path
            self.trash = trash
            self.name = name
            self.info = info
        }
    }

    enum Prepared {
        /// Nothing to move: the outcome is known already.
        case done(Ending)
        case move(PlannedMove)
    }

    func prepare(_ item: JournalItem, isProtected: Bool, parents: ParentDirectories) -> Prepared {
        func skip(_ outcome: PhotoOutcome, _ detail: String?) -> Prepared {
            .done(Ending(state: .skipped, outcome: outcome, detail: detail))
        }
        func failed(_ error: SystemError, _ doing: String) -> Prepared {
            log.error("batch \(batch) step \(item.step): \(doing): \(error)")
            return skip(.error, error.errno.name)
        }

        if isProtected { return skip(.protected, "in a protected folder") }
        guard let path = item.photoPath else { return skip(.error, "invalid relative path") }

        let parent: DirectoryHandle
        let chain: [FileStatus]
        let status: FileStatus
        do throws(SystemError) {
            (parent, chain) = try parents.open(path)
            guard let found = try parent.status(of: path.name) else { return skip(.vanished, nil) }
            status = found
        } catch {
            switch error.errno {
            case .noEntry: return skip(.vanished, nil)
            case .tooManyLinks, .notDirectory: return skip(.changed, "a directory on its path was replaced")
            default: return failed(error, "locating \(path.absolute)")
            }
        }
        if let mismatch = item.identity.mismatch(status) { return skip(.changed, mismatch) }

        if requester.uid != effectiveUID {
            guard let directory = chain.last, AccessRule.maySearch(chain, requester),
                  AccessRule.mayRemove(status, from: directory, requester)
            else {
                return skip(.permissionDenied, "uid \(requester.uid) may not delete files in \(path.absolute.parent)")
            }
        }

        let placement = parents.placement(path, parent) { parent in
            ParentDirectories.Placement(trash: resolver.trash(for: parent, uid: requester.uid), resolvedPath: parent.resolvedPath())
        }
        let trash: TrashDirectory
        switch placement.trash {
        case .trash(let found): trash = found
        case .unavailable(let reason): return skip(.noTrash, reason)
        }
        // Path= names the file where the kernel says it is (the root may be a symlink).
        let original = placement.resolvedPath.map { $0.appending(path.name) } ?? path.absolute
        guard let infoPath = trash.infoPath(forOriginal: original) else {
            return skip(.noTrash, "\(original) is not below the top directory of \(trash.path)")
        }
        let name: ByteString
        do throws(SystemError) {
            trash.listNamesIfWorthIt(batchCount: batchSize)
            name = try trash.freeName(for: path.name)
        } catch {
            return failed(error, "choosing a name in \(trash.path)")
        }
        return .move(PlannedMove(parent: parent, path: path, trash: trash, name: name,
                                 info: TrashInfo(path: infoPath, deletionDate: deletionDate())))
    }

    /// `DeletionDate=` for now: formatted once per second, not once per photo.
    private func deletionDate() -> String {
        let now = Int64(time(nil))
        if let cached = dateText, cached.second == now { return cached.text }
        let text = LocalTime(epochSeconds: now).trashInfoText
        dateText = (now, text)
        return text
    }
}
