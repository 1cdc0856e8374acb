// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorSystem
import CuratorXMP
import Glibc
import Synchronization

/// Reads the sidecars' marks (docs/XMP.md) in the background, as the capture
/// reader reads EXIF: a batch taken in one locked step, read outside the lock,
/// applied in another. It takes no work while a root is walked or holds a batch
/// (`CuratorState.marksMayRun`), so a first scan is not slowed; a warm start
/// reads only the sidecars whose size or mtime changed (`planMarksReads`).
public final class MarksReader: Sendable {
    let curator: Curator
    /// Sidecars read before their marks are applied: a sidecar is small (bounded
    /// by `SidecarFile.sizeLimit`), most a few kilobytes.
    static let batchSize = 128
    private let stopped = Atomic<Bool>(false)
    private let thread = WorkerPool(name: "curatord-xmp", threads: 1, stackSize: 512 << 10, keepIdleSeconds: 0)
    private let loop = Mutex<JobHandle<Void, Never>?>(nil)

    public init(curator: Curator) { self.curator = curator }

    public func start() throws(WorkerError) {
        let job = try thread.submit { [self] in run() }
        loop.withLock { $0 = job }
    }

    /// Stops after the batch in hand and waits for it, up to `seconds`.
    @discardableResult
    public func stop(waitingUpTo seconds: Double) -> Bool {
        stopped.store(true, ordering: .releasing)
        return loop.withLock({ $0 }).map { $0.wait(until: .after(seconds: seconds)) != nil } ?? true
    }

    private var isStopping: Bool { curator.isStopping || stopped.load(ordering: .acquiring) }

    private func run() {
        // As the capture reader: after indexing, and behind the watcher when files arrive.
        if curator_nice_thread(CaptureReader.niceness) != 0 { log.notice("marks reader: setpriority: \(Errno(errno))") }
        while !isStopping {
            let work = curator.withState { $0.takeMarksWork(limit: Self.batchSize) }
            if work.isEmpty {
                usleep(100_000)
                continue
            }
            let results = Self.read(work)
            curator.withState { $0.applyMarksReads(results) }
        }
    }

    /// Each sidecar opened from its root down, following no symlink; the folder
    /// of the one before reused (a folder's sidecars come together).
    static func read(_ work: [MarksJob]) -> [MarksRead] {
        var results: [MarksRead] = []
        results.reserveCapacity(work.count)
        var roots: [ByteString: DirectoryHandle] = [:]
        var folder: (root: ByteString, path: ByteString, handle: DirectoryHandle)?
        for job in work {
            let parentPath = job.path.relative.parent
            var parent: DirectoryHandle?
            if let folder, folder.root == job.path.root, folder.path == parentPath {
                parent = folder.handle
            } else {
                do throws(SystemError) {
                    let root: DirectoryHandle
                    if let open = roots[job.path.root] {
                        root = open
                    } else {
                        root = try DirectoryHandle.open(job.path.root, followingSymlinks: true)
                        roots[job.path.root] = root
                    }
                    var current = root
                    for component in job.path.directories { current = try current.openDirectory(component) }
                    parent = current
                    folder = (job.path.root, parentPath, current)
                } catch {
                    results.append(MarksRead(id: job.id, record: nil, failed: error.errno != .noEntry, takenAt: job.takenAt))
                    continue
                }
            }
            guard let parent else { continue }
            results.append(read(job, in: parent))
        }
        return results
    }

    private static func read(_ job: MarksJob, in parent: DirectoryHandle) -> MarksRead {
        let path = job.path.absolute.lossyString
        do throws(SidecarError) {
            let found: (status: FileStatus, packet: XMPPacket?)?
            if job.embedded {
                found = try embeddedPacket(job, in: parent)
            } else if let file = try SidecarFile.read(job.path.name, in: parent) {
                // A file that is no XMP says nothing, and is kept so until it
                // changes (a start does not parse it again).
                found = (file.status, try? XMPPacket(parsing: file.bytes, path: path))
                if found?.packet == nil { log.debug("marks reader: \(path) holds no XMP packet; no marks") }
            } else {
                found = nil
            }
            guard let found else { return MarksRead(id: job.id, record: nil, failed: false, takenAt: job.takenAt) }
            return MarksRead(id: job.id, record: SidecarMarksRecord(size: found.status.size, mtimeNs: found.status.mtimeNanoseconds,
                                                                    marks: found.packet.flatMap(PhotoMarks.init)),
                             failed: false, inode: found.status.inode, takenAt: job.takenAt)
        } catch {
            log.debug("marks reader: \(error)")
            return MarksRead(id: job.id, record: nil, failed: true, takenAt: job.takenAt)
        }
    }

    /// An image's embedded packet (nil when it has none, or it does not parse)
    /// with the status of the file it was read from; nil when the file is gone.
    /// A JPEG's and a HEIF's are found by the file's own structure and handed
    /// alone to the toolkit (`EmbeddedXMPLocator`, `ISOBMFFXMPLocator`); a TIFF's
    /// (DNG, TIFF-based RAW) is read by the toolkit's TIFF handler.
    static func embeddedPacket(_ job: MarksJob, in parent: DirectoryHandle) throws(SidecarError) -> (status: FileStatus, packet: XMPPacket?)? {
        let path = job.path.absolute.lossyString
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(job.path.name, O_RDONLY | curator_O_NOFOLLOW | O_NONBLOCK, relativeTo: parent.descriptor)
        } catch where error.errno == .noEntry {
            return nil
        } catch {
            throw .system(error)
        }
        do throws(SystemError) {
            return try fd.closeAfter(path: path) { (fd) throws(SystemError) -> (status: FileStatus, packet: XMPPacket?) in
                let status = try FileStatus.of(descriptor: fd)
                guard status.isRegularFile else { throw SystemError("read", path: path, errno: .invalid) }
                var source = try ExifFileSource(descriptor: fd, size: status.size, budget: ISOBMFFXMPLocator.maximumPacketSize + (1 << 20),
                                                headSize: 64 << 10)
                let magic = try source.read(at: 0, count: 16)
                let bytes: [UInt8]?
                switch ExifContainer(magic: magic) {
                case .jpeg: bytes = try EmbeddedXMPLocator.packet(in: &source)
                case .isoBMFF: bytes = try ISOBMFFXMPLocator.packet(in: &source)
                case .tiff where magic.hasPrefix(asciiBytes("II*\0")) || magic.hasPrefix(asciiBytes("MM\0*")):
                    // The toolkit's TIFF handler claims only the standard header
                    // (not ORF's or RW2's variants).
                    do throws(XMPError) {
                        return (status, try EmbeddedXMP.read(fd, path: path))
                    } catch {
                        log.debug("marks reader: \(error)")
                        return (status, nil)
                    }
                default: bytes = nil
                }
                // No packet, or one that does not parse: the file says nothing.
                return (status, bytes.flatMap { try? XMPPacket(parsing: $0, path: path) })
            }
        } catch {
            throw .system(error)
        }
    }
}
