// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorProtocol
import CuratorSystem
import Glibc

/// What a thumbnail directory holds for one file and size.
public enum ThumbnailLookup: Equatable, Sendable {
    /// A thumbnail made from the file as it is now (by us or by another program).
    case valid(width: Int, height: Int)
    /// A thumbnail of an older version of the file, or of another file.
    case stale
    case missing
    /// Something that is not a readable PNG.
    case unreadable(String)
}

/// An open `thumbnails` directory, reached only through its descriptor: every name
/// under it is opened without following symlinks, and a thumbnail appears whole
/// (written under a temporary name, then renamed), mode 0600 in 0700 directories, as
/// the standard asks. The descriptor is the worker's only way into a user's cache:
/// the daemon opens it with that user's rights and passes it on.
///
/// Not Sendable: one owner uses it and lets it go; it closes its descriptor.
public final class ThumbnailDirectory {
    public let descriptor: FileDescriptor
    /// For messages only.
    public let path: ByteString

    private init(descriptor: FileDescriptor, path: ByteString) {
        self.descriptor = descriptor
        self.path = path
    }

    // A directory opened for reading: its close has nothing to report.
    deinit { try? descriptor.close() }

    /// Takes a copy of `descriptor` (an open `thumbnails` directory); the caller keeps its own.
    public static func duplicating(_ descriptor: FileDescriptor, path: ByteString = "thumbnails") throws(SystemError) -> ThumbnailDirectory {
        let copy = try syscall("fcntl", path: path.lossyString) { SystemCalls.fcntl(descriptor.rawValue, F_DUPFD_CLOEXEC, 0) }
        return ThumbnailDirectory(descriptor: FileDescriptor(rawValue: copy), path: path)
    }

    /// Opens the cache's root, creating it (and a missing cache directory above it,
    /// mode 0700) when `create` is set.
    public static func open(_ cache: ThumbnailCache, create: Bool) throws(SystemError) -> ThumbnailDirectory {
        if create {
            for directory in [cache.root.parent, cache.root] {
                do {
                    _ = try syscall("mkdir", path: directory.lossyString) { directory.withCString { SystemCalls.mkdirat(AT_FDCWD, $0, 0o700) } }
                } catch where error.errno == .exists {
                }
            }
        }
        let fd = try FileDescriptor.open(cache.root, O_RDONLY | curator_O_DIRECTORY)
        return ThumbnailDirectory(descriptor: fd, path: cache.root)
    }

    // MARK: reading

    /// Whether a thumbnail of `subject` at `size` is there and valid.
    public func lookup(_ subject: ThumbnailSubject, size: ThumbnailSize) throws(SystemError) -> ThumbnailLookup {
        try lookup(subject, at: ThumbnailCache.relativePath(for: subject.uri, size: size))
    }

    /// Whether our own fail record for `subject` is there and still about the file
    /// as it is now: its reason if so, nil when there is none or it is about an
    /// older version of the file.
    public func failRecord(for subject: ThumbnailSubject) throws(SystemError) -> String? {
        guard case .png(_, _, let text) = try read(ThumbnailCache.relativeFailPath(for: subject.uri)),
              subject.isDescribed(by: text) else { return nil }
        return text[ThumbnailKeys.failReason] ?? "failed before"
    }

    func lookup(_ subject: ThumbnailSubject, at name: ByteString) throws(SystemError) -> ThumbnailLookup {
        switch try read(name) {
        case .absent: .missing
        case .malformed(let reason): .unreadable(reason)
        case .png(let width, let height, let text): subject.isDescribed(by: text) ? .valid(width: width, height: height) : .stale
        }
    }

    private enum Found {
        case absent
        case malformed(String)
        case png(width: Int, height: Int, text: [String: String])
    }

    /// The size and text of the PNG at `name`, read chunk by chunk, pixels skipped.
    private func read(_ name: ByteString) throws(SystemError) -> Found {
        let fd: FileDescriptor
        do {
            // O_NONBLOCK: a FIFO planted under a thumbnail's name must not hang us.
            fd = try FileDescriptor.open(name, O_RDONLY | curator_O_NOFOLLOW | O_NONBLOCK, relativeTo: descriptor)
        } catch where [.noEntry, .notDirectory].contains(error.errno) {
            return .absent
        } catch where error.errno == .tooManyLinks {
            return .malformed("a symlink")
        }
        return try fd.closeAfter { (fd) throws(SystemError) -> Found in
            let status = try FileStatus.of(descriptor: fd)
            guard status.isRegularFile else { return .malformed("not a regular file") }
            do {
                let found = try PNGChunks.metadata(fileSize: Int(status.size)) { offset, count in
                    try fd.read(at: offset, count: count)
                }
                return .png(width: found.width, height: found.height, text: found.text)
            } catch let malformed as PNGChunks.Malformed {
                return .malformed(malformed.reason)
            } catch let error as SystemError {
                throw error
            } catch {
                throw SystemError("pread", path: path.appending(name).lossyString, errno: Errno(EIO))
            }
        }
    }

