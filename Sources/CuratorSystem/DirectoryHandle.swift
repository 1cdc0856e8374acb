// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import Glibc
import Synchronization

/// An open directory that closes itself. Every operation is relative to it and
/// never follows a symlink in the name it is given, so that code walking a tree
/// from a trusted descriptor cannot be led outside it by `..` or a symlink.
/// Sendable: its descriptor and path never change, and the kernel serialises what
/// threads do through one descriptor (a batch's helpers write `.trashinfo` files in
/// a trash's `info/` while the batch thread renames into its `files/`). It is closed
/// once no thread holds it.
public final class DirectoryHandle: Sendable {
    public let descriptor: FileDescriptor
    /// The path it was opened by, for messages only.
    public let path: ByteString

    init(descriptor: FileDescriptor, path: ByteString) {
        self.descriptor = descriptor
        self.path = path
    }

    // Only read through, and only with metadata calls written: nothing for close to report.
    deinit { try? descriptor.close() }

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

    /// Opens `relative` (a path of one or more components) below this directory,
    /// never leaving it and never following a symlink on the way: what reads a
    /// photo for a user opens, so that a folder swapped for a symlink between a
    /// check and the read leads nowhere (ELOOP, ENOTDIR or EXDEV).
    public func openFile(beneath relative: ByteString, _ flags: Int32) throws(SystemError) -> FileDescriptor {
        let fd = try syscall("openat2", path: child(relative)) {
            relative.withCString { SystemCalls.openBeneath(descriptor.rawValue, $0, flags) }
        }
        return FileDescriptor(rawValue: fd)
    }

    public func status() throws(SystemError) -> FileStatus {
        var st = stat()
        _ = try syscall("fstat", path: path.lossyString) { SystemCalls.fstat(descriptor.rawValue, &st) }
        return FileStatus(st)
    }

