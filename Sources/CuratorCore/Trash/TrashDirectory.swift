// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import CLinux
import Glibc
import Synchronization

/// An opened trash: its `files/` and `info/` directories. Names are reserved by
/// creating the `.trashinfo` before the file is moved in. For a kind that records
/// none (`KindOfTrash.recordsInfoFiles`: a recycle folder,
/// `<root>/.recycle/<user>/<its folder>`) it is the one folder a photo goes into:
/// `files` and `info` are that folder (its place says where the photo was), and the
/// `info` methods do nothing. A batch writes and removes
/// them unsynced and makes a whole chunk durable at once (`ChunkSync`); the
/// synced variants are for recovery's one-off repairs.
///
/// Shared by a batch's threads (the next chunk is prepared while one moves): the
/// names it hands out are kept behind a lock; the rest is set once.
final class TrashDirectory: Sendable {
    /// The trash directory's absolute path (`.../Trash`, `$topdir/.Trash-1000`, ...).
    let path: ByteString
    /// The volume's top directory for a volume trash; nil for the home trash or when
    /// reopened from the journal (which already holds the info path).
    let topdir: ByteString?
    let files: DirectoryHandle
    let info: DirectoryHandle
    let kind: TrashKind
    /// `kind`'s: whether `info/` holds a `.trashinfo` per photo.
    private let recordsInfo: Bool
    private struct Names {
        /// Per original name, the attempt number to start probing from: keeps a batch
        /// of a thousand `IMG_0001.jpg` from re-probing the same taken names each time.
        var nextAttempt: [ByteString: Int] = [:]
        /// Names handed out by `freeName` in this batch: a chunk chooses all its names
        /// before creating any `.trashinfo`, so two `IMG_0001.jpg` must not get the same one.
        var handedOut: Set<ByteString> = []
        /// Names in `files/` and in `info/` (less `.trashinfo`) when they were read at once.
        var listed: Set<ByteString>?
        var listingDecided = false
    }

    private let names = Mutex(Names())

    init(path: ByteString, topdir: ByteString?, files: DirectoryHandle, info: DirectoryHandle, kind: TrashKind = .freedesktop) {
        self.path = path
        self.topdir = topdir
        self.files = files
        self.info = info
        self.kind = kind
        recordsInfo = kind.rules.recordsInfoFiles
    }

    /// A recycle folder, opened (or made) by `RecycleResolver`.
    convenience init(recycleFolder path: ByteString, _ folder: DirectoryHandle) {
        self.init(path: path, topdir: nil, files: folder, info: folder, kind: .recycle)
    }

    /// Opens an existing freedesktop trash (undo, recovery). Throws ENOENT when it is gone.
    static func reopen(_ path: ByteString) throws(SystemError) -> TrashDirectory {
        let root = try DirectoryHandle.open(path, followingSymlinks: false)
        return TrashDirectory(path: path, topdir: nil, files: try root.openDirectory("files"), info: try root.openDirectory("info"))
    }

    static func infoName(_ name: ByteString) -> ByteString {
        ByteString(name.bytes + TrashInfo.fileSuffix.bytes)
    }

    /// The `Path=` value for a file at `absolute`: absolute in the home trash, relative
    /// to `$topdir` in a volume trash; nil when the file is not under `$topdir`.
    func infoPath(forOriginal absolute: ByteString) -> ByteString? {
        guard let topdir, recordsInfo else { return absolute }
        if topdir == "/" {
            guard absolute.bytes.first == UInt8(ascii: "/"), absolute.count > 1 else { return nil }
            return ByteString(Array(absolute.bytes.dropFirst()))
        }
        guard absolute.isWithin(topdir), absolute != topdir else { return nil }
        return absolute.relative(to: topdir)
    }

    /// A name free in both `files/` and `info/` for a file called `name`, and not
    /// handed out before by this object. `fresh` asks the disk even when the names
    /// were listed (a retry after a name turned out taken).
    func freeName(for name: ByteString, fresh: Bool = false) throws(SystemError) -> ByteString {
        try names.withLock { (names) throws(SystemError) -> ByteString in
            // The photo's own name, if no photo of the batch had it and the trash
            // has no such name: two lookups, not five. A name held back here but
            // taken on disk stays held back, which changes nothing: it is not free.
            if !fresh, names.handedOut.insert(name).inserted, name.count <= TrashNaming.maxNameLength,
               try isFree(name, listed: names.listed) {
                return name
            }
            var attempt = names.nextAttempt[name] ?? 1
            while attempt < 1_000_000 {
                let candidate = TrashNaming.candidate(for: name, attempt: attempt)
                if !names.handedOut.contains(candidate), try isFree(candidate, listed: fresh ? nil : names.listed) {
                    names.nextAttempt[name] = attempt + 1
                    names.handedOut.insert(candidate)
                    return candidate
                }
                attempt += 1
            }
            throw SystemError("choose a trash name", path: path.appending("files").appending(name).lossyString, errno: .exists)
        }
    }

    private func isFree(_ candidate: ByteString, listed: Set<ByteString>?) throws(SystemError) -> Bool {
        if let listed { return !listed.contains(candidate) }
        if !recordsInfo { return try files.status(of: candidate) == nil }
        guard try info.status(of: Self.infoName(candidate)) == nil else { return false }
        return try files.status(of: candidate) == nil
    }

