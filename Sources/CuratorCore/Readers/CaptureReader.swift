// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorSystem
import FoundationEssentials
import Glibc
import Synchronization

/// Reads capture times (EXIF DateTimeOriginal, with their sub-seconds and offset) in the background, so that a scan
/// only walks, stats and persists: files are opened here, outside the state lock,
/// a batch at a time, and the results applied in one locked step per batch.
///
/// The local roots' photos are read on the reader's own thread; each share's on a
/// thread of that share's own (`ShareLanes`), one batch at a time: a share whose
/// server hangs holds that thread and its own queued photos, and the other roots'
/// capture times go on.
public final class CaptureReader: Sendable {
    let curator: Curator
    static let batchSize = 256
    /// A share's batch: what one read that hangs holds back, and what a slow
    /// server gets done before the next look at the queue.
    static let shareBatchSize = 32
    private let stopped = Atomic<Bool>(false)
    /// The reader's thread: one long job. Shutdown waits for its handle, for the batch
    /// in hand to be applied, so that nothing is written after the index is closed.
    private let thread = WorkerPool(name: "curatord-exif", threads: 1, stackSize: 512 << 10, keepIdleSeconds: 0)
    private let loop = Mutex<JobHandle<Void, Never>?>(nil)
    private let shares = ShareLanes()

    public init(curator: Curator) { self.curator = curator }

    public func start() throws(WorkerError) {
        let job = try thread.submit { [self] in run() }
        loop.withLock { $0 = job }
    }

    /// Stops after the batches in hand and waits for them, up to `seconds`. False
    /// when they did not stop in time (a share that hangs: its batch is then
    /// never applied, see `readShare`).
    @discardableResult
    public func stop(waitingUpTo seconds: Double) -> Bool {
        stopped.store(true, ordering: .releasing)
        let deadline = Deadline.after(seconds: seconds)
        let loopStopped = loop.withLock({ $0 }).map { $0.wait(until: deadline) != nil } ?? true
        return shares.waitForAll(until: deadline) && loopStopped
    }

    private var isStopping: Bool { curator.isStopping || stopped.load(ordering: .acquiring) }

    /// The reader's nice value: capture times come after indexing, so when files
    /// arrive faster than they are indexed (a copy of a library into a root) the
    /// watcher, not the reader, gets the cores (the reader took a quarter of them
    /// while 50 000 files were written, issue 14); idle cores are still the reader's.
    static let niceness: Int32 = 10

    private func run() {
        if curator_nice_thread(Self.niceness) != 0 { log.notice("capture reader: setpriority: \(Errno(errno))") }
        var hadWork = false
        while !isStopping {
            // While a root is being walked, the walk has the disk and the lock to itself:
            // capture times are for after (a cold start reports "scan done" sooner). So
            // has a batch (or an undo) moving photos: photos imported and culled at once
            // had their EXIF read on the cores the batch needed (15 % of the samples
            // while 10 000 new photos went to the trash, issue 14).
            let busy = shares.busy
            let work = curator.withState { state in
                state.takeCaptureWork(localLimit: Self.batchSize, shareLimit: Self.shareBatchSize, busyShares: busy)
            }
            for (root, batch) in work.shares { handToShare(root, batch) }
            if work.local.isEmpty {
                if hadWork {
                    hadWork = false
                    curator_trim_heap()
                }
                usleep(100_000)
                continue
            }
            hadWork = true
            let results = Self.read(work.local)
            curator.withState { state in state.applyCaptureTimes(results) }
        }
    }

    private static func read(_ work: [(Int64, PhotoPath)]) -> [CaptureResult] {
        var results: [CaptureResult] = []
        results.reserveCapacity(work.count)
        // Each photo is opened from its root down, following no symlink: a folder
        // swapped for a symlink must not lend this photo another's capture time.
        var roots: [ByteString: DirectoryHandle] = [:]
        for (id, path) in work {
            let root = roots[path.root] ?? (try? DirectoryHandle.open(path.root, followingSymlinks: true))
            roots[path.root] = root
            let capture = root.flatMap { ExifReader.capture(beneath: $0, relative: path.relative) }
            results.append(CaptureResult(id: id, state: capture.map { .known($0.time.seconds) } ?? .none,
                                         detail: capture?.detail ?? .none))
        }
        return results
    }

    /// Reads a share's batches on its thread, applying each and taking the next in
    /// one locked step, until its queue is empty or it may not be read now; the
    /// share's queue is left alone meanwhile. Applied only while the reader runs: a
    /// read that comes back after shutdown has closed the index writes nothing.
    private func handToShare(_ root: Int32, _ first: [(Int64, PhotoPath)]) {
        let handed = shares.submit(root: root) { [self] in
            var batch = first
            while !batch.isEmpty {
                let results = Self.read(batch)
                batch = curator.withState { state in
                    guard !isStopping else { return [] }
                    state.applyCaptureTimes(results)
                    return state.takeShareCaptureWork(root: root, limit: Self.shareBatchSize)
                }
            }
        }
        if !handed { curator.withState { $0.returnCaptureWork(first, root: root) } }
    }
}

/// One thread per share for its capture reads, and which of them has a batch in
/// flight.
private final class ShareLanes: Sendable {
    private struct Lanes {
        var pools: [Int32: WorkerPool] = [:]
        var running: [Int32: JobHandle<Void, Never>] = [:]
        var busy = Set<Int32>()
    }
    private let lanes = Mutex(Lanes())

    /// The shares with a batch in flight.
    var busy: Set<Int32> { lanes.withLock { $0.busy } }

    /// Runs `work` on `root`'s thread; false when that thread cannot take it.
    func submit(root: Int32, _ work: @escaping @Sendable () -> Void) -> Bool {
        lanes.withLock { lanes in
            let pool = lanes.pools[root] ?? WorkerPool(name: "curatord-exif\(root)", threads: 1, queueLimit: 1,
                                                       stackSize: 512 << 10, keepIdleSeconds: 10)
            lanes.pools[root] = pool
            // Marked before the job starts, so that its end (which unmarks it) comes after.
            lanes.busy.insert(root)
            do {
                lanes.running[root] = try pool.submit(whenFull: .refuse) { [self] in
                    work()
                    self.lanes.withLock { _ = $0.busy.remove(root) }
                }
                return true
            } catch {
                lanes.busy.remove(root)
                log.error("root \(root): cannot hand capture-time reads to its thread: \(error)")
                return false
            }
        }
    }

    /// Waits for every batch in flight, up to `deadline`: false when one is still running.
    func waitForAll(until deadline: Deadline) -> Bool {
        let running = lanes.withLock { Array($0.running.values) }
        return running.allSatisfy { $0.wait(until: deadline) != nil }
    }
}
