// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorSystem
import Glibc

/// Changes a photo's marks in a sidecar without ever leaving a part of one: the new
/// packet goes to a temporary file beside it, with the original's owner, group and
/// mode, synced, and is renamed over the sidecar only if the sidecar is still the
/// one that was read; otherwise the change is applied again to what the other
/// program wrote. docs/XMP.md, "Replacing a sidecar safely".
///
/// One writer per sidecar at a time (`SidecarLocks`): two would share the
/// temporary name.
public struct SidecarWriter: Sendable {
    /// What a write did: the marks before (for undo) and after.
    public struct Outcome: Hashable, Sendable {
        public var previous: PhotoMarks
        public var marks: PhotoMarks
        /// False when the sidecar already said all of the change.
        public var written: Bool
        /// How to take the write back (`undo`); nil when nothing was written.
        public var undo: Undo?

        public init(previous: PhotoMarks, marks: PhotoMarks, written: Bool, undo: Undo? = nil) {
            self.previous = previous
            self.marks = marks
            self.written = written
            self.undo = undo
        }
    }

    /// What a write replaced, and the file it wrote (to tell whether it is still ours).
    public enum Undo: Hashable, Sendable {
        /// Put the sidecar's old bytes back, with its old owner and mode.
        case restore(SidecarFile, written: FileStatus)
        /// Remove the sidecar that was created.
        case remove(written: FileStatus)
    }

    /// Reads, merges and checks this many times before giving up.
    public var attempts = 3
    /// Runs after the temporary file is synced and before the sidecar is checked
    /// and replaced, with the attempt's number (tests: another program's write).
    public var beforeReplacing: @Sendable (Int) -> Void = { _ in }

    public init() {}

    /// Applies `change` to the existing sidecar `name` in `directory`; ENOENT when
    /// there is none.
    @discardableResult
    public func update(_ name: ByteString, in directory: DirectoryHandle, change: MarksChange) throws(SidecarError) -> Outcome {
        let path = directory.path.appending(name).lossyString
        for attempt in 1...max(1, attempts) {
            guard let file = try SidecarFile.read(name, in: directory) else {
                throw .system(SystemError("open", path: path, errno: .noEntry))
            }
            let packet = try parse(file.bytes, path: path)
            let previous = PhotoMarks(packet) ?? .unmarked
            guard try applied(change, to: packet) else { return Outcome(previous: previous, marks: previous, written: false) }
            let (temporary, made) = try writeTemporary(for: name, in: directory, bytes: try serialized(packet),
                                                       owner: (file.status.uid, file.status.gid), mode: file.status.mode)
            beforeReplacing(attempt)
            let replaced: Bool
            do throws(SystemError) {
                replaced = try replaceIfUnchanged(name, with: temporary, in: directory, expected: file.status)
            } catch {
                _ = try? directory.remove(temporary)
                throw .system(error)
            }
            if replaced {
                return Outcome(previous: previous, marks: PhotoMarks(packet) ?? .unmarked, written: true,
                               undo: .restore(file, written: made))
            }
        }
        throw .keptChanging(path: path, attempts: max(1, attempts))
    }

    /// Creates the sidecar `name` holding only `change`, owned by `owner` with
    /// `mode`; when one appeared meanwhile (darktable made it), updates that one.
    @discardableResult
    public func create(_ name: ByteString, in directory: DirectoryHandle, owner: (uid: UInt32, gid: UInt32), mode: mode_t,
                       change: MarksChange) throws(SidecarError) -> Outcome {
        let path = directory.path.appending(name).lossyString
        let packet: XMPPacket
        do throws(XMPError) { packet = try XMPPacket(path: path) } catch { throw .xmp(error) }
        _ = try applied(change, to: packet)
        let (temporary, made) = try writeTemporary(for: name, in: directory, bytes: try serialized(packet), owner: owner, mode: mode)
        beforeReplacing(1)
        do throws(SystemError) {
            do throws(SystemError) {
                try directory.rename(temporary, to: directory, as: name, noReplace: true)
            } catch where error.errno == .invalid {
                // A file system without RENAME_NOREPLACE: a hard link never replaces either.
                try directory.link(temporary, to: directory, as: name)
                try directory.remove(temporary)
            }
        } catch where error.errno == .exists {
            _ = try? directory.remove(temporary)
            return try update(name, in: directory, change: change)
        } catch {
            _ = try? directory.remove(temporary)
            throw .system(error)
        }
        do throws(SystemError) { try directory.sync() } catch { throw .system(error) }
        return Outcome(previous: .unmarked, marks: PhotoMarks(packet) ?? .unmarked, written: true, undo: .remove(written: made))
    }

