// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCore
import CuratorSystem
import Glibc

/// What `--check-config` looks at beyond the file itself: whether the places the
/// daemon will write to can be written, so that a configuration that cannot start
/// is not answered 0. Only looks (lstat, access); creates nothing.
struct SettingsCheck {
    /// Each will stop the start.
    var errors: [String] = []
    /// Each is worth knowing, and stops nothing.
    var warnings: [String] = []

    init(_ config: Configuration, socketIsDefault: Bool) {
        // Before anyone deletes: a root whose trash cannot work for its users says so, with the fix.
        let trash = TrashReadiness.problems(config, servesOthers: Self.servesOthers(config))
        errors += trash.filter(\.refusesRoot).map(\.description)
        warnings += trash.filter { !$0.refusesRoot }.map(\.description)
        checkDirectory(config.stateDirectory, key: "state_dir")
        for name in ["index.sqlite", "journal.sqlite"] {
            let file = config.stateDirectory.appending(ByteString(name))
            guard let status = try? FileStatus.ifExists(file) else { continue }
            if !status.isRegularFile {
                errors.append("state_dir: \(file) is not a regular file")
            } else if let why = Self.denied(file, R_OK | W_OK) {
                errors.append("state_dir: \(file) cannot be read and written by uid \(geteuid()): \(why)")
            }
        }
        let directory = config.socketPath.parent
        let missing = checkDirectory(directory, key: "socket")
        // A directory of our own default (/tmp/curatord-$uid) is made as a matter of
        // course; a configured one that is missing is more likely a typo.
        if missing && !socketIsDefault {
            warnings.append("socket: the directory \(directory) does not exist: curatord will create it (0700) when it starts, "
                            + "and clients must be given that path")
        }
    }

    /// Checks that `path` is (or can be made) a directory the daemon can write in.
    /// Returns true when it does not exist yet.
    @discardableResult
    private mutating func checkDirectory(_ path: ByteString, key: String) -> Bool {
        let status: FileStatus?
        do {
            status = try FileStatus.ifExists(path)
        } catch {
            errors.append("\(key): \(path): \(error.errno.message)")
            return false
        }
        if status != nil {
            if let followed = try? FileStatus.following(path) {
                if !followed.isDirectory {
                    errors.append("\(key): \(path) is not a directory")
                } else if let why = Self.denied(path, W_OK | X_OK) {
                    errors.append("\(key): \(path) is not writable by uid \(geteuid()): \(why)")
                }
            } else {
                errors.append("\(key): \(path) is a symlink to nothing")
            }
            return false
        }
        // Missing: its nearest existing ancestor must be a directory we can create in.
        var ancestor = path.parent.isEmpty ? ByteString("/") : path.parent
        while (try? FileStatus.ifExists(ancestor)) == nil, ancestor.count > 1 {
            ancestor = ancestor.parent.isEmpty ? "/" : ancestor.parent
        }
        if let followed = try? FileStatus.following(ancestor), !followed.isDirectory {
            errors.append("\(key): \(path) cannot be created: \(ancestor) is not a directory")
        } else if let why = Self.denied(ancestor, W_OK | X_OK) {
            errors.append("\(key): \(path) cannot be created: \(ancestor) is not writable by uid \(geteuid()): \(why)")
        }
        return true
    }

    /// Why the effective uid may not `mode` the path (faccessat with AT_EACCESS), or nil.
    private static func denied(_ path: ByteString, _ mode: Int32) -> String? {
        let rc = path.withCString { SystemCalls.faccessat(AT_FDCWD, $0, mode, AT_EACCESS) }
        return rc == 0 ? nil : Errno.current.message
    }

    /// Whether users other than the daemon's own may ask it to trash: a socket that
    /// others may open, or a service of the system manager.
    static func servesOthers(_ config: Configuration) -> Bool {
        config.socketMode & 0o077 != 0 || Environment().isUnderSystemManager
    }
}