    /// lstat of a child; nil when it does not exist.
    public func status(of name: ByteString) throws(SystemError) -> FileStatus? {
        var st = stat()
        do {
            _ = try syscall("fstatat", path: child(name)) {
                name.withCString { SystemCalls.fstatat(descriptor.rawValue, $0, &st, curator_AT_SYMLINK_NOFOLLOW) }
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
            _ = try syscall("mkdirat", path: child(name)) { name.withCString { SystemCalls.mkdirat(descriptor.rawValue, $0, mode) } }
        } catch where error.errno == .exists {
            return false
        }
        return true
    }

    /// fchmod of this directory itself.
    public func changeMode(_ mode: mode_t) throws(SystemError) {
        _ = try syscall("fchmod", path: path.lossyString) { SystemCalls.fchmod(descriptor.rawValue, mode) }
    }

    /// renameat2; with `noReplace` an existing target fails with EEXIST, and a file
    /// system that cannot honour that fails with EINVAL (the caller picks a fallback).
    public func rename(_ name: ByteString, to target: DirectoryHandle, as newName: ByteString, noReplace: Bool) throws(SystemError) {
        let flags: UInt32 = noReplace ? curator_RENAME_NOREPLACE : 0
        _ = try syscall("renameat2", path: "\(child(name)) -> \(target.child(newName))") {
            name.withCString { old in
                newName.withCString { new in SystemCalls.renameat2(descriptor.rawValue, old, target.descriptor.rawValue, new, flags) }
            }
        }
    }

    /// A hard link; never replaces an existing target (EEXIST).
    public func link(_ name: ByteString, to target: DirectoryHandle, as newName: ByteString) throws(SystemError) {
        _ = try syscall("linkat", path: "\(child(name)) -> \(target.child(newName))") {
            name.withCString { old in
                newName.withCString { new in SystemCalls.linkat(descriptor.rawValue, old, target.descriptor.rawValue, new, 0) }
            }
        }
    }

    /// Unlinks a non-directory child; false when it was already gone.
    @discardableResult
    public func remove(_ name: ByteString) throws(SystemError) -> Bool {
        do {
            _ = try syscall("unlinkat", path: child(name)) { name.withCString { SystemCalls.unlinkat(descriptor.rawValue, $0, 0) } }
        } catch where error.errno == .noEntry {
            return false
        }
        return true
    }

    public func sync() throws(SystemError) {
        _ = try syscall("fsync", path: path.lossyString) { SystemCalls.fsync(descriptor.rawValue) }
    }

    /// The id of the mount this directory is on, as /proc/self/mountinfo numbers it.
    public func mountID() throws(SystemError) -> UInt64 {
        var id: UInt64 = 0
        _ = try syscall("statx(STATX_MNT_ID)", path: path.lossyString) {
            SystemCalls.mountID(descriptor.rawValue, "", curator_AT_EMPTY_PATH | curator_AT_SYMLINK_NOFOLLOW, &id)
        }
        return id
    }

    /// The kernel's absolute path of this directory (through the mount it was opened
    /// on), or nil when it cannot say (deleted, or outside our root).
    public func resolvedPath() -> ByteString? {
        let link = ByteString("/proc/self/fd/\(descriptor.rawValue)")
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = link.withCString { SystemCalls.readlink($0, &buffer, buffer.count) }
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
        return try fd.closeAfter(path: child(name)) { (fd) throws(SystemError) in try fd.readAll(limit: limit, path: child(name)) }
    }

    /// Creates `name` holding `contents`, whole or not at all: no one (a crash
    /// included) ever sees the name with part of the contents. Returns false,
    /// creating nothing, when the name is taken.
    ///
    /// The file is written unnamed (O_TMPFILE), given `owner` (fchown) and synced
    /// when `synced`, then named with linkat, which fails with EEXIST rather than
    /// replace. Where the file system has no O_TMPFILE (vfat, NFS, CIFS) it is
    /// written under `partialName(for:)` and renamed (RENAME_NOREPLACE; link and
    /// unlink; or, where the file system has neither, a check and a rename): a
    /// crash can then leave that partial file, which is not `name` and which the
    /// caller may remove by that name. `beforeWriting` runs once the file is
    /// created and before anything is written into it, `beforeNaming` between the
    /// write and the naming (tests' failpoints: a kill at either leaves no `name`).
    public func createFile(_ name: ByteString, contents: [UInt8], mode: mode_t, owner: UInt32? = nil, synced: Bool = true,
                           beforeWriting: () -> Void = {}, beforeNaming: () -> Void = {}) throws(SystemError) -> Bool {
        if anonymousFiles.load(ordering: .relaxed) != Self.unsupported,
           let created = try createUnnamed(name, contents: contents, mode: mode, owner: owner, synced: synced,
                                           beforeWriting: beforeWriting, beforeNaming: beforeNaming) {
            return created
        }
        return try createByRename(name, contents: contents, mode: mode, owner: owner, synced: synced,
                                  beforeWriting: beforeWriting, beforeNaming: beforeNaming)
    }

    /// Whether O_TMPFILE and naming its file work here: unknown (0), or `unsupported`.
    private let anonymousFiles = Atomic<Int>(0)

    /// Makes `createFile` take the way of file systems without O_TMPFILE, as if
    /// this one had none: for tests, on the file systems tests have.
    func forgoUnnamedFiles() { anonymousFiles.store(Self.unsupported, ordering: .relaxed) }
    private static let unsupported = 2
    private static let mayUseEmptyPath = geteuid() == 0

    /// The O_TMPFILE way; nil when this directory's file system cannot do it.
    private func createUnnamed(_ name: ByteString, contents: [UInt8], mode: mode_t, owner: UInt32?, synced: Bool,
                               beforeWriting: () -> Void, beforeNaming: () -> Void) throws(SystemError) -> Bool? {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(".", curator_O_TMPFILE | O_WRONLY, mode: mode, relativeTo: descriptor)
        } catch where [Errno.notSupported, .isDirectory, .invalid, Errno(ENOSYS)].contains(error.errno) {
            anonymousFiles.store(Self.unsupported, ordering: .relaxed)
            return nil
        }
        let created: Bool?
        do throws(SystemError) {
            beforeWriting()
            try fd.writeAll(contents, path: child(name))
            if let owner { _ = try syscall("fchown", path: child(name)) { SystemCalls.fchown(fd.rawValue, owner, UInt32.max) } }
            if synced { try fd.sync(path: child(name)) }
            beforeNaming()
            do throws(SystemError) {
                try giveName(to: fd, name)
                created = true
            } catch where error.errno == .exists {
                created = false
            } catch where error.errno == .noEntry && (try? FileStatus.ifExists("/proc/self/fd")) == nil {
                anonymousFiles.store(Self.unsupported, ordering: .relaxed)  // no /proc to name it through
                created = nil
            }
        } catch {
            try? fd.close()
            throw error
        }
        // The name is given through the open descriptor, so the close comes after it:
        // when the close reports a failed write-back, the name goes again.
        do throws(SystemError) {
            try fd.close(path: child(name))
        } catch {
            if created == true { remove(quietly: name) }
            throw error
        }
        return created
    }