    /// Takes a write back: the old bytes (owner, mode) put back the same safe way, or
    /// the created sidecar removed; only while the sidecar is still the file that
    /// write made, so another program's later change is never undone. False when it
    /// was not (nothing is done).
    @discardableResult
    public func undo(_ undo: Undo, of name: ByteString, in directory: DirectoryHandle) throws(SidecarError) -> Bool {
        switch undo {
        case .remove(let written):
            do throws(SystemError) {
                guard try Self.isStill(name, written, in: directory) else { return false }
                try directory.remove(name)
                try directory.sync()
                return true
            } catch {
                throw .system(error)
            }
        case .restore(let original, let written):
            let (temporary, _) = try writeTemporary(for: name, in: directory, bytes: original.bytes,
                                                    owner: (original.status.uid, original.status.gid), mode: original.status.mode)
            do throws(SystemError) {
                return try replaceIfUnchanged(name, with: temporary, in: directory, expected: written)
            } catch {
                _ = try? directory.remove(temporary)
                throw .system(error)
            }
        }
    }

    private func serialized(_ packet: XMPPacket) throws(SidecarError) -> [UInt8] {
        do throws(XMPError) { return try packet.serialized() } catch { throw .xmp(error) }
    }

    private func parse(_ bytes: [UInt8], path: String) throws(SidecarError) -> XMPPacket {
        do throws(XMPError) { return try XMPPacket(parsing: bytes, path: path) } catch { throw .xmp(error) }
    }

    private func applied(_ change: MarksChange, to packet: XMPPacket) throws(SidecarError) -> Bool {
        do throws(XMPError) { return try change.apply(to: packet) } catch { throw .xmp(error) }
    }

    /// Writes `bytes` to the temporary name of `name`, owned and moded like the
    /// original, synced; returns that name and the file's status as written. One a
    /// crash left is removed first.
    private func writeTemporary(for name: ByteString, in directory: DirectoryHandle, bytes: [UInt8],
                                owner: (uid: UInt32, gid: UInt32), mode: mode_t) throws(SidecarError) -> (ByteString, FileStatus) {
        let temporary = DirectoryHandle.partialName(for: name)
        let path = directory.path.appending(temporary).lossyString
        do throws(SystemError) {
            _ = try directory.remove(temporary)
            let fd = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_EXCL | curator_O_NOFOLLOW, mode: 0o600,
                                             relativeTo: directory.descriptor)
            do throws(SystemError) {
                let made = try fd.closeAfter(path: path) { (fd) throws(SystemError) -> FileStatus in
                    try fd.writeAll(bytes, path: path)
                    // The owner first: chown clears set-id bits, so the mode comes after.
                    let made = try FileStatus.of(descriptor: fd)
                    if made.uid != owner.uid || made.gid != owner.gid {
                        _ = try syscall("fchown", path: path) { SystemCalls.fchown(fd.rawValue, owner.uid, owner.gid) }
                    }
                    try fd.changeMode(mode & 0o7777, path: path)
                    try fd.sync(path: path)
                    return try FileStatus.of(descriptor: fd)
                }
                return (temporary, made)
            } catch {
                _ = try? directory.remove(temporary)
                throw error
            }
        } catch {
            throw .system(error)
        }
    }

    /// Renames `temporary` over `name` when `name` is still the file `expected`
    /// describes (same inode, size and modification time), then syncs the folder;
    /// false, removing `temporary`, when another program replaced or changed it.
    private func replaceIfUnchanged(_ name: ByteString, with temporary: ByteString, in directory: DirectoryHandle,
                                    expected: FileStatus) throws(SystemError) -> Bool {
        guard try Self.isStill(name, expected, in: directory) else {
            try directory.remove(temporary)
            return false
        }
        try directory.rename(temporary, to: directory, as: name, noReplace: false)
        try directory.sync()
        return true
    }

    /// Whether `name` is still the file `expected` describes.
    static func isStill(_ name: ByteString, _ expected: FileStatus, in directory: DirectoryHandle) throws(SystemError) -> Bool {
        guard let now = try directory.status(of: name) else { return false }
        return now.device == expected.device && now.inode == expected.inode && now.size == expected.size
            && now.mtimeNanoseconds == expected.mtimeNanoseconds
    }
}