    /// The bytes of the thumbnail of `uri` at `size`; nil when there is none or it
    /// is larger than `limit` (no thumbnail is: a planted file is not read whole).
    public func contents(for uri: FileURI, size: ThumbnailSize, limit: Int = 8 << 20) throws(SystemError) -> [UInt8]? {
        let name = ThumbnailCache.relativePath(for: uri, size: size)
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(name, O_RDONLY | curator_O_NOFOLLOW | O_NONBLOCK, relativeTo: descriptor)
        } catch where [.noEntry, .notDirectory, .tooManyLinks].contains(error.errno) {
            return nil
        }
        return try fd.closeAfter { (fd) throws(SystemError) -> [UInt8]? in
            let status = try FileStatus.of(descriptor: fd)
            guard status.isRegularFile, status.size <= Int64(limit) else { return nil }
            return try fd.read(at: 0, count: Int(status.size))
        }
    }

    // MARK: writing

    /// Puts `png` (complete, with its text) in place as the thumbnail of `uri` at `size`.
    public func write(_ png: [UInt8], for uri: FileURI, size: ThumbnailSize) throws(SystemError) {
        let directory = try subdirectory([ByteString(size.directoryName)])
        try directory.closeAfter { (directory) throws(SystemError) in
            try Self.replace(ThumbnailCache.fileName(for: uri), in: directory, with: png, pathForMessages: path)
        }
    }

    /// Records that no thumbnail can be made of `subject` as it is now, so that
    /// nobody tries again until the file changes or curatord's version does.
    public func writeFailRecord(for subject: ThumbnailSubject, reason: String) throws(SystemError) {
        var text = subject.textEntries
        text.append((ThumbnailKeys.software, ThumbnailKeys.softwareName))
        text.append((ThumbnailKeys.failReason, Self.printableASCII(reason)))
        let directory = try subdirectory(["fail", ByteString(ThumbnailKeys.failDirectory)])
        try directory.closeAfter { (directory) throws(SystemError) in
            try Self.replace(
                ThumbnailCache.fileName(for: subject.uri), in: directory, with: PNGChunks.emptyImage(text: text),
                pathForMessages: path)
        }
    }

    /// Removes every thumbnail, the previews and our fail record of `uri` (a photo
    /// that is gone for good). Returns how many files went.
    @discardableResult
    public func removeAll(for uri: FileURI) throws(SystemError) -> Int {
        var removed = 0
        let names = ThumbnailSize.allCases.map { ThumbnailCache.relativePath(for: uri, size: $0) }
            + PreviewKind.allCases.map { ThumbnailCache.relativePreviewPath(for: uri, kind: $0) } + [ThumbnailCache.relativeFailPath(for: uri)]
        for name in names {
            do {
                _ = try syscall("unlinkat", path: path.appending(name).lossyString) {
                    name.withCString { SystemCalls.unlinkat(descriptor.rawValue, $0, 0) }
                }
                removed += 1
            } catch where error.errno == .noEntry || error.errno == .notDirectory {
            }
        }
        return removed
    }

    /// Opens (creating, mode 0700) the directories `components` below the root, never
    /// through a symlink.
    func subdirectory(_ components: [ByteString]) throws(SystemError) -> FileDescriptor {
        var current = descriptor
        var owned = false
        var walked = path
        for component in components {
            walked = walked.appending(component)
            do {
                _ = try syscall("mkdirat", path: walked.lossyString) {
                    component.withCString { SystemCalls.mkdirat(current.rawValue, $0, 0o700) }
                }
            } catch where error.errno == .exists {
            } catch {
                if owned { try? current.close() }
                throw error
            }
            let next: FileDescriptor
            do {
                next = try FileDescriptor.open(component, O_RDONLY | curator_O_DIRECTORY | curator_O_NOFOLLOW, relativeTo: current)
            } catch {
                if owned { try? current.close() }
                throw error
            }
            if owned { try? current.close() }
            current = next
            owned = true
        }
        return current
    }

    /// Writes `bytes` under a temporary name in `directory`, mode 0600, then renames
    /// it over `name`: a reader sees the old file or the new one, never half of one.
    /// No fsync: it is a cache. After a power failure a new file renamed before its
    /// data reached the disk is empty (or short of its text or first pixel chunk),
    /// which no reader takes for a thumbnail, and it is made again.
    static func replace(_ name: ByteString, in directory: FileDescriptor, with bytes: [UInt8], pathForMessages: ByteString) throws(SystemError) {
        var temporary = name
        temporary.bytes += Array(".curatord-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp".utf8)
        let shown = pathForMessages.appending(temporary).lossyString
        let fd = try FileDescriptor.open(
            temporary, O_WRONLY | O_CREAT | O_EXCL | curator_O_NOFOLLOW, mode: 0o600, relativeTo: directory)
        do {
            // closeAfter throws when close(2) fails: on NFS that is where a failed
            // write-back shows, and a thumbnail whose bytes may not be there is not renamed into place.
            try fd.closeAfter(path: shown) { (fd) throws(SystemError) in
                // The umask may take bits away, never add them; say 0600 anyway.
                _ = try syscall("fchmod", path: shown) { SystemCalls.fchmod(fd.rawValue, 0o600) }
                try fd.writeAll(bytes)
            }
            _ = try syscall("renameat", path: shown) {
                temporary.withCString { from in name.withCString { to in SystemCalls.renameat2(directory.rawValue, from, directory.rawValue, to, 0) } }
            }
        } catch {
            _ = temporary.withCString { SystemCalls.unlinkat(directory.rawValue, $0, 0) }
            throw error
        }
    }

    /// tEXt holds Latin-1; a reason is kept to printable ASCII and one line.
    static func printableASCII(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(400).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? $0 : "?" }))
    }
}

extension FileDescriptor {
    /// pread: up to `count` bytes at `offset`, fewer only at the end of the file.
    func read(at offset: Int, count: Int) throws(SystemError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = try syscall("pread") {
                buffer.withUnsafeMutableBytes { raw -> Int in
                    guard let base = raw.baseAddress else { return 0 }
                    return SystemCalls.pread(rawValue, base + filled, count - filled, off_t(offset + filled))
                }
            }
            if n == 0 { break }
            filled += n
        }
        buffer.removeLast(count - filled)
        return buffer
    }
}