    /// Gives the unnamed file `fd` the name `name` here, never replacing. Root names it
    /// directly (AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH, which a root stripped of
    /// capabilities lacks: ENOENT); others, and that root, through /proc/self/fd.
    private func giveName(to fd: FileDescriptor, _ name: ByteString) throws(SystemError) {
        if Self.mayUseEmptyPath {
            do throws(SystemError) {
                _ = try syscall("linkat", path: child(name)) {
                    name.withCString { SystemCalls.linkDescriptor(fd.rawValue, descriptor.rawValue, $0, direct: true) }
                }
                return
            } catch where error.errno == .noEntry {}
        }
        _ = try syscall("linkat", path: child(name)) {
            name.withCString { SystemCalls.linkDescriptor(fd.rawValue, descriptor.rawValue, $0, direct: false) }
        }
    }

    /// The name a file being created under `name` has until it is complete, where
    /// it cannot be written unnamed: hidden, never a `.trashinfo`, and derived from
    /// `name` alone, so that whoever knows `name` can remove what a crash left.
    public static func partialName(for name: ByteString) -> ByteString {
        let plain = ByteString(Array(".".utf8) + name.bytes + Array(".partial".utf8))
        if plain.count <= 255 { return plain }
        let digest = name.bytes.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
        return ByteString(".curatord-\(String(digest, radix: 16)).partial")
    }

    private func createByRename(_ name: ByteString, contents: [UInt8], mode: mode_t, owner: UInt32?, synced: Bool,
                                beforeWriting: () -> Void, beforeNaming: () -> Void) throws(SystemError) -> Bool {
        let partial = Self.partialName(for: name)
        remove(quietly: partial)  // one a crash left
        let fd = try FileDescriptor.open(partial, O_WRONLY | O_CREAT | O_EXCL | curator_O_NOFOLLOW, mode: mode, relativeTo: descriptor)
        do throws(SystemError) {
            try fd.closeAfter(path: child(partial)) { (fd) throws(SystemError) in
                beforeWriting()
                try fd.writeAll(contents, path: child(partial))
                if let owner { _ = try syscall("fchown", path: child(partial)) { SystemCalls.fchown(fd.rawValue, owner, UInt32.max) } }
                if synced { try fd.sync(path: child(partial)) }
            }
            beforeNaming()
            do throws(SystemError) {
                try rename(partial, to: self, as: name, noReplace: true)
            } catch where error.errno == .invalid {
                // No RENAME_NOREPLACE here: a hard link never replaces either.
                do throws(SystemError) {
                    try link(partial, to: self, as: name)
                    remove(quietly: partial)
                } catch where error.errno == .notPermitted || error.errno == .notSupported {
                    // No hard links either (vfat): look, then rename. Our own private directory.
                    if try status(of: name) != nil { throw SystemError("rename", path: child(name), errno: .exists) }
                    try rename(partial, to: self, as: name, noReplace: false)
                }
            }
        } catch where error.errno == .exists {
            remove(quietly: partial)
            return false
        } catch {
            remove(quietly: partial)
            throw error
        }
        return true
    }

    private func remove(quietly name: ByteString) {
        _ = name.withCString { SystemCalls.unlinkat(descriptor.rawValue, $0, 0) }
    }
}
