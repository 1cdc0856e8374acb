// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorSystem
import Glibc
import Synchronization

/// Hashes file contents for the duplicate search in the background, as the
/// capture reader reads EXIF: a batch of reads taken in one locked step, made
/// outside the lock, applied in another. Its threads run SCHED_IDLE (a core only
/// when nothing else wants it) in the lowest best-effort I/O class, not the idle
/// one: a scheduler that honours classes (mq-deadline) serves idle reads only while
/// no one else reads, and the capture and marks readers read every photo after a
/// start. They take no work while a root is walked or holds a batch
/// (`CuratorState.hashingMayRun`).
public final class DuplicateHasher: Sendable {
    let curator: Curator
    /// Reads a batch makes before its results are applied: bounded in files; each
    /// read is bounded in memory by its thread's buffer (`FileHasher.bufferSize`).
    static let batchSize = 128
    /// Reading from the page cache into the buffer takes a core by itself: two
    /// threads, each with batches of its own.
    static let threads = 2
    private let stopped = Atomic<Bool>(false)
    private let pool = WorkerPool(name: "curatord-hash", threads: DuplicateHasher.threads, stackSize: 512 << 10,
                                  keepIdleSeconds: 0)
    private let loops = Mutex<[JobHandle<Void, Never>]>([])

    public init(curator: Curator) { self.curator = curator }

    public func start() throws(WorkerError) {
        curator.withState { $0.contentHashes.hasherRuns = true }
        for index in 0..<Self.threads {
            let job = try pool.submit { [self] in run(announcing: index == 0) }
            loops.withLock { $0.append(job) }
        }
    }

    /// Stops after the batches in hand and waits for them, up to `seconds`.
    @discardableResult
    public func stop(waitingUpTo seconds: Double) -> Bool {
        stopped.store(true, ordering: .releasing)
        curator.withState { $0.contentHashes.hasherRuns = false }
        let deadline = Deadline.after(seconds: seconds)
        return loops.withLock({ $0 }).allSatisfy { $0.wait(until: deadline) != nil }
    }

    private var isStopping: Bool { curator.isStopping || stopped.load(ordering: .acquiring) }

    /// `announcing`: this loop is the daemon's idle tick that tells set changes (their
    /// search runs here, outside the lock, at idle priority).
    private func run(announcing: Bool) {
        if curator_idle_thread() != 0 { log.notice("content hasher: lowering its priority: \(Errno(errno))") }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: FileHasher.bufferSize, alignment: 4096)
        defer { buffer.deallocate() }
        while !isStopping {
            if announcing, let look = curator.withState({ $0.setLookDue() }) {
                let found = look.find()
                curator.withState { $0.finishSetLook(look, found: found) }
            }
            let (work, held) = curator.withState { state in
                (state.takeHashWork(limit: Self.batchSize), !state.hashingMayRun)
            }
            if work.isEmpty {
                // Held by a walk or a batch: the reads come as it ends, so look again soon.
                usleep(held ? 25_000 : 200_000)
                continue
            }
            FileHasher.prefetch(work.map { ($0.path, $0.stage, $0.size) })
            var results: [HashResult] = []
            results.reserveCapacity(work.count)
            for job in work {
                var result = HashResult(id: job.id, stage: job.stage, size: job.size, mtimeNs: job.mtimeNs, hash: nil, failed: false)
                do throws(SystemError) {
                    result.hash = try FileHasher.hash(path: job.path, stage: job.stage, size: job.size, mtimeNs: job.mtimeNs,
                                                      buffer: buffer)
                } catch {
                    // Gone (the watcher will say so), unreadable, or a FIFO put in
                    // its place: no hash, and no read again until it changes.
                    log.debug("content hasher: \(error)")
                    result.failed = error.errno != .noEntry
                }
                results.append(result)
            }
            curator.withState { state in
                state.applyHashes(results)
                state.setWatch.dirty = true
            }
        }
    }
}
