// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc

// Swift's Glibc module is built without _GNU_SOURCE and hides syncfs(2).
@_silgen_name("syncfs") private func system_syncfs(_ fd: Int32) -> Int32

/// Makes one chunk's file system work durable with one call per file system
/// instead of an fsync per photo and directory.
///
/// Every change a chunk makes to a photo happens on the file system of the trash it
/// goes to (a rename never crosses a mount): the `.trashinfo` written or removed,
/// the entry leaving the photo's directory, the entry arriving in `files/`, folders
/// recreated by an undo. `syncfs(2)` on that file system writes back all of its
/// dirty data and metadata and, on ext4/xfs/btrfs, commits the journal and flushes
/// the device cache before it returns: what an fsync of each of those directories
/// and each `.trashinfo` would do, in one journal commit. It may also write back
/// other programs' dirty data on that file system, which is the price of the one call.
///
/// Where syncfs fails (EIO, or a file system that refuses it), every directory and
/// `.trashinfo` noted is fsynced one by one instead, so that nothing is claimed
/// durable on the strength of a failed call.
final class ChunkSync {
    /// One open descriptor per file system touched (a trash's `info/`), with the
    /// directories and `.trashinfo` names to fsync if syncfs fails.
    private var trashes: [ByteString: (trash: TrashDirectory, directories: [DirectoryHandle], infos: Set<ByteString>)] = [:]

    var isEmpty: Bool { trashes.isEmpty }

    /// Notes that `directory` (a photo's folder) changed within `trash`'s file system,
    /// and that `info` (a name in `info/`) was written or removed.
    func touched(_ trash: TrashDirectory, directory: DirectoryHandle?, info: ByteString?) {
        var entry = trashes[trash.path] ?? (trash, [], [])
        if let directory, !entry.directories.contains(where: { $0 === directory }) { entry.directories.append(directory) }
        if let info { entry.infos.insert(info) }
        trashes[trash.path] = entry
    }

    /// Syncs every file system noted and forgets them. Errors are returned, not
    /// thrown: the caller decides (the rename happened; only its durability is unsure).
    func sync() -> [SystemError] {
        var errors: [SystemError] = []
        for (path, entry) in trashes.sorted(by: { $0.key.bytes.lexicographicallyPrecedes($1.key.bytes) }) {
            if system_syncfs(entry.trash.info.descriptor.rawValue) == 0 { continue }
            let failed = SystemError("syncfs", path: path.lossyString, errno: Errno(errno))
            log.warning("\(failed); syncing each directory instead")
            errors += fsyncEach(entry.trash, entry.directories, entry.infos)
        }
        trashes.removeAll()
        return errors
    }

    private func fsyncEach(_ trash: TrashDirectory, _ directories: [DirectoryHandle], _ infos: Set<ByteString>) -> [SystemError] {
        var errors: [SystemError] = []
        for name in infos {
            do throws(SystemError) {
                let fd = try FileDescriptor.open(TrashDirectory.infoName(name), O_RDONLY | O_NOFOLLOW, relativeTo: trash.info.descriptor)
                try fd.closeAfter { (fd) throws(SystemError) in try fd.sync() }
            } catch where error.errno == .noEntry {
                continue  // removed (an undo, or a skip): the directory sync covers it
            } catch {
                errors.append(error)
            }
        }
        for directory in directories + [trash.info, trash.files] {
            do throws(SystemError) { try directory.sync() } catch { errors.append(error) }
        }
        return errors
    }
}
