// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc

/// Picks the trash for a file the way the freedesktop.org Trash spec says, by the
/// *mount* the file is on: the home trash when it is on the home trash's mount,
/// else `$topdir/.Trash/$uid` when `$topdir/.Trash` is a sticky directory (not a
/// symlink), else `$topdir/.Trash-$uid`. Every trash directory it uses (the home
/// `Trash` included) is opened without following a symlink, must be owned by the
/// user, and is private: created 0700, set back to 0700 if others may use it.
/// Lives for one batch (it caches opened trashes); not Sendable.
final class TrashResolver {
    enum Choice {
        case trash(TrashDirectory)
        /// No trash can be used on that mount; the reason is for the user.
        case unavailable(String)
    }

    private struct Key: Hashable {
        var mountID: UInt64
        var uid: UInt32
    }

    private let configuration: TrashConfiguration
    private let effectiveUID: UInt32
    /// Whether trash directories may be made for (given to) other users.
    private let privilege: FilePrivilege
    /// Called once a trash directory is made for a user, not yet opened again:
    /// where another user could swap it (the batch's `dir.made` failpoint).
    private let directoryMade: @Sendable () -> Void
    private var mounts: [MountEntry]?
    private var cache: [Key: Choice] = [:]

    init(configuration: TrashConfiguration, effectiveUID: UInt32, privilege: FilePrivilege = .current,
         directoryMade: @escaping @Sendable () -> Void = {}) {
        self.configuration = configuration
        self.effectiveUID = effectiveUID
        self.privilege = privilege
        self.directoryMade = directoryMade
    }

    /// The trash for files in `directory`, trashed on behalf of `uid`.
    func trash(for directory: DirectoryHandle, uid: UInt32) -> Choice {
        let mountID: UInt64
        do {
            mountID = try directory.mountID()
        } catch {
            return .unavailable("cannot tell which mount \(directory.path) is on: \(error)")
        }
        let key = Key(mountID: mountID, uid: uid)
        if let cached = cache[key] { return cached }
        let choice = resolve(mountID: mountID, uid: uid)
        cache[key] = choice
        return choice
    }

    private func resolve(mountID: UInt64, uid: UInt32) -> Choice {
        // A trash made for someone else must become theirs, or their own tools would not
        // show it (and a .trashinfo of ours, 0600, would not even be readable to them).
        guard uid == effectiveUID || privilege.mayChown else {
            return .unavailable("curatord (uid \(effectiveUID)) may not make a trash that belongs to uid \(uid) "
                                + "(it lacks CAP_CHOWN); see its start-up message for the fix")
        }
        if let home = configuration.homeTrash, uid == configuration.homeTrashOwner {
            do throws(SystemError) {
                if try Self.mountOfHomeTrash(home) == mountID {
                    return try homeTrash(home, uid: uid)
                }
            } catch {
                return .unavailable("cannot use the home trash \(home): \(error)")
            }
        }
        return volumeTrash(mountID: mountID, uid: uid)
    }

    /// `$XDG_DATA_HOME/Trash`, created on first use. Its parents are followed like any
    /// path the user gives, but `Trash` itself must be a directory, not a symlink (as
    /// the spec asks of `$topdir/.Trash`): photos must not be moved wherever a link
    /// points. Owned by the user and private, like a volume trash.
    private func homeTrash(_ home: ByteString, uid: UInt32) throws(SystemError) -> Choice {
        let parent = try Self.openCreating(home.parent.isEmpty ? "/" : home.parent)
        do throws(TrashRefusal) {
            let root = try openPrivate(home.lastComponent, in: parent, path: home, uid: uid)
            let files = try openPrivate("files", in: root, path: home.appending("files"), uid: uid)
            let info = try openPrivate("info", in: root, path: home.appending("info"), uid: uid)
            return .trash(TrashDirectory(path: home, topdir: nil, files: files, info: info))
        } catch {
            return .unavailable("cannot use the home trash: \(error.reason)")
        }
    }

