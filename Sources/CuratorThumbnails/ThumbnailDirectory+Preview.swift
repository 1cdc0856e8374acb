// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorSystem
import Glibc

/// A photo's previews in the cache (`ThumbnailCache.relativePreviewPath`), one of
/// each `PreviewKind`: JPEGs stamped with the photo they were made of
/// (`PreviewJPEG`), written and read as the thumbnails are.
extension ThumbnailDirectory {
    /// The preview of `subject`, open for reading, when the cache holds one stamped
    /// for the file as it is now; nil otherwise. The descriptor checked is the one
    /// returned: a preview replaced meanwhile is never the one handed out unchecked.
    public func openPreview(_ subject: ThumbnailSubject, kind: PreviewKind = .full) throws(SystemError) -> FileDescriptor? {
        let fd: FileDescriptor
        do {
            // O_NONBLOCK: a FIFO planted under the preview's name must not hang us.
            fd = try FileDescriptor.open(ThumbnailCache.relativePreviewPath(for: subject.uri, kind: kind), O_RDONLY | curator_O_NOFOLLOW | O_NONBLOCK,
                                         relativeTo: descriptor)
        } catch where [.noEntry, .notDirectory, .tooManyLinks].contains(error.errno) {
            return nil
        }
        do {
            let status = try FileStatus.of(descriptor: fd)
            if status.isRegularFile,
               let text = PreviewJPEG.stamp(inHead: try fd.read(at: 0, count: min(Int(max(0, status.size)), PreviewJPEG.headLimit))),
               subject.isDescribed(by: text) {
                return fd
            }
        } catch {
            try? fd.close()  // read only
            throw error
        }
        try? fd.close()  // read only
        return nil
    }

    /// Puts `jpeg` (stamped) in place as the preview of `uri`.
    public func writePreview(_ jpeg: [UInt8], for uri: FileURI, kind: PreviewKind = .full) throws(SystemError) {
        let directory = try subdirectory([ByteString(kind.directoryName)])
        try directory.closeAfter { (directory) throws(SystemError) in
            try Self.replace(ThumbnailCache.previewFileName(for: uri), in: directory, with: jpeg, pathForMessages: path)
        }
    }
}
