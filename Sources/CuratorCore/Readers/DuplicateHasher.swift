// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorSystem
import Glibc
import Synchronization

/// Hashes file contents for the duplicate search in the background, as the
/// capture reader reads EXIF: a batch of reads taken in one locked step, made
/// outside the lock, applied in another. Its thread runs at nice 19 in the idle
/// I/O class, so that any other reader of the disk goes first; and it takes no
/// work while a root is walked or holds a batch (`CuratorState.hashingMayRun`).
public final class DuplicateHasher: Sendable {
    let curator: Curator
    /// Reads a batch makes before its results are applied: bounded in files; each
    /// read is bounded in memory by the one buffer (`FileHasher.bufferSize`).
    static let batchSize = 32
    private let stopped = Atomic<Bool>(false)
    private let thread = WorkerPool(name: "curatord-hash", threads: 1, stackSize: 512 << 10, keepIdleSeconds: 0)
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
        if curator_idle_thread() != 0 { log.notice("content hasher: lowering its priority: \(Errno(errno))") }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: FileHasher.bufferSize, alignment: 4096)
        defer { buffer.deallocate() }
        while !isStopping {
            // This loop is the daemon's idle tick: set changes are told from here too.
            let work = curator.withState { state in
                state.announceSetChanges()
                return state.takeHashWork(limit: Self.batchSize)
            }
            if work.isEmpty {
                usleep(200_000)
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
