// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorSystem
import FoundationEssentials
import Glibc
import Synchronization

/// Reads capture times (EXIF DateTimeOriginal) in the background, so that a scan
/// only walks, stats and persists: files are opened here, outside the state lock,
/// a batch at a time, and the results applied in one locked step per batch.
public final class CaptureReader: Sendable {
    let curator: Curator
    static let batchSize = 256
    private let stopped = Atomic<Bool>(false)
    /// The reader's thread: one long job. Shutdown waits for its handle, for the batch
    /// in hand to be applied, so that nothing is written after the index is closed.
    private let thread = WorkerPool(name: "curatord-exif", threads: 1, stackSize: 512 << 10, keepIdleSeconds: 0)
    private let loop = Mutex<JobHandle<Void, Never>?>(nil)

    public init(curator: Curator) { self.curator = curator }

    public func start() throws(WorkerError) {
        let job = try thread.submit { [self] in run() }
        loop.withLock { $0 = job }
    }

    /// Stops after the batch in hand and waits for that, up to `seconds`. False when it did not stop in time.
    @discardableResult
    public func stop(waitingUpTo seconds: Double) -> Bool {
        stopped.store(true, ordering: .releasing)
        guard let job = loop.withLock({ $0 }) else { return true }
        return job.wait(until: .after(seconds: seconds)) != nil
    }

    private func run() {
        var hadWork = false
        while !curator.isStopping && !stopped.load(ordering: .acquiring) {
            // While a root is being walked, the walk has the disk and the lock to itself:
            // capture times are for after (a cold start reports "scan done" sooner). So
            // has a batch (or an undo) moving photos: photos imported and culled at once
            // had their EXIF read on the cores the batch needed (15 % of the samples
            // while 10 000 new photos went to the trash, issue 14).
            let work = curator.withState { state in
                state.plans.batchRunning || state.roots.values.contains { $0.scanning }
                    ? [] : state.takeCaptureWork(limit: Self.batchSize)
            }
            if work.isEmpty {
                if hadWork {
                    hadWork = false
                    curator_trim_heap()
                }
                usleep(100_000)
                continue
            }
            hadWork = true
            var results: [(Int64, CaptureState)] = []
            results.reserveCapacity(work.count)
            for (id, path) in work {
                let time = ExifReader.captureTime(path: path)
                results.append((id, time.map { .known($0.seconds) } ?? .none))
            }
            curator.withState { state in state.applyCaptureTimes(results) }
        }
    }
}