    /// For a batch of `count` photos: when the trash holds no more than a few times
    /// that many entries, its names are read once (two directory listings) instead
    /// of two failed lookups per photo. A name taken after the listing is still
    /// refused by O_EXCL or RENAME_NOREPLACE, and the photo gets the next one. The
    /// size of a directory stands in for its number of entries (ext4: ~32 bytes per
    /// typical entry; tmpfs: 20), read once per batch.
    func listNamesIfWorthIt(batchCount count: Int) {
        names.withLock { names in
            guard !names.listingDecided else { return }
            names.listingDecided = true
            // A trash without info files is a folder per photo folder (recycle): few names, looked up one by one.
            names.handedOut.reserveCapacity(count)
            guard recordsInfo else { return }
            names.listed = listNames(ifAtMost: 4 * count)
        }
    }

    private func listNames(ifAtMost limit: Int) -> Set<ByteString>? {
        do throws(SystemError) {
            let bytes = try files.status().size + (try info.status().size)
            guard bytes / 32 <= Int64(limit) else { return nil }
            var names: Set<ByteString> = []
            for entry in try DirectoryReader.entries(ofOpen: try FileDescriptor.openDirectory(".", relativeTo: files.descriptor),
                                                     path: path.appending("files")) {
                names.insert(entry.name)
            }
            let suffix = TrashInfo.fileSuffix.bytes
            for entry in try DirectoryReader.entries(ofOpen: try FileDescriptor.openDirectory(".", relativeTo: info.descriptor),
                                                     path: path.appending("info"))
            where entry.name.bytes.count > suffix.count && entry.name.bytes.suffix(suffix.count).elementsEqual(suffix) {
                names.insert(ByteString(Array(entry.name.bytes.dropLast(suffix.count))))
            }
            return names
        } catch {
            log.notice("cannot list \(path): \(error); looking names up one by one")
            return nil
        }
    }

    /// Creates `info/<name>.trashinfo` complete and synced; false when the name is taken.
    /// Made by root in another user's trash, it is given to that user (the owner of
    /// `info/`), like the trash itself: their own trash tools must be able to read it.
    func createInfo(_ name: ByteString, _ trashInfo: TrashInfo) throws(SystemError) -> Bool {
        if !recordsInfo { return true }
        guard try info.createFile(Self.infoName(name), contents: trashInfo.rendered(), mode: 0o600, owner: try infoOwner(),
                                  synced: true)
        else { return false }
        try info.sync()
        return true
    }

    /// Creates `info/<name>.trashinfo` whole or not at all (written unnamed, then
    /// named: `DirectoryHandle.createFile`), syncing nothing: the batch syncs the
    /// whole chunk's file system before it journals the photo as trashed. A kill
    /// never leaves an empty or short `.trashinfo` for trash tools to meet (they may
    /// read it while the daemon is stopped); only a power cut before that sync can
    /// (recovery reads it as `unreadable`). Made by root in another user's trash, it
    /// is given to that user before it is named. False when the name is taken.
    /// `beforeWriting` and `beforeNaming` are the crash tests' failpoints.
    func writeInfoUnsynced(_ name: ByteString, _ trashInfo: TrashInfo, beforeWriting: () -> Void = {},
                           beforeNaming: () -> Void = {}) throws(SystemError) -> Bool {
        if !recordsInfo { return true }
        return try info.createFile(Self.infoName(name), contents: trashInfo.rendered(), mode: 0o600, owner: try infoOwner(),
                                   synced: false, beforeWriting: beforeWriting, beforeNaming: beforeNaming)
    }

    /// Removes what a crash may have left of `info/<name>.trashinfo` being written on
    /// a file system without O_TMPFILE (its partial name); false when there was none.
    func removePartialInfo(_ name: ByteString) throws(SystemError) -> Bool {
        if !recordsInfo { return false }
        return try info.remove(DirectoryHandle.partialName(for: Self.infoName(name)))
    }

    /// Who a `.trashinfo` we write must belong to: made in another user's trash by a
    /// daemon that may chown (root, or CAP_CHOWN), that user (the owner of `info/`),
    /// given before it is named; nil otherwise.
    private func infoOwner() throws(SystemError) -> UInt32? {
        guard mayChown else { return nil }
        let owner = try ownerOfInfo.withLock { (known) throws(SystemError) -> UInt32 in
            if let known { return known }
            let found = try info.status().uid
            known = found
            return found
        }
        return owner == effectiveUID ? nil : owner
    }

    /// The owner of `info/`, read once.
    private let ownerOfInfo = Mutex<UInt32?>(nil)
    private let mayChown = FilePrivilege.current.mayChown
    private let effectiveUID = geteuid()

    /// Removes `info/<name>.trashinfo`; false when it was not there. Unsynced, the
    /// removal is made durable by the caller's chunk sync.
    @discardableResult
    func removeInfo(_ name: ByteString, synced: Bool = true) throws(SystemError) -> Bool {
        if !recordsInfo { return false }
        let file = Self.infoName(name)
        let removed: Bool
        do {
            removed = try info.remove(file)
        } catch {
            // A file system remounted read-only refuses the unlink (EROFS) before it
            // looks for the name: an info that was never written is not left behind,
            // and its photo need not wait for the next start's recovery.
            guard error.errno == .readOnly, case .success(nil) = Result(catching: { () throws(SystemError) in
                try info.status(of: file)
            }) else { throw error }
            return false
        }
        if removed, synced { try info.sync() }
        return removed
    }

    /// What `info/<name>.trashinfo` holds, if it exists.
    func readInfo(_ name: ByteString) throws(SystemError) -> InfoFile {
        if !recordsInfo { return .absent }
        guard let bytes = try info.readFile(Self.infoName(name), limit: 1 << 16) else { return .absent }
        guard let parsed = TrashInfo.parse(bytes) else { return .unreadable }
        return .present(parsed)
    }

    enum InfoFile: Equatable {
        case absent
        /// Empty or garbled: a half-written file of ours, or someone's garbage.
        case unreadable
        case present(TrashInfo)
    }
}
