// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorSystem
import Glibc

/// Changes the marks in the XMP inside an image file (a root's
/// `xmp_write_embedded`) as `SidecarWriter` changes a sidecar's: never in place.
/// The image is copied into a private folder beside it, the toolkit's handler
/// for its format writes the packet into the copy, the copy gets the original's
/// owner, group and mode, is synced, and is renamed over the image only if the
/// image is still the one that was read; otherwise the change is applied again to
/// what the other program wrote. docs/XMP.md, "Writing into the image".
///
/// The folder is private (made by curatord, mode 0700) because the toolkit may
/// write a temporary file of its own beside the copy: in the photo's folder,
/// which others may write, a symlink put at that name could lead its write away.
public struct EmbeddedWriter: Sendable {
    /// The largest image rewritten: the old bytes are held to take the write back.
    public static let sizeLimit = 512 << 20
    /// The copy's name in the private folder (the toolkit tells the format by the
    /// file's first bytes).
    static let copyName: ByteString = "photo"

    /// Reads, merges and checks this many times before giving up.
    public var attempts = 3
    /// Runs after the copy is written and synced and before the image is checked
    /// and replaced, with the attempt's number (tests: another program's write).
    public var beforeReplacing: @Sendable (Int) -> Void = { _ in }

    public init() {}

    /// The private folder an image's copy is made in: found by this name after a
    /// crash, and removed by the next write of that image.
    public static func privateFolder(for name: ByteString) -> ByteString {
        DirectoryHandle.partialName(for: ByteString(name.bytes + Array(".xmp-edit".utf8)))
    }

    /// Applies `change` to the packet inside the image `name` in `directory`; nil
    /// when the toolkit writes no packet into its format (HEIF, the RAWs it does
    /// not know). The outcome's `undo` puts the old bytes back (`SidecarWriter.undo`).
    public func update(_ name: ByteString, in directory: DirectoryHandle, change: MarksChange) throws(SidecarError) -> SidecarWriter.Outcome? {
        let path = directory.path.appending(name).lossyString
        for attempt in 1...max(1, attempts) {
            let original = try Self.read(name, in: directory, path: path)
            guard Self.isWritable(original.bytes) else { return nil }
            let folder = try Self.makePrivateFolder(for: name, in: directory)
            defer { Self.removePrivateFolder(for: name, in: directory) }
            do throws(SystemError) {
                let fd = try FileDescriptor.open(Self.copyName, O_WRONLY | O_CREAT | O_EXCL | curator_O_NOFOLLOW, mode: 0o600,
                                                 relativeTo: folder.descriptor)
                try fd.closeAfter(path: path) { (fd) throws(SystemError) in try fd.writeAll(original.bytes, path: path) }
            } catch {
                throw .system(error)
            }
            let update: EmbeddedXMP.Update
            do throws(XMPError) {
                guard let done = try EmbeddedXMP.update(Self.copyName.lossyString, in: folder.descriptor, path: path, edit: { packet throws(XMPError) in
                    try change.apply(to: packet)
                }) else { return nil }
                update = done
            } catch {
                throw .xmp(error)
            }
            let previous = PhotoMarks(update.before) ?? .unmarked
            guard update.written else { return SidecarWriter.Outcome(previous: previous, marks: previous, written: false) }
            let made = try Self.settle(Self.copyName, in: folder, like: original.status, path: path)
            beforeReplacing(attempt)
            do throws(SystemError) {
                guard try SidecarWriter.isStill(name, original.status, in: directory) else { continue }
                try folder.rename(Self.copyName, to: directory, as: name, noReplace: false)
                try directory.sync()
            } catch {
                throw .system(error)
            }
            return SidecarWriter.Outcome(previous: previous, marks: PhotoMarks(update.after) ?? .unmarked, written: true,
                                         undo: .restore(original, written: made))
        }
        throw .keptChanging(path: path, attempts: max(1, attempts))
    }

