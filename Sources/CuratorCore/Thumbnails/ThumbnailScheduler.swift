// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorProtocol
import CuratorSystem
import CuratorThumbnails
import FoundationEssentials
import Glibc
import Synchronization

/// Makes the thumbnails of every indexed photo of its lane in the background, one
/// photo at a time, through `curatord-thumbnailer` (`ThumbnailerProcess`: libvips and
/// LibRaw never enter the daemon). The worker runs at idle CPU and I/O priority; this
/// thread only opens files and waits for it. Two run: one for the local roots, one
/// for the shares (`ThumbnailLane`), each with its thread and worker, so that opening
/// or reading a photo of a share whose server hangs holds up the shares' thumbnails
/// only. Background work waits for its root's scans, capture times and batches
/// (`takeThumbnailWork`); photos clients ask for (`thumbnail`) go first and ring the
/// doorbell.
///
/// A photo whose thumbnails are valid in the cache (ours or a file manager's) is
/// found so here, by reading the PNGs' text chunks, without the worker.
public final class ThumbnailScheduler: Sendable {
    let curator: Curator
    let cacheRoot: ByteString
    let options: ThumbnailerProcess.Options
    public let lane: ThumbnailLane
    private let stopped = Atomic<Bool>(false)
    /// The scheduler's thread: one long job. `stop` waits for its handle.
    private let thread: WorkerPool
    private let loop = Mutex<JobHandle<Void, Never>?>(nil)
    /// How long the thumbnails of a photo that left wait before they are removed:
    /// long enough for a batch to bury a photo the watcher saw leave first.
    static let departureGraceNanoseconds: UInt64 = 10_000_000_000

    public init(curator: Curator, cacheRoot: ByteString, executable: ByteString, lane: ThumbnailLane = .local) {
        self.curator = curator
        self.cacheRoot = cacheRoot
        self.lane = lane
        options = ThumbnailerProcess.Options(executable: executable)
        thread = WorkerPool(name: lane == .local ? "curatord-thumbs" : "curatord-thshare", threads: 1, stackSize: 512 << 10,
                            keepIdleSeconds: 0)
    }

    /// Asks the thread to stop after the photo in hand, without waiting (`stop` waits).
    public func requestStop() {
        stopped.store(true, ordering: .releasing)
        curator.ringThumbnailDoorbell()
    }

    public func start() throws(WorkerError) {
        let job = try thread.submit { [self] in run() }
        loop.withLock { $0 = job }
    }

    /// Stops after the photo in hand, up to `seconds`. False when it did not stop in time.
    @discardableResult
    public func stop(waitingUpTo seconds: Double) -> Bool {
        stopped.store(true, ordering: .releasing)
        curator.ringThumbnailDoorbell()
        guard let job = loop.withLock({ $0 }) else { return true }
        return job.wait(until: .after(seconds: seconds)) != nil
    }

    private var running: Bool { !curator.isStopping && !stopped.load(ordering: .acquiring) }

    private func run() {
        let worker = ThumbnailerProcess(options: options)
        defer { worker.stop() }
        var cache: ThumbnailDirectory?
        var brokenUntil: UInt64 = 0
        while running {
            let now = MonotonicClock.nanoseconds()
            if cache == nil {
                do {
                    cache = try ThumbnailDirectory.open(ThumbnailCache(root: cacheRoot), create: true)
                    curator.setThumbnailNote(nil)
                } catch {
                    curator.setThumbnailNote("the cache \(cacheRoot) cannot be used: \(error)")
                    curator.waitForThumbnailDoorbell(seconds: 30)
                    continue
                }
            }
            guard let cache else { continue }
            // One lane removes what left: the local one, which never waits on a share.
            if lane == .local { removeDeparted(in: cache) }
            guard now >= brokenUntil, let work = curator.withState({ $0.takeThumbnailWork(lane: lane) }) else {
                curator.waitForThumbnailDoorbell(seconds: 0.5)
                continue
            }
            let outcome = make(work, cache: cache, worker: worker)
            switch outcome {
            case .some(let result):
                curator.withState { $0.thumbnailFinished(work, result, announce: true) }
            case nil:
                // The worker cannot run: not the photo's fault. Try again in a while.
                curator.withState { $0.thumbnailFinished(work, .retry, announce: false) }
                brokenUntil = MonotonicClock.nanoseconds() + 30_000_000_000
            }
        }
    }

