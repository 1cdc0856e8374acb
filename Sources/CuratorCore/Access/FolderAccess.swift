// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Which folders each user may list (issue 13): reads follow the asking user's own
/// permissions, as `ls` would (search on every directory from the root down, read
/// and search on the folder itself; mode bits with supplementary groups, or the
/// folder's ACL). A state component, behind the state lock.
///
/// Checked per folder, never per photo: the permissions of each directory are read
/// once (an lstat and a getxattr) and the verdict for a (uid, folder) is kept, so a
/// listing of 100 000 photos in 1 000 folders asks at most 1 000 questions of the
/// kernel the first time and none after. Both are dropped when a directory's
/// attributes change (IN_ATTRIB: chmod, chown, setfacl), when folders move or go,
/// and at the latest after `maximumAge` (a polled root sees no IN_ATTRIB; a
/// directory above a folder may have changed unseen). Root reads everything and
/// costs nothing.
///
/// A root on a network share is never read here: a stat of a folder of a hung
/// share (sftp server stopped) would hang under the state lock and lock every
/// user out. Its folders' permissions are read off the lock, by one reader thread
/// (`Curator.startSharePermissionReader`): asked for, after each scan of the share,
/// on IN_ATTRIB and when they age. Until a folder's permissions were read once,
/// nobody but root sees it (never show a user what she may not read); once read,
/// they are used until the reader brings newer ones (on a hung share, until it answers).
struct FolderAccess {
    typealias Reader = (ByteString) throws(SystemError) -> FolderPermissions

    /// Permissions are read again at least this often.
    static let maximumAgeNanoseconds: UInt64 = 30_000_000_000
    /// A user's groups are looked up again at least this often (`usermod -aG`).
    static let groupsAgeNanoseconds: UInt64 = 30_000_000_000

    private struct User {
        var requester: Requester
        var resolvedAt: UInt64
        /// Verdicts by folder id, with the path they were made for (an id the index
        /// dropped may be handed out again for another folder).
        var folders: [Int32: (path: ByteString, allowed: Bool)] = [:]
    }

    private let read: Reader
    private var permissions: [FolderKey: FolderPermissions?] = [:]
    private var users: [UInt32: User] = [:]
    private var resetAt: UInt64
    private struct EverythingKey: Hashable {
        var uid: UInt32
        var root: Int32?
    }
    /// Whether a user may list every folder of a root (or of all), as worked out
    /// over the library's folders linked before `checked` of its folder log
    /// (`PhotoLibrary.linkedFolders`): folders linked since are checked alone.
    private var everything: [EverythingKey: (answer: Bool, checked: Int)] = [:]
    private var everythingEpoch: UInt64 = .max
    /// Bumped whenever a verdict may have changed: views computed for one user are
    /// valid for one generation.
    private(set) var generation: UInt64 = 0
    /// Directories whose permissions were read (tests: the check is per folder, not per photo).
    private(set) var reads = 0
    /// Verdicts asked for a user other than root (tests: what a question costs in folders).
    private(set) var asked = 0
    /// Roots on a network share, with their absolute paths: their folders are read off the lock only.
    private var sharePaths: [Int32: ByteString] = [:]
    /// The permissions of share folders, as the reader last found them (nil: not a
    /// directory, gone, or unreadable to the daemon).
    private var sharePermissions: [FolderKey: FolderPermissions?] = [:]
    /// Share folders whose permissions are to be read (again), by absolute path.
    private var wanted: [FolderKey: ByteString] = [:]
    /// Whether the reader is at work: one at a time, so that a hung share holds one thread.
    private var reading = false

    init(read: @escaping Reader = { (path) throws(SystemError) in try FolderPermissions.read(path) }) {
        self.read = read
        resetAt = MonotonicClock.nanoseconds()
    }

