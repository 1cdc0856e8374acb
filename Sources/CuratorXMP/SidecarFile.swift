// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorSystem
import Glibc

/// A sidecar's bytes and the status of the file they were read from (one
/// descriptor: the status is that of exactly these bytes).
public struct SidecarFile: Hashable, Sendable {
    /// More than any tool's sidecar holds (darktable's longest histories and
    /// Lightroom's masks stay far below), so reading one is bounded.
    public static let sizeLimit = 32 << 20

    public var bytes: [UInt8]
    public var status: FileStatus

    public init(bytes: [UInt8], status: FileStatus) {
        self.bytes = bytes
        self.status = status
    }

    /// Reads `name` in `directory`, never through a symlink; nil when it does not exist.
    public static func read(_ name: ByteString, in directory: DirectoryHandle) throws(SidecarError) -> SidecarFile? {
        let path = directory.path.appending(name).lossyString
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(name, O_RDONLY | curator_O_NOFOLLOW | O_NONBLOCK, relativeTo: directory.descriptor)
        } catch where error.errno == .noEntry {
            return nil
        } catch where error.errno == .tooManyLinks {
            throw .notRegularFile(path: path)
        } catch {
            throw .system(error)
        }
        let file: SidecarFile?
        do throws(SystemError) {
            file = try fd.closeAfter(path: path) { (fd) throws(SystemError) -> SidecarFile? in
                let status = try FileStatus.of(descriptor: fd)
                // O_NONBLOCK above: a FIFO under a sidecar's name must not hang the open.
                guard status.isRegularFile else { return nil }
                return SidecarFile(bytes: try fd.readAll(limit: sizeLimit, path: path), status: status)
            }
        } catch {
            throw .system(error)
        }
        guard let file else { throw .notRegularFile(path: path) }
        return file
    }
}
