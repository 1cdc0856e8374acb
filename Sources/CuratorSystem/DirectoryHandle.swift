// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import Glibc

/// An open directory that closes itself. Every operation is relative to it and
/// never follows a symlink in the name it is given, so that code walking a tree
/// from a trusted descriptor cannot be led outside it by `..` or a symlink.
/// Not Sendable: one owner uses it and lets it go.
public final class DirectoryHandle {
    public let descriptor: FileDescriptor
    /// The path it was opened by, for messages only.
    public let path: ByteString

    private init(descriptor: FileDescriptor, path: ByteString) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { descriptor.close() }

    /// Opens a directory by path. Roots may be configured as symlinks, hence the choice.
    public static func open(_ path: ByteString, followingSymlinks: Bool) throws(SystemError) -> DirectoryHandle {
        var flags = O_RDONLY | curator_O_DIRECTORY
        if !followingSymlinks { flags |= curator_O_NOFOLLOW }
        return DirectoryHandle(descriptor: try FileDescriptor.open(path, flags), path: path)
    }

    private func child(_ name: ByteString) -> String { path.appending(name).lossyString }

    /// The child directory `name`; ELOOP or ENOTDIR when it is a symlink or not a directory.
    public func openDirectory(_ name: ByteString) throws(SystemError) -> DirectoryHandle {
        let fd = try FileDescriptor.open(name, O_RDONLY | curator_O_DIRECTORY | curator_O_NOFOLLOW, relativeTo: descriptor)
        return DirectoryHandle(descriptor: fd, path: path.appending(name))
    }

    public func status() throws(SystemError) -> FileStatus {
        var st = stat()
        _ = try syscall("fstat", path: path.lossyString) { fstat(descriptor.rawValue, &st) }
        return FileStatus(st)
    }

    /// lstat of a child; nil when it does not exist.
    public func status(of name: ByteString) throws(SystemError) -> FileStatus? {
        var st = stat()
        do {
            _ = try syscall("fstatat", path: child(name)) {
                name.withCString { fstatat(descriptor.rawValue, $0, &st, curator_AT_SYMLINK_NOFOLLOW) }
            }
        } catch where error.errno == .noEntry {
            return nil
        }
        return FileStatus(st)
    }

    /// Creates a child directory; false when something already has that name.
    @discardableResult
    public func makeDirectory(_ name: ByteString, mode: mode_t) throws(SystemError) -> Bool {
        do {
            _ = try syscall("mkdirat", path: child(name)) { name.withCString { mkdirat(descriptor.rawValue, $0, mode) } }
        } catch where error.errno == .exists {
            return false
        }
        return true
    }

    /// fchmod of this directory itself.
    public func changeMode(_ mode: mode_t) throws(SystemError) {
        _ = try syscall("fchmod", path: path.lossyString) { fchmod(descriptor.rawValue, mode) }
    }

    public func changeOwner(_ name: ByteString, uid: UInt32, gid: UInt32) throws(SystemError) {
        _ = try syscall("fchownat", path: child(name)) {
            name.withCString { fchownat(descriptor.rawValue, $0, uid, gid, curator_AT_SYMLINK_NOFOLLOW) }
        }
    }

    /// renameat2; with `noReplace` an existing target fails with EEXIST, and a file
    /// system that cannot honour that fails with EINVAL (the caller picks a fallback).
    public func rename(_ name: ByteString, to target: DirectoryHandle, as newName: ByteString, noReplace: Bool) throws(SystemError) {
        let flags: UInt32 = noReplace ? curator_RENAME_NOREPLACE : 0
        _ = try syscall("renameat2", path: "\(child(name)) -> \(target.child(newName))") {
            name.withCString { old in
                newName.withCString { new in curator_renameat2(descriptor.rawValue, old, target.descriptor.rawValue, new, flags) }
            }
        }
    }