    /// The user `uid` as the checks see it: its groups from the group database
    /// (the primary group given, or the passwd entry's), kept for a while.
    mutating func requester(uid: UInt32, gid: UInt32? = nil) -> Requester {
        let now = MonotonicClock.nanoseconds()
        if let known = users[uid], now - known.resolvedAt < Self.groupsAgeNanoseconds { return known.requester }
        let group = gid ?? UserAccount.primaryGroup(uid: uid) ?? uid
        let requester = Requester.resolving(uid: uid, gid: group)
        if users[uid]?.requester != requester {
            users[uid] = User(requester: requester, resolvedAt: now)
            everything = everything.filter { $0.key.uid != uid }
            generation &+= 1
        } else {
            users[uid]?.resolvedAt = now
        }
        return requester
    }

    /// Whether `uid` may list the folder `path` of `root` (at `rootPath`); `folder`
    /// is its id, under which the verdict is kept (nil: a folder the index dropped).
    mutating func mayList(folder: Int32?, root: Int32, path: ByteString, uid: UInt32, rootPath: ByteString) -> Bool {
        if uid == 0 { return true }
        asked += 1
        expireIfOld()
        if let folder, let known = users[uid]?.folders[folder], known.path == path { return known.allowed }
        let requester = requester(uid: uid)
        var chain: [FolderPermissions] = []
        var prefix = ByteString.empty
        var allowed = true
        for component in [ByteString.empty] + path.components {
            prefix = prefix.appending(component)
            guard let directory = permissions(root: root, path: prefix, rootPath: rootPath) else {
                allowed = false
                break
            }
            chain.append(directory)
        }
        if allowed, let last = chain.popLast() {
            allowed = AccessRule.mayList(last, below: chain, requester)
        } else if !allowed {
            // On a share, every directory not read yet is asked for at once, not one per question.
            want(root: root, folders: [path])
        }
        if let folder { users[uid]?.folders[folder] = (path, allowed) }
        return allowed
    }

    /// Whether `uid` may list every folder of `root` (all roots when nil), as last
    /// worked out in the library's folder epoch `folderEpoch`, and how many of the
    /// folders linked in that epoch it covers; nil when not known. Within an epoch
    /// folders are only added (`PhotoLibrary.folderEpoch`), so a `false` stays
    /// true and a `true` needs only the folders linked since.
    mutating func knownToListEverything(uid: UInt32, root: Int32?, folderEpoch: UInt64) -> (answer: Bool, checked: Int)? {
        if uid == 0 { return (true, .max) }
        expireIfOld()
        if folderEpoch != everythingEpoch {
            everything.removeAll(keepingCapacity: true)
            everythingEpoch = folderEpoch
        }
        return everything[EverythingKey(uid: uid, root: root)]
    }

    mutating func recordListsEverything(_ answer: Bool, checked: Int, uid: UInt32, root: Int32?) {
        everything[EverythingKey(uid: uid, root: root)] = (answer, checked)
    }

    private mutating func permissions(root: Int32, path: ByteString, rootPath: ByteString) -> FolderPermissions? {
        let key = FolderKey(rootID: root, path: path)
        if sharePaths[root] != nil {
            if let known = sharePermissions[key] { return known }
            wanted[key] = rootPath.appending(path)
            return nil
        }
        if let known = permissions[key] { return known }
        reads += 1
        // Unreadable to the daemon (EACCES), gone, or not a directory: nobody but root sees it.
        let found: FolderPermissions?
        do {
            let read = try read(rootPath.appending(path))
            found = read.isDirectory ? read : nil
        } catch {
            found = nil
        }
        permissions[key] = .some(found)
        return found
    }

    /// A directory's attributes changed (IN_ATTRIB): its permissions and every
    /// verdict that rests on them (any folder below it) are dropped.
    mutating func directoryChanged(root: Int32, path: ByteString) {
        let key = FolderKey(rootID: root, path: path)
        if sharePaths[root] != nil {
            rereadShare { $0 == key }
            return
        }
        permissions[key] = nil
        dropVerdicts()
    }

    /// Folders of `root` moved, went, or the root itself changed: what is known of it is dropped.
    mutating func forget(root: Int32) {
        if sharePaths[root] != nil {
            rereadShare { $0.rootID == root }
            return
        }
        permissions = permissions.filter { $0.key.rootID != root }
        dropVerdicts()
    }

    /// Everything, as after a reload.
    mutating func forgetAll() {
        permissions.removeAll()
        rereadShare { _ in true }
        dropVerdicts()
    }

