// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Glibc

/// Looks at where a journaled photo stands on disk: at its original path, in the
/// trash under its recorded name, and whether its `.trashinfo` is there and ours.
/// Only looks; never changes anything.
final class DiskObserver {
    let roots = RootDirectories()
    private var trashes: [ByteString: TrashDirectory] = [:]
    private let walk = TrashWalk(effectiveUID: geteuid())

    struct Observation {
        var facts: DiskFacts
        /// lstat of the original path, when something is there.
        var original: FileStatus?
        /// The recorded trash, when it still exists.
        var trash: TrashDirectory?
    }

    /// The trash at `path`, reached from a folder we trust (`TrashWalk`; `root`, the
    /// photo's root, for a recycle folder). Its directory missing is not taken to mean
    /// "purged": it is what an unmounted volume looks like, so that throws (ENOENT) and
    /// nothing is decided; nor is one that is not its user's (a look-alike).
    func trash(_ path: ByteString, kind: TrashKind = .freedesktop, root: ByteString? = nil) throws(SystemError) -> TrashDirectory {
        if let known = trashes[path], known.kind == kind { return known }
        let opened = try root.map { (root) throws(SystemError) in (path: root, handle: try roots.handle(root)) }
        let trash = try walk.reopen(path, kind: kind, root: opened)
        trashes[path] = trash
        return trash
    }

    /// Throws when something cannot be inspected (a root offline, EACCES, EIO):
    /// then nothing can be decided about this photo yet.
    func observe(_ item: JournalItem) throws(SystemError) -> Observation {
        let original: FileStatus? = if let path = item.photoPath { try roots.statusAtOriginalPath(path) } else { nil }
        var facts = DiskFacts(original: presence(original, item.identity), trashFile: .absent, info: .absent)
        guard let directory = item.trashDirectory, let name = item.trashName else {
            return Observation(facts: facts, original: original, trash: nil)
        }
        let trash = try trash(directory, kind: item.trashKind, root: item.rootPath)
        facts.trashFile = presence(try trash.files.status(of: name), item.identity)
        if !trash.kind.rules.recordsInfoFiles {
            // No .trashinfo: the folder's place is the record; there is nothing to repair.
            facts.info = facts.trashFile == .same ? .matching : .absent
            return Observation(facts: facts, original: original, trash: trash)
        }
        do {
            switch try trash.readInfo(name) {
            case .absent: facts.info = .absent
            case .unreadable: facts.info = .unreadable
            case .present(let info): facts.info = info.path == item.infoPath ? .matching : .foreign
            }
        } catch where error.errno == .tooManyLinks || error.errno == .isDirectory || error.errno == .fileTooLarge {
            facts.info = .foreign  // a symlink, a directory or 64 KiB under that name is not ours
        }
        return Observation(facts: facts, original: original, trash: trash)
    }

    private func presence(_ status: FileStatus?, _ identity: FileIdentity) -> Presence {
        guard let status else { return .absent }
        return identity.isSameFile(status) ? .same : .other
    }
}