    /// A hard link; never replaces an existing target (EEXIST).
    public func link(_ name: ByteString, to target: DirectoryHandle, as newName: ByteString) throws(SystemError) {
        _ = try syscall("linkat", path: "\(child(name)) -> \(target.child(newName))") {
            name.withCString { old in
                newName.withCString { new in linkat(descriptor.rawValue, old, target.descriptor.rawValue, new, 0) }
            }
        }
    }

    /// Unlinks a non-directory child; false when it was already gone.
    @discardableResult
    public func remove(_ name: ByteString) throws(SystemError) -> Bool {
        do {
            _ = try syscall("unlinkat", path: child(name)) { name.withCString { unlinkat(descriptor.rawValue, $0, 0) } }
        } catch where error.errno == .noEntry {
            return false
        }
        return true
    }

    public func sync() throws(SystemError) {
        _ = try syscall("fsync", path: path.lossyString) { fsync(descriptor.rawValue) }
    }

    /// The id of the mount this directory is on, as /proc/self/mountinfo numbers it.
    public func mountID() throws(SystemError) -> UInt64 {
        var id: UInt64 = 0
        _ = try syscall("statx(STATX_MNT_ID)", path: path.lossyString) {
            curator_mount_id(descriptor.rawValue, "", curator_AT_EMPTY_PATH | curator_AT_SYMLINK_NOFOLLOW, &id)
        }
        return id
    }

    /// The kernel's absolute path of this directory (through the mount it was opened
    /// on), or nil when it cannot say (deleted, or outside our root).
    public func resolvedPath() -> ByteString? {
        let link = ByteString("/proc/self/fd/\(descriptor.rawValue)")
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = link.withCString { readlink($0, &buffer, buffer.count) }
        guard count > 0, count < buffer.count, buffer[0] == CChar(UInt8(ascii: "/")) else { return nil }
        let resolved = ByteString(buffer[0..<count].map { UInt8(bitPattern: $0) })
        if resolved.bytes.count >= 10, resolved.bytes.suffix(10).elementsEqual(" (deleted)".utf8) { return nil }
        return resolved
    }

    /// Reads a regular child file (not through a symlink); nil when it does not exist.
    /// A file larger than `limit` throws EFBIG.
    public func readFile(_ name: ByteString, limit: Int) throws(SystemError) -> [UInt8]? {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(name, O_RDONLY | curator_O_NOFOLLOW, relativeTo: descriptor)
        } catch where error.errno == .noEntry {
            return nil
        }
        return try fd.closeAfter { (fd) throws(SystemError) in try fd.readAll(limit: limit, path: child(name)) }
    }

    /// Creates `name` holding `contents`, complete and synced before the name exists
    /// (O_TMPFILE, write, fsync, link). Returns false, creating nothing, when the name
    /// is taken. Where O_TMPFILE is unsupported it falls back to O_EXCL + write + fsync,
    /// which can leave a short file behind if the process dies half-way.
    public func createFile(_ name: ByteString, contents: [UInt8], mode: mode_t) throws(SystemError) -> Bool {
        let anonymous: FileDescriptor?
        do {
            anonymous = try FileDescriptor.open(".", curator_O_TMPFILE | O_WRONLY, mode: mode, relativeTo: descriptor)
        } catch where [Errno.notSupported, .isDirectory, .invalid, Errno(ENOSYS)].contains(error.errno) {
            anonymous = nil
        }
        if let anonymous {
            return try anonymous.closeAfter { (fd) throws(SystemError) -> Bool in
                try fd.writeAll(contents)
                try fd.sync()
                do throws(SystemError) {
                    _ = try syscall("linkat", path: child(name)) {
                        name.withCString { curator_linkat_fd(fd.rawValue, descriptor.rawValue, $0) }
                    }
                } catch where error.errno == .exists {
                    return false
                }
                return true
            }
        }
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(name, O_WRONLY | O_CREAT | O_EXCL | curator_O_NOFOLLOW, mode: mode, relativeTo: descriptor)
        } catch where error.errno == .exists {
            return false
        }
        try fd.closeAfter { (fd) throws(SystemError) in
            try fd.writeAll(contents)
            try fd.sync()
        }
        return true
    }
}