    // MARK: share roots

    /// Whether `root` is on a network share (`RootWatching.onShare`): then its
    /// folders are read off the lock only.
    mutating func setOnShare(_ root: Int32, _ onShare: Bool, rootPath: ByteString) {
        let path = onShare ? rootPath : nil
        guard path != sharePaths[root] else { return }
        sharePaths[root] = path
        sharePermissions = sharePermissions.filter { $0.key.rootID != root }
        wanted = wanted.filter { $0.key.rootID != root }
        permissions = permissions.filter { $0.key.rootID != root }
        dropVerdicts()
    }

    /// Asks the reader for the permissions of `folders` of the share `root` and of
    /// every directory above them, those not read yet: after a scan, so that they
    /// are known before a user asks (a polled share's are read again by `forget`).
    mutating func want(root: Int32, folders: [ByteString]) {
        guard let rootPath = sharePaths[root] else { return }
        for folder in folders {
            var prefix = ByteString.empty
            for component in [ByteString.empty] + folder.components {
                prefix = prefix.appending(component)
                let key = FolderKey(rootID: root, path: prefix)
                if sharePermissions[key] == nil && wanted[key] == nil { wanted[key] = rootPath.appending(prefix) }
            }
        }
    }

    /// Whether `path` of `root` is a share folder whose permissions (or those of a
    /// directory above it) were not read yet: hidden, but not known to be unreadable.
    func unread(root: Int32, path: ByteString) -> Bool {
        guard sharePaths[root] != nil else { return false }
        var prefix = ByteString.empty
        for component in [ByteString.empty] + path.components {
            prefix = prefix.appending(component)
            if sharePermissions[FolderKey(rootID: root, path: prefix)] == nil { return true }
        }
        return false
    }

    /// Share folders known are read again; until then what was read stays in use.
    private mutating func rereadShare(_ which: (FolderKey) -> Bool) {
        for key in sharePermissions.keys where which(key) && wanted[key] == nil {
            guard let rootPath = sharePaths[key.rootID] else { continue }
            wanted[key] = rootPath.appending(key.path)
        }
    }

    /// Whether a reader is to be started now (there is work and none at it); the
    /// caller starts one, or calls `readerFailed`.
    mutating func startReading() -> Bool {
        guard !reading, !wanted.isEmpty else { return false }
        reading = true
        return true
    }

    mutating func readerFailed() { reading = false }

    /// Up to `limit` share folders for the reader to read; none when it is done
    /// (it then stops: the next ask starts another).
    mutating func nextWanted(limit: Int) -> [(key: FolderKey, path: ByteString)] {
        var batch: [(key: FolderKey, path: ByteString)] = []
        for (key, path) in wanted {
            guard batch.count < limit else { break }
            batch.append((key, path))
        }
        for item in batch { wanted[item.key] = nil }
        if batch.isEmpty { reading = false }
        return batch
    }

    /// What the reader found: verdicts are dropped only when a folder's permissions changed.
    mutating func storeRead(_ found: [(key: FolderKey, permissions: FolderPermissions?)]) {
        var changed = false
        for item in found where sharePaths[item.key.rootID] != nil {
            if sharePermissions[item.key] != .some(item.permissions) {
                sharePermissions[item.key] = .some(item.permissions)
                changed = true
            }
        }
        if changed { dropVerdicts() }
    }

    /// A share folder's permissions, read by the reader off the lock (it may hang
    /// with the share): unreadable to the daemon, gone, or not a directory is nil.
    static func readOffLock(_ path: ByteString) -> FolderPermissions? {
        guard let read = try? FolderPermissions.read(path), read.isDirectory else { return nil }
        return read
    }

    private mutating func dropVerdicts() {
        for uid in users.keys { users[uid]?.folders.removeAll(keepingCapacity: true) }
        everything.removeAll(keepingCapacity: true)
        generation &+= 1
    }

    private mutating func expireIfOld() {
        let now = MonotonicClock.nanoseconds()
        guard now - resetAt > Self.maximumAgeNanoseconds else { return }
        resetAt = now
        forgetAll()
    }
}