    /// Whether the bytes begin as a JPEG's or a TIFF's, the formats whose handler
    /// writes a packet (by its content, as phones save HEIF under `.jpg`).
    static func isWritable(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0xFF, 0xD8, 0xFF]) || bytes.starts(with: Array("II*\0".utf8)) || bytes.starts(with: Array("MM\0*".utf8))
    }

    /// The image's bytes and status, from one descriptor (never through a symlink).
    private static func read(_ name: ByteString, in directory: DirectoryHandle, path: String) throws(SidecarError) -> SidecarFile {
        let file: SidecarFile?
        do throws(SystemError) {
            let fd = try FileDescriptor.open(name, O_RDONLY | curator_O_NOFOLLOW | O_NONBLOCK, relativeTo: directory.descriptor)
            file = try fd.closeAfter(path: path) { (fd) throws(SystemError) -> SidecarFile? in
                let status = try FileStatus.of(descriptor: fd)
                guard status.isRegularFile else { return nil }
                return SidecarFile(bytes: try fd.readAll(limit: sizeLimit, path: path), status: status)
            }
        } catch where error.errno == .tooManyLinks {
            throw .notRegularFile(path: path)
        } catch {
            throw .system(error)
        }
        guard let file else { throw .notRegularFile(path: path) }
        return file
    }

    /// Gives the copy the image's owner, group and mode and syncs it; its status as written.
    private static func settle(_ copy: ByteString, in folder: DirectoryHandle, like original: FileStatus,
                               path: String) throws(SidecarError) -> FileStatus {
        do throws(SystemError) {
            let fd = try FileDescriptor.open(copy, O_RDONLY | curator_O_NOFOLLOW, relativeTo: folder.descriptor)
            return try fd.closeAfter(path: path) { (fd) throws(SystemError) -> FileStatus in
                let now = try FileStatus.of(descriptor: fd)
                // The owner first: chown clears set-id bits, so the mode comes after.
                if now.uid != original.uid || now.gid != original.gid {
                    _ = try syscall("fchown", path: path) { SystemCalls.fchown(fd.rawValue, original.uid, original.gid) }
                }
                try fd.changeMode(original.mode & 0o7777, path: path)
                try fd.sync(path: path)
                return try FileStatus.of(descriptor: fd)
            }
        } catch {
            throw .system(error)
        }
    }

    /// Makes the private folder, after removing one a crash left.
    private static func makePrivateFolder(for name: ByteString, in directory: DirectoryHandle) throws(SidecarError) -> DirectoryHandle {
        let folder = privateFolder(for: name)
        do throws(SystemError) {
            for _ in 0..<2 {
                switch try directory.makeDirectory(folder, owner: nil, mode: 0o700) {
                case .made(let made): return made
                case .exists, .replaced: removePrivateFolder(for: name, in: directory)
                }
            }
            throw SystemError("mkdirat", path: directory.path.appending(folder).lossyString, errno: .exists)
        } catch {
            throw .system(error)
        }
    }

    /// Removes the private folder and what is in it (the copy, the toolkit's
    /// temporary file), only when it is ours: a folder of that name someone else
    /// made is left, and the write fails on it.
    private static func removePrivateFolder(for name: ByteString, in directory: DirectoryHandle) {
        let folder = privateFolder(for: name)
        guard let opened = try? directory.openDirectory(folder), let status = try? opened.status(), status.uid == geteuid(),
              let entries = try? DirectoryReader.entries(of: folder, relativeTo: directory.descriptor)
        else { return }
        // Listed by name, removed through the folder opened above: a swap between
        // the two removes nothing of anyone else's.
        for entry in entries where entry.kind != .directory { _ = try? opened.remove(entry.name) }
        _ = folder.withCString { SystemCalls.unlinkat(directory.descriptor.rawValue, $0, curator_AT_REMOVEDIR) }
    }
}