    /// The photo's thumbnails made or found; nil when the worker cannot run.
    private func make(_ work: ThumbnailWork, cache: ThumbnailDirectory, worker: ThumbnailerProcess) -> ThumbnailQueue.Outcome? {
        let uri: FileURI
        do { uri = try FileURI(path: work.path) } catch { return .failed("unreadable: \(error)") }
        let source: FileDescriptor
        let status: FileStatus
        do throws(PhotoReadFailure) {
            // From the root down, no symlink followed: a folder swapped for a symlink
            // must not get another folder's photo into this one's thumbnail. O_NONBLOCK:
            // a FIFO swapped in under a photo's name must not hang us.
            let photo = try PhotoReadAccess.open(root: work.rootPath, relative: work.relative, for: nil)
            (source, status) = (photo.descriptor, photo.status)
        } catch {
            guard case .failed(let error) = error else { return .failed("unreadable: not a photo's path") }
            return .failed("unreadable: \(error)")
        }
        defer { try? source.close() }  // read only
        guard status.isRegularFile else { return .failed("unreadable: not a regular file") }
        let subject = ThumbnailSubject(uri: uri, mtime: status.mtimeNanoseconds.floorDividedBySecond, size: UInt64(max(0, status.size)))

        // Valid already (ours, or a file manager's), or failed before: no worker needed.
        let present = work.sizes.filter { size in
            if case .valid = (try? cache.lookup(subject, size: size)) ?? .missing { return true }
            return false
        }
        let previewsPresent = work.previews.filter { kind in
            guard let found = try? cache.openPreview(subject, kind: kind) else { return false }
            try? found.close()  // read only
            return true
        }
        if present.count == work.sizes.count && !work.look && previewsPresent == work.previews {
            curator.withState { state in
                for kind in previewsPresent { state.thumbnails.previewFinished(work.id, kind: kind, available: true) }
            }
            return .ready(Set(present))
        }
        if let reason = try? cache.failRecord(for: subject) { return .failed(reason) }

        var request = ThumbnailerRequest(
            uri: uri, source: source, cache: cache.descriptor, sizes: work.sizes, type: work.type.rawValue,
            mtime: subject.mtime, size: subject.size)
        request.look = work.look
        request.previews = work.previews
        let result: ThumbnailResult
        do {
            result = try worker.make(request)
        } catch {
            log.warning("thumbnails: \(error); trying again in 30 s")
            return nil
        }
        if let look = result.look, let bits = look.hashBits, result.changed != true {
            // The camera from the same descriptor: the file the thumbnails are of.
            let measured = StackLook(size: status.size, mtimeNs: status.mtimeNanoseconds, dHash: bits, sharpness: look.sharpness,
                                     camera: CameraKey.read(source, size: status.size))
            curator.withState { $0.applyLook(work.id, measured) }
        }
        // Before the outcome is recorded: a photo found changed then forgets them again.
        let previews = PreviewKind.allCases.compactMap { kind in result.outcome(kind).map { (kind, $0) } }
        if !previews.isEmpty {
            curator.withState { state in
                for (kind, outcome) in previews { state.thumbnails.previewFinished(work.id, kind: kind, available: outcome != .unavailable) }
            }
        }
        switch result.status {
        case .written, .reused:
            return .ready(Set(result.sizes?.keys.map { $0 } ?? work.sizes))
        case .placeholder:
            return .failed("placeholder: a video clip")
        case .failed:
            if result.code == .noAnswer { return nil }
            return .failed("\(result.code?.rawValue ?? "failed"): \(result.reason ?? "")")
        }
    }

    /// Removes the thumbnails of photos that left for good (not to the trash).
    private func removeDeparted(in cache: ThumbnailDirectory) {
        let paths = curator.withState { $0.thumbnailDepartures(graceNanoseconds: Self.departureGraceNanoseconds) }
        for path in paths {
            guard let uri = try? FileURI(path: path) else { continue }
            do {
                try cache.removeAll(for: uri)
            } catch {
                log.warning("thumbnails: cannot remove those of \(path): \(error)")
            }
        }
    }
}

extension Int64 {
    /// Nanoseconds to whole seconds, rounding down (before 1970 too), as st_mtime is.
    var floorDividedBySecond: Int64 {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: 1_000_000_000)
        return remainder < 0 ? quotient - 1 : quotient
    }
}
