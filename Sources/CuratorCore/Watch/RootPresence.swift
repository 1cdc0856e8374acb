// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc

/// Whether a root's folder is there: what tells an unmounted share (offline, its
/// photos kept) from a folder that is really there, perhaps empty.
enum RootPresence: Sendable {
    case present(FileStatus)
    case absent(reason: String)

    /// `recordedDevice` is the device the root was indexed on (0: never indexed).
    /// Another device at the path is either a share mounted anew (something is
    /// mounted there, or the root is a folder of a network or FUSE mount: present,
    /// and reconciled) or the bare mount point left by an unmount (on its parent's
    /// device: absent). A remount gets a new device number whenever another mount
    /// took the old one meanwhile: a root below the share's mount point must still
    /// come back.
    static func check(_ path: ByteString, recordedDevice: UInt64) -> RootPresence {
        let status: FileStatus
        do {
            status = try FileStatus.following(path)
        } catch {
            return .absent(reason: error.errno == .noEntry ? "the folder is gone" : "the folder cannot be reached (\(error.errno))")
        }
        guard status.isDirectory else { return .absent(reason: "the path is no longer a folder") }
        if recordedDevice == 0 || status.device == recordedDevice { return .present(status) }
        // The mount point is the resolved directory: a root may be a symlink to it,
        // sitting on yet another file system.
        let resolved = canonical(path) ?? path
        let parentPath = resolved.parent.isEmpty ? ByteString("/") : resolved.parent
        if let parent = try? FileStatus.following(parentPath), parent.device != status.device {
            return .present(status)
        }
        // A folder inside a share mounted anew: the mount table (which asks nothing of
        // the share) says that what holds it is a network or FUSE file system, which
        // a bare mount point left by an unmount never is.
        if RemoteFilesystem.kindInMountTable(of: resolved) != nil { return .present(status) }
        return .absent(reason: "its file system is not mounted (another one is at its path)")
    }

    private static func canonical(_ path: ByteString) -> ByteString? {
        guard let resolved = path.withCString({ SystemCalls.realpath($0) }) else { return nil }
        defer { free(resolved) }
        return ByteString(bytes: UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
    }
}
