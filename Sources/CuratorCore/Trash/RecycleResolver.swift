// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc

/// Finds, making what is missing, the recycle folder a photo goes into for a user:
/// `<root>/.recycle/<user name>/<the photo's folder below the root>`, the layout of
/// Samba's vfs_recycle (`recycle:repository = .recycle/%U`, `recycle:keeptree = yes`),
/// Synology's `#recycle` and TrueNAS. Inside the root: no capability, no other mount.
///
/// `.recycle` itself is the daemon's (or root's), 0755 so that each user can reach
/// their own folder over SMB or NFS; `.recycle/<user>` and every folder below it
/// belong to that user (with the root's `recycle_group` when configured, setgid,
/// 2770, else the user's own group, 0700), so that they, and that group, can list and
/// restore. Every component is opened without following a symlink, and a folder
/// owned by someone else is refused: a photo is never put where its owner would not
/// find it, or where another user could take it. Lives for one batch; not Sendable.
final class RecycleResolver {
    static let folderName: ByteString = ".recycle"

    private struct Key: Hashable {
        var root: ByteString
        var folder: [ByteString]
        var uid: UInt32
    }

    private let effectiveUID: UInt32
    private let privilege: FilePrivilege
    /// As `TrashResolver`'s: a recycle folder made, not yet opened again.
    private let directoryMade: @Sendable () -> Void
    private var cache: [Key: TrashResolver.Choice] = [:]

    init(effectiveUID: UInt32, privilege: FilePrivilege = .current, directoryMade: @escaping @Sendable () -> Void = {}) {
        self.effectiveUID = effectiveUID
        self.privilege = privilege
        self.directoryMade = directoryMade
    }

    /// The recycle folder for `path`'s photo, trashed by `uid` (primary group `gid`).
    func folder(for path: PhotoPath, root: DirectoryHandle, uid: UInt32, gid: UInt32, group: UInt32?) -> TrashResolver.Choice {
        let key = Key(root: path.root, folder: path.directories, uid: uid)
        if let known = cache[key] { return known }
        let choice = resolve(path, root: root, uid: uid, gid: gid, group: group)
        cache[key] = choice
        return choice
    }

    private struct Refusal: Error {
        var reason: String
    }

    private func resolve(_ path: PhotoPath, root: DirectoryHandle, uid: UInt32, gid: UInt32, group: UInt32?) -> TrashResolver.Choice {
        guard uid == effectiveUID || privilege.mayChown else {
            return .unavailable("curatord (uid \(effectiveUID)) may not make a recycle folder that belongs to uid \(uid) "
                                + "(it lacks CAP_CHOWN); see its start-up message for the fix")
        }
        let user = ByteString(UserAccount.userName(uid: uid) ?? "\(uid)")
        var place = path.root.appending(Self.folderName)
        do throws(Refusal) {
            var current = try top(in: root, path: place)
            let owner = (uid: uid, gid: group ?? gid, mode: group == nil ? mode_t(0o700) : mode_t(0o2770))
            for (index, name) in ([user] + path.directories).enumerated() {
                place = place.appending(name)
                // `.recycle/<user>` is ours to make, in a folder only we write: one that is not theirs is repaired.
                current = try own(name, in: current, path: place, owner: owner, repairing: index == 0)
            }
            return .trash(TrashDirectory(recycleFolder: place, current))
        } catch {
            return .unavailable("cannot use the recycle folder \(place): \(error.reason)")
        }
    }

    /// `<root>/.recycle`: made 0755 (whatever the umask), never through a symlink, and
    /// only ours or root's (an administrator's). One that is not (someone else's, a
    /// symlink, a file) is moved aside and made anew (`TrashRepairs`): the name is ours.
    private func top(in root: DirectoryHandle, path: ByteString) throws(Refusal) -> DirectoryHandle {
        for attempt in 0..<2 {
            let why: String
            do throws(SystemError) {
                switch try root.makeDirectory(Self.folderName, owner: nil, mode: 0o755, afterMaking: reachMade) {
                case .made(let made): return made
                case .replaced: throw .replacedWhileMade(path)
                case .exists: break
                }
                do {
                    let dir = try root.openDirectory(Self.folderName)
                    let status = try dir.status()
                    if status.uid == effectiveUID || status.uid == 0 { return dir }
                    why = "belonged to uid \(status.uid)"
                } catch where error.errno == .tooManyLinks || error.errno == .notDirectory {
                    why = "was a symlink or not a directory"
                }
                guard attempt == 0 else { break }
                try TrashRepairs.shared.moveAside(Self.folderName, in: root, because: why)
            } catch {
                throw Refusal(reason: Self.describe(error, path))
            }
        }
        throw Refusal(reason: "\(path) is someone else's again as soon as it is made anew")
    }

    /// A folder of a user's recycle folder: made for them (given to them through its
    /// own descriptor, see `DirectoryHandle.makeDirectory(_:owner:mode:)`), or found theirs.
    private func own(_ name: ByteString, in parent: DirectoryHandle, path: ByteString,
                     owner: (uid: UInt32, gid: UInt32, mode: mode_t), repairing: Bool) throws(Refusal) -> DirectoryHandle {
        let dir: DirectoryHandle
        let status: FileStatus
        do throws(SystemError) {
            let giving = owner.uid != effectiveUID || owner.gid != getegid() ? (uid: owner.uid, gid: owner.gid) : nil
            switch try parent.makeDirectory(name, owner: giving, mode: owner.mode, afterMaking: reachMade) {
            case .made(let made): return made
            case .replaced: throw .replacedWhileMade(path)
            case .exists: break
            }
            dir = try parent.openDirectory(name)
            status = try dir.status()
        } catch {
            throw Refusal(reason: Self.describe(error, path))
        }
        guard status.uid == owner.uid else {
            guard repairing, (try? parent.status())?.uid == effectiveUID else {
                throw Refusal(reason: "\(path) belongs to uid \(status.uid), not \(owner.uid)")
            }
            do throws(SystemError) {
                try TrashRepairs.shared.moveAside(name, in: parent, because: "belonged to uid \(status.uid), not \(owner.uid)")
            } catch {
                throw Refusal(reason: Self.describe(error, path))
            }
            return try own(name, in: parent, path: path, owner: owner, repairing: false)
        }
        return dir
    }

    private func reachMade() { directoryMade() }

    private static func describe(_ error: SystemError, _ path: ByteString) -> String {
        if error.isReplacedWhileMade { return "\(path) was replaced while it was being made; nothing was given away" }
        return error.errno == .tooManyLinks || error.errno == .notDirectory ? "\(path) is a symlink or not a directory" : "\(error)"
    }
}
