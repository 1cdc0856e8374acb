// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorSystem
import FoundationEssentials
import Glibc

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
    /// What one file system's fallback needs: a class, so that noting a photo
    /// mutates it in place (a struct in the dictionary copied its set per photo).
    private final class Touched {
        let trash: TrashDirectory
        var directories: [ObjectIdentifier: DirectoryHandle] = [:]
        /// The directory noted last: a chunk's photos come folder by folder.
        var lastDirectory: ObjectIdentifier?
        /// Names in `info/`, in the order noted (one may come twice: fsynced twice
        /// in the rare fallback, rather than hashed once per photo always).
        var infos: [ByteString] = []
        init(_ trash: TrashDirectory) { self.trash = trash }
    }

    /// One entry per file system touched (a trash's `info/` is the descriptor synced),
    /// by trash path; `last` is the one noted last (nearly every photo of a chunk
    /// goes to the same trash: no path hashed twice per photo).
    private var trashes: [ByteString: Touched] = [:]
    private var last: Touched?
    /// The syncfs calls running on a batch helper since `start`, in `order`.
    private var running: SyncfsRound?
    private var order: [ByteString] = []
    private let helpers: WorkerPool

    /// `helpers` run the syncs while the batch thread goes on.
    init(helpers: WorkerPool) {
        self.helpers = helpers
    }

    var isEmpty: Bool { trashes.isEmpty }

    /// Notes that `directory` (a photo's folder) changed within `trash`'s file system,
    /// and that `info` (a name in `info/`) was written or removed.
    func touched(_ trash: TrashDirectory, directory: DirectoryHandle?, info: ByteString?) {
        let entry: Touched
        if let last, last.trash === trash {
            entry = last
        } else if let known = trashes[trash.path] {
            entry = known
        } else {
            entry = Touched(trash)
            trashes[trash.path] = entry
        }
        last = entry
        if let directory, entry.lastDirectory != ObjectIdentifier(directory) {
            entry.directories[ObjectIdentifier(directory)] = directory
            entry.lastDirectory = ObjectIdentifier(directory)
        }
        if let info { entry.infos.append(info) }
    }

    /// Starts the syncfs of every file system noted on a helper thread and returns at
    /// once, so that the caller can prepare and move the next chunk meanwhile. The
    /// descriptors stay open (this object holds the trashes) until `finish`.
    func start() {
        guard running == nil, !trashes.isEmpty else { return }
        order = trashes.keys.sorted()
        running = SyncfsRound(order.compactMap { trashes[$0]?.trash.info.descriptor.rawValue }, on: helpers)
    }

    /// Waits for the syncs (starting them if `start` was not called), fsyncs one by
    /// one where syncfs failed, and forgets everything noted. Errors are returned, not
    /// thrown: the caller decides (the rename happened; only its durability is unsure).
    func finish() -> [SystemError] {
        start()
        guard let round = running else { return [] }
        let results = round.wait()
        var errors: [SystemError] = []
        for (path, error) in zip(order, results) where error != 0 {
            guard let entry = trashes[path] else { continue }
            let failed = SystemError("syncfs", path: path.lossyString, errno: Errno(error))
            log.warning("\(failed); syncing each directory instead")
            errors += fsyncEach(entry.trash, Array(entry.directories.values), entry.infos)
        }
        trashes.removeAll()
        last = nil
        running = nil
        order = []
        return errors
    }

    private func fsyncEach(_ trash: TrashDirectory, _ directories: [DirectoryHandle], _ infos: [ByteString]) -> [SystemError] {
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

/// syncfs(2) of some file systems as a job on a batch helper: the batch thread goes
/// on with the next chunk and collects the results (errno per descriptor, 0 for
/// success) when it needs them. The job syncs duplicates of the descriptors, so a
/// batch that stops (and closes its directories) never leaves it a stale number.
private struct SyncfsRound {
    private let copies: [Int32]
    private let job: JobHandle<[Int32], Never>?
    /// The results when no helper could be had (synced here, before the next chunk).
    private let synced: [Int32]?

    init(_ descriptors: [Int32], on helpers: WorkerPool) {
        var copies: [Int32] = []
        var initial: [Int32] = []
        for fd in descriptors {
            let copy = SystemCalls.dup(fd)
            copies.append(copy)
            initial.append(copy < 0 ? errno : 0)
        }
        self.copies = copies
        do throws(WorkerError) {
            job = try helpers.submit(named: "curatord-syncfs") { [copies, initial] in Self.sync(copies, initial) }
            synced = nil
        } catch {
            log.warning("syncing on this thread: \(error)")
            job = nil
            synced = Self.sync(copies, initial)
        }
    }

    private static func sync(_ copies: [Int32], _ initial: [Int32]) -> [Int32] {
        var results = initial
        for (index, fd) in copies.enumerated() where fd >= 0 {
            results[index] = SystemCalls.syncfs(fd) == 0 ? 0 : errno
            _ = SystemCalls.close(fd)  // a duplicate, only synced
        }
        return results
    }

    func wait() -> [Int32] {
        if let synced { return synced }
        guard let job else { return [] }
        if let results = job.wait().get() { return results }
        // Dropped by a pool shut down under it (which a batch's pool never is): nothing
        // was synced, and the caller fsyncs one by one instead.
        for fd in copies where fd >= 0 { _ = SystemCalls.close(fd) }
        return copies.map { _ in ECANCELED }
    }
}