    private func volumeTrash(mountID: UInt64, uid: UInt32) -> Choice {
        let entries: [MountEntry]
        do {
            if let mounts {
                entries = mounts
            } else {
                entries = try MountTable.load()
                mounts = entries
            }
        } catch {
            return .unavailable("cannot read the mount table: \(error)")
        }
        guard let entry = MountTable.entry(id: mountID, in: entries) else {
            return .unavailable("mount \(mountID) is not in /proc/self/mountinfo")
        }
        // A bind mount of a subdirectory placed where it already is (the service's
        // ReadWritePaths=): its mount point is no top directory any trash tool knows.
        if let whole = MountTable.enclosingWhole(of: entry, in: entries) {
            return .unavailable("\(entry.mountPoint) is a mount of its own here (the service's sandbox); the top directory of its "
                                + "file system is \(whole.mountPoint), which a photo cannot be moved to from it (EXDEV). Set "
                                + "trash: \"recycle\" for the root, or see `curatord --check-config` for the fix")
        }
        if MountTable.isHiddenBindInPlace(entry, in: entries) {
            return .unavailable("\(entry.mountPoint) is a mount of its own here (the service's sandbox), a folder of the file "
                                + "system around it: no top directory a trash tool knows. Set trash: \"recycle\" for the root, "
                                + "or see `curatord --check-config` for the fix")
        }
        let topdir = entry.mountPoint
        let top: DirectoryHandle
        do {
            top = try DirectoryHandle.open(topdir, followingSymlinks: false)
            guard try top.mountID() == mountID else {
                return .unavailable("the mount point \(topdir) is covered by another mount")
            }
        } catch {
            return .unavailable("cannot open the mount point \(topdir): \(error)")
        }

        // Method 1: an administrator-made $topdir/.Trash, used only if it passes the spec's checks.
        let shared = topdir.appending(".Trash")
        do throws(SystemError) {
            if let status = try top.status(of: ".Trash") {
                // A sticky .Trash of another user's is not a shared trash: they could rebuild it.
                if status.isDirectory, status.mode & S_ISVTX != 0, status.uid == 0 || status.uid == effectiveUID {
                    let parent = try top.openDirectory(".Trash")
                    let mine = ByteString("\(uid)")
                    do throws(TrashRefusal) {
                        return .trash(try openTrash(mine, in: parent, path: shared.appending(mine), topdir: topdir,
                                                    mountID: mountID, uid: uid))
                    } catch {
                        log.notice("not using \(shared.appending(mine)): \(error.reason)")
                    }
                } else {
                    let why = status.isSymlink ? "it is a symlink" : !status.isDirectory ? "not a directory"
                        : status.mode & S_ISVTX == 0 ? "its sticky bit is not set" : "it belongs to uid \(status.uid), not to root"
                    log.notice("not using \(shared): \(why)")
                }
            }
        } catch {
            log.notice("not using \(shared): \(error)")
        }

        // Method 2: $topdir/.Trash-$uid, created on demand. The name is the user's: one
        // that someone else made first, or replaced (a symlink, a file), is moved aside
        // and made anew, so that nobody can keep the user from trashing on this mount.
        let own = ByteString(".Trash-\(uid)")
        do throws(TrashRefusal) {
            return .trash(try openTrash(own, in: top, path: topdir.appending(own), topdir: topdir, mountID: mountID, uid: uid))
        } catch {
            let refusal = error.reason
            guard let status = (try? top.status(of: own)) ?? nil,
                  status.isSymlink || !status.isDirectory || (status.uid != uid && status.uid != effectiveUID)
            else {
                return .unavailable("no usable trash on the mount at \(topdir): \(refusal)")
            }
            do throws(SystemError) {
                let why = status.isSymlink ? "was a symlink" : !status.isDirectory ? "was not a directory" : "belonged to uid \(status.uid)"
                try TrashRepairs.shared.moveAside(own, in: top, because: why)
            } catch {
                return .unavailable("no usable trash on the mount at \(topdir): \(refusal); it cannot be moved aside: \(error)")
            }
        }
        do throws(TrashRefusal) {
            return .trash(try openTrash(own, in: top, path: topdir.appending(own), topdir: topdir, mountID: mountID, uid: uid))
        } catch {
            return .unavailable("no usable trash on the mount at \(topdir): \(error.reason)")
        }
    }

    private struct TrashRefusal: Error {
        var reason: String
    }

    /// Opens or creates the trash directory `name` in `parent`, refusing a symlink,
    /// a directory owned by someone else, or one on another mount. One it makes
    /// appears whole, with its `files` and `info`, already the user's: another user
    /// who may write `parent` never sees it half made, nor can swap it for something
    /// to be given away.
    private func openTrash(_ name: ByteString, in parent: DirectoryHandle, path: ByteString, topdir: ByteString,
                           mountID: UInt64, uid: UInt32) throws(TrashRefusal) -> TrashDirectory {
        do throws(SystemError) {
            let owner = privilege.mayChown && uid != effectiveUID ? (uid: uid, gid: UInt32.max) : nil
            let made = try parent.makeWholeDirectory(name, children: ["files", "info"], owner: owner, mode: 0o700,
                                                     afterMaking: reachMade)
            if case .replaced = made { throw SystemError.replacedWhileMade(path) }
        } catch {
            throw TrashRefusal(reason: error.isReplacedWhileMade ? "\(path) was replaced while it was being made; nothing was given away"
                                                                : "\(error)")
        }
        let dir = try openPrivate(name, in: parent, path: path, uid: uid)
        let dirMount: UInt64
        do throws(SystemError) {
            dirMount = try dir.mountID()
        } catch {
            throw TrashRefusal(reason: "\(error)")
        }
        guard dirMount == mountID else { throw TrashRefusal(reason: "\(path) is on another mount") }
        let files = try openPrivate("files", in: dir, path: path.appending("files"), uid: uid)
        let info = try openPrivate("info", in: dir, path: path.appending("info"), uid: uid)
        return TrashDirectory(path: path, topdir: topdir, files: files, info: info)
    }

