// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import Glibc

/// Making a folder for someone else in a folder others may write. Between a
/// `mkdirat` and any later call by name, another user who may write the parent can
/// put something else at that name (a file of a third user, a hard link, a private
/// folder); a privileged chown or chmod by name would then give it away. So the new
/// folder is opened again (never through a symlink), checked to be the one just
/// made, and its owner and mode are changed through that descriptor only.
extension DirectoryHandle {
    public enum MadeDirectory {
        case made(DirectoryHandle)
        /// Something already had the name: nothing was made.
        case exists
        /// Made, but what stood at the name when it was opened again was not it:
        /// nothing was changed, and the caller must not use the name.
        case replaced
    }

    /// Makes the child directory `name`, gives it `owner` (when not nil) and then
    /// `mode` (when not nil; else it keeps `0777` less the umask, as mkdir(1)
    /// makes it), each through its own descriptor. `afterMaking` runs between the
    /// mkdirat and the open (a test's failpoint).
    ///
    /// What is opened must be a directory owned by our uid, with no folder in it, and
    /// whose `..` is this directory: a family member can make none of these, and the
    /// folders of ours that are could only be moved by us.
    public func makeDirectory(_ name: ByteString, owner: (uid: UInt32, gid: UInt32)?, mode: mode_t?,
                              afterMaking: () -> Void = {}) throws(SystemError) -> MadeDirectory {
        // Private until it is checked and given away.
        guard try makeDirectory(name, mode: mode == nil ? 0o777 : 0o700) else { return .exists }
        afterMaking()
        let made: DirectoryHandle
        do {
            made = try openDirectory(name)
        } catch where [.noEntry, .tooManyLinks, .notDirectory].contains(error.errno) {
            return .replaced
        }
        guard try made.isFresh(in: self) else { return .replaced }
        if let owner {
            _ = try syscall("fchown", path: made.path.lossyString) { SystemCalls.fchown(made.descriptor.rawValue, owner.uid, owner.gid) }
        }
        // After the chown, which clears a setgid bit.
        if let mode { try made.changeMode(mode) }
        return .made(made)
    }

    /// `makeDirectory(_:owner:mode:)` for a folder that must appear whole: made
    /// under a temporary name with `children` in it (each given `owner` and `mode`
    /// too), given away, then renamed to `name` with RENAME_NOREPLACE. `.exists`
    /// when `name` was taken, by then or before; the temporary folder goes again.
    /// Where the file system cannot rename without replacing (EINVAL), it is made in
    /// place, each folder checked as `makeDirectory(_:owner:mode:)` checks it.
    public func makeWholeDirectory(_ name: ByteString, children: [ByteString], owner: (uid: UInt32, gid: UInt32)?, mode: mode_t,
                                   afterMaking: () -> Void = {}) throws(SystemError) -> MadeDirectory {
        if try status(of: name) != nil { return .exists }
        var temporary = ByteString.empty
        var staged: DirectoryHandle?
        // A name taken already is another's attempt (or a crash's leftover): draw again.
        for _ in 0..<8 where staged == nil {
            temporary = ByteString(Array(".".utf8) + name.bytes + Array(".curatord-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))".utf8))
            switch try makeDirectory(temporary, owner: nil, mode: 0o700, afterMaking: afterMaking) {
            case .made(let dir): staged = dir
            case .exists: continue
            case .replaced: return .replaced
            }
        }
        guard let staged else { throw SystemError("mkdirat", path: path.appending(name).lossyString, errno: .exists) }
        // Nobody else may write in it now: its children need no check beyond the one made.
        var made: [ByteString] = []
        do throws(SystemError) {
            for child in children {
                guard case .made = try staged.makeDirectory(child, owner: owner, mode: mode) else {
                    throw SystemError("mkdirat", path: staged.path.appending(child).lossyString, errno: .exists)
                }
                made.append(child)
            }
            if let owner {
                _ = try syscall("fchown", path: staged.path.lossyString) { SystemCalls.fchown(staged.descriptor.rawValue, owner.uid, owner.gid) }
            }
            try staged.changeMode(mode)
            try rename(temporary, to: self, as: name, noReplace: true)
        } catch {
            for child in made { staged.removeDirectory(quietly: child) }
            removeDirectory(quietly: temporary)
            if error.errno == .exists { return .exists }
            guard error.errno == .invalid else { throw error }
            // No RENAME_NOREPLACE here (sshfs, some FUSE): made in place, each folder checked as it is made.
            guard case .made(let whole) = try makeDirectory(name, owner: owner, mode: mode, afterMaking: afterMaking) else { return .exists }
            for child in children {
                if case .replaced = try whole.makeDirectory(child, owner: owner, mode: mode) { return .replaced }
            }
            return .made(whole)
        }
        // The same folder under its name now (for messages): a descriptor of its own, as each handle closes its.
        let copy = try syscall("dup", path: path.appending(name).lossyString) { SystemCalls.fcntl(staged.descriptor.rawValue, F_DUPFD_CLOEXEC, 0) }
        return .made(DirectoryHandle(descriptor: FileDescriptor(rawValue: copy), path: path.appending(name)))
    }

    /// Whether this directory, just made in `parent`, is still the one made: ours,
    /// with no folder in it (btrfs counts 1 link, others 2), and in `parent`.
    private func isFresh(in parent: DirectoryHandle) throws(SystemError) -> Bool {
        let mine = try status()
        guard mine.isDirectory, mine.uid == geteuid(), mine.linkCount <= 2 else { return false }
        guard let above = try status(of: "..") else { return false }
        let there = try parent.status()
        return above.device == there.device && above.inode == there.inode
    }

    func removeDirectory(quietly name: ByteString) {
        _ = name.withCString { SystemCalls.unlinkat(descriptor.rawValue, $0, curator_AT_REMOVEDIR) }
    }
}

extension SystemError {
    /// A folder `makeDirectory(_:owner:mode:)` found `.replaced`, for callers that report it as an error.
    public static func replacedWhileMade(_ path: ByteString) -> SystemError {
        SystemError(replacedCall, path: path.lossyString, errno: .busy)
    }

    public var isReplacedWhileMade: Bool { call == Self.replacedCall && errno == .busy }

    private static let replacedCall = "mkdirat, then openat"
}
