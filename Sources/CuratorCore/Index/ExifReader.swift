// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorSystem
import Glibc

/// Reads when a photo was taken from its EXIF: DateTimeOriginal, else
/// DateTimeDigitized, else DateTime. A value that is not a real date (an unset
/// camera clock writes zeros) counts as absent, and the next one is tried. The
/// sub-seconds and offset read are the ones of the tag the time came from.
///
/// Reading is bounded: the file is opened without following a symlink, only a
/// regular file is read, and at most `readBudget` bytes are read from it, by
/// positioned reads that follow the container's offsets (see `ExifLocator`).
/// Types that carry no EXIF (PNG, GIF, video) are answered from the name alone.
/// Safe to call from any thread; it blocks on I/O, so keep it off the
/// cooperative pool.
public enum ExifReader {
    public static let readBudget = 256 * 1024
    /// Read at once: where a JPEG's EXIF segment and most TIFFs' IFDs are.
    static let headSize = 64 * 1024

    /// The capture time, or nil when the file has none or cannot be read.
    public static func captureTime(path: ByteString, relativeTo directory: FileDescriptor = .currentDirectory) -> CaptureTime? {
        try? readCaptureTime(path: path, relativeTo: directory)
    }

    /// Like `captureTime(path:)`, but a file that cannot be opened or read is an
    /// error (a symlink gives ELOOP, a directory or device EINVAL). With a
    /// directory descriptor and a bare name, no symlink anywhere is followed.
    public static func readCaptureTime(
        path: ByteString, relativeTo directory: FileDescriptor = .currentDirectory
    ) throws(SystemError) -> CaptureTime? {
        try readCapture(path: path, relativeTo: directory)?.time
    }

    /// As `readCaptureTime(path:relativeTo:)`, with the sub-seconds and offset.
    public static func readCapture(
        path: ByteString, relativeTo directory: FileDescriptor = .currentDirectory
    ) throws(SystemError) -> Capture? {
        if let type = PhotoType.detectFile(name: path.lastComponent), !type.mayCarryExif { return nil }
        // O_NONBLOCK: a FIFO named like a photo must not hang the scanner in open(2).
        return try read(try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | curator_O_NOFOLLOW, relativeTo: directory), path: path)
    }

    /// The capture of `relative` below `root`, opened without following any
    /// symlink on the way (nil when it has none, or cannot be opened or read).
    public static func capture(beneath root: DirectoryHandle, relative: ByteString) -> Capture? {
        if let type = PhotoType.detectFile(name: relative.lastComponent), !type.mayCarryExif { return nil }
        return try? read(try root.openFile(beneath: relative, O_RDONLY | O_NONBLOCK | curator_O_NOFOLLOW), path: root.path.appending(relative))
    }

    /// The capture time of `relative` below `root` (see `capture(beneath:relative:)`).
    public static func captureTime(beneath root: DirectoryHandle, relative: ByteString) -> CaptureTime? {
        capture(beneath: root, relative: relative)?.time
    }

    /// Reads the open `descriptor` and closes it.
    private static func read(_ descriptor: FileDescriptor, path: ByteString) throws(SystemError) -> Capture? {
        try descriptor.closeAfter { (descriptor) throws(SystemError) -> Capture? in
            do throws(SystemError) {
                let status = try FileStatus.of(descriptor: descriptor)
                guard status.isRegularFile else { throw SystemError("read", errno: .invalid) }
                var source = try ExifFileSource(descriptor: descriptor, size: status.size, budget: readBudget, headSize: headSize)
                return try capture(from: &source)
            } catch {
                // The calls below know the descriptor, not the path: name it here.
                throw SystemError(error.call, path: path.lossyString, errno: error.errno)
            }
        }
    }

    /// The capture time in a file's bytes, or a prefix of them.
    public static func captureTime(in bytes: [UInt8]) -> CaptureTime? {
        var source = ExifMemorySource(bytes: bytes)
        return try? captureTime(from: &source)
    }

    static func captureTime(from source: inout some ExifByteSource) throws(SystemError) -> CaptureTime? {
        try capture(from: &source)?.time
    }

    /// The capture time and what EXIF records beside it, or nil when the file has
    /// none or cannot be read.
    public static func capture(path: ByteString, relativeTo directory: FileDescriptor = .currentDirectory) -> Capture? {
        try? readCapture(path: path, relativeTo: directory)
    }

    /// A capture time, its sub-seconds and its offset from UTC.
    public struct Capture: Hashable, Sendable {
        public var time: CaptureTime
        public var detail: CaptureDetail
    }

    static func capture(from source: inout some ExifByteSource) throws(SystemError) -> Capture? {
        guard let tiff = try ExifLocator.locate(in: &source), let tags = ExifTags(tiff: tiff) else { return nil }
        return capture(in: tags)
    }

    static func captureTime(in tags: borrowing ExifTags) -> CaptureTime? { capture(in: tags)?.time }

    /// The first real date of DateTimeOriginal, DateTimeDigitized, DateTime, with
    /// the sub-seconds and offset that belong to that one (SubSecTimeOriginal and
    /// OffsetTimeOriginal with DateTimeOriginal, and so on).
    static func capture(in tags: borrowing ExifTags) -> Capture? {
        // Each tag in the IFD the standard puts it in first, then in the other,
        // where some writers (and CR3's CMT2 block) put it.
        let order: [(ExifTags.Tag, ExifTags.IFD, ExifTags.Tag, ExifTags.Tag)] = [
            (.dateTimeOriginal, .exif, .subSecTimeOriginal, .offsetTimeOriginal),
            (.dateTimeOriginal, .primary, .subSecTimeOriginal, .offsetTimeOriginal),
            (.dateTimeDigitized, .exif, .subSecTimeDigitized, .offsetTimeDigitized),
            (.dateTimeDigitized, .primary, .subSecTimeDigitized, .offsetTimeDigitized),
            (.dateTime, .primary, .subSecTime, .offsetTime),
            (.dateTime, .exif, .subSecTime, .offsetTime),
        ]
        for (tag, ifd, subSeconds, offset) in order {
            guard let value = tags.value(tag, in: ifd), let time = CaptureTime(exif: value) else { continue }
            let detail = CaptureDetail(subSeconds: tags.value(subSeconds, in: .exif) ?? tags.value(subSeconds, in: .primary),
                                       offset: tags.value(offset, in: .exif) ?? tags.value(offset, in: .primary))
            return Capture(time: time, detail: detail)
        }
        return nil
    }
}

extension PhotoType {
    /// False for types whose files never hold EXIF that we read, so that they are
    /// not even opened. (PNG may have an eXIf chunk, rarely written by cameras.)
    public var mayCarryExif: Bool {
        switch self {
        case .png, .gif, .mp4, .mov: false
        case .xmp, .aae, .pp3, .dop, .thm: false  // sidecars: the capture time is their image's
        default: true
        }
    }
}
