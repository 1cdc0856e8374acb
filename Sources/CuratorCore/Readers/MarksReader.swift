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
                    results.append(MarksRead(id: job.id, record: nil, failed: error.errno != .noEntry))
                    continue
                }
            }
            guard let parent else { continue }
            results.append(read(job, in: parent))
        }
        return results
    }

    private static func read(_ job: MarksJob, in parent: DirectoryHandle) -> MarksRead {
        do throws(SidecarError) {
            let found: SidecarFile?
            if job.embedded {
                found = try embeddedPacket(job, in: parent)
            } else {
                found = try SidecarFile.read(job.path.name, in: parent)
            }
            guard let file = found else { return MarksRead(id: job.id, record: nil, failed: false) }
            // A JPEG with no packet says nothing (an empty packet holds no property);
            // so does a file that is no XMP, kept so until it changes (a start does
            // not parse it again).
            let packet = try? XMPPacket(parsing: file.bytes, path: job.path.absolute.lossyString)
            if packet == nil { log.debug("marks reader: \(job.path.absolute.lossyString) holds no XMP packet; no marks") }
            return MarksRead(id: job.id, record: SidecarMarksRecord(size: file.status.size, mtimeNs: file.status.mtimeNanoseconds,
                                                                    marks: packet.flatMap(PhotoMarks.init)),
                             failed: false)
        } catch {
            log.debug("marks reader: \(error)")
            return MarksRead(id: job.id, record: nil, failed: true)
        }
    }

    /// A JPEG's XMP segment (empty when it has none) with the status of the file it
    /// was read from; nil when the file is gone.
    static func embeddedPacket(_ job: MarksJob, in parent: DirectoryHandle) throws(SidecarError) -> SidecarFile? {
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
            return try fd.closeAfter(path: path) { (fd) throws(SystemError) -> SidecarFile? in
                let status = try FileStatus.of(descriptor: fd)
                guard status.isRegularFile else { throw SystemError("read", path: path, errno: .invalid) }
                var source = try ExifFileSource(descriptor: fd, size: status.size, budget: 1 << 20, headSize: 64 << 10)
                return SidecarFile(bytes: try EmbeddedXMPLocator.packet(in: &source) ?? [], status: status)
            }
        } catch {
            throw .system(error)
        }
    }
}