    private func reachMade() { directoryMade() }

    /// Opens or creates (0700) a directory of a trash: not through a symlink, owned by
    /// `uid` (or by us, who made it for them), and private. One that others may read
    /// or write (a `.Trash-1000` made 0777 by someone) is set back to 0700, which its
    /// owner may do; where that fails it is refused.
    private func openPrivate(_ name: ByteString, in parent: DirectoryHandle, path: ByteString,
                             uid: UInt32) throws(TrashRefusal) -> DirectoryHandle {
        let dir: DirectoryHandle
        let status: FileStatus
        do throws(SystemError) {
            dir = try ensureDirectory(name, in: parent, uid: uid)
            status = try dir.status()
        } catch {
            if error.isReplacedWhileMade { throw TrashRefusal(reason: "\(path) was replaced while it was being made; nothing was given away") }
            guard error.errno == .tooManyLinks || error.errno == .notDirectory else { throw TrashRefusal(reason: "\(error)") }
            // O_NOFOLLOW | O_DIRECTORY fails on a symlink with ENOTDIR or ELOOP: lstat tells which it is.
            let isSymlink = (try? parent.status(of: name))??.isSymlink ?? false
            throw TrashRefusal(reason: "\(path) is \(isSymlink ? "a symlink" : "not a directory")")
        }
        guard status.uid == uid || status.uid == effectiveUID else {
            throw TrashRefusal(reason: "\(path) is owned by uid \(status.uid), not \(uid)")
        }
        let mode = status.mode & 0o7777
        if mode & 0o077 != 0 {
            do throws(SystemError) {
                try dir.changeMode(0o700)
                log.notice("\(path) had mode 0\(String(mode, radix: 8)): set to 0700, as a trash directory must be private")
            } catch where (error.errno == .notPermitted || error.errno == .notSupported)
                && (privilege.mayActAsOwner || status.uid == effectiveUID) {
                // Its owner (or root) may not change its mode: the file system keeps none
                // per file (vfat, exFAT: the mount's options decide who may use it).
                log.info("\(path): mode 0\(String(mode, radix: 8)) is the file system's own (\(error.errno.name) on fchmod); used as it is")
            } catch {
                throw TrashRefusal(reason: "\(path) has mode 0\(String(mode, radix: 8)) (others may use it) and cannot be made 0700: \(error)")
            }
        }
        return dir
    }

    /// mkdir 0700 if missing (given to `uid` when we act for someone else and may:
    /// root, or a service with CAP_CHOWN, through its own descriptor), then open
    /// without following a symlink.
    private func ensureDirectory(_ name: ByteString, in parent: DirectoryHandle, uid: UInt32) throws(SystemError) -> DirectoryHandle {
        let owner = privilege.mayChown && uid != effectiveUID ? (uid: uid, gid: UInt32.max) : nil
        switch try parent.makeDirectory(name, owner: owner, mode: 0o700, afterMaking: reachMade) {
        case .made(let made): return made
        case .replaced: throw .replacedWhileMade(parent.path.appending(name))
        case .exists: return try parent.openDirectory(name)
        }
    }

    /// The mount of the home trash `path`, or of its nearest existing ancestor when it
    /// does not exist yet. `path` itself is not followed: a symlink there is refused
    /// later, for photos on the mount it stands on.
    static func mountOfHomeTrash(_ path: ByteString) throws(SystemError) -> UInt64 {
        var current = path
        var following = false
        while true {
            do {
                return try DirectoryHandle.open(current, followingSymlinks: following).mountID()
            } catch where [.noEntry, .tooManyLinks, .notDirectory].contains(error.errno) && current.count > 1 {
                current = current.parent.isEmpty ? "/" : current.parent
                following = true
            }
        }
    }

    /// Opens `path`, creating missing components with mode 0700 (like `mkdir -p`).
    static func openCreating(_ path: ByteString) throws(SystemError) -> DirectoryHandle {
        var missing: [ByteString] = []
        var current = path
        var base: DirectoryHandle
        while true {
            do {
                base = try DirectoryHandle.open(current, followingSymlinks: true)
                break
            } catch where error.errno == .noEntry && current.count > 1 {
                missing.append(current.lastComponent)
                current = current.parent.isEmpty ? "/" : current.parent
            }
        }
        for name in missing.reversed() {
            try base.makeDirectory(name, mode: 0o700)
            base = try base.openDirectory(name)
        }
        return base
    }
}
