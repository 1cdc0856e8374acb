// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Step 1 of the next chunk (each photo found, checked, given a trash and a free
/// name: `PhotoTrasher.prepare`) on a helper thread, while the batch thread moves
/// the chunk before it. Preparing changes nothing on disk and uses no journal, so
/// it can run ahead; the identity check right before each rename is what keeps a
/// changed photo out of the trash, however early this one ran.
///
/// What it shares with the threads of the chunk being moved: the trash directories
/// (whose name bookkeeping has its own lock). The trasher's own caches (resolver,
/// roots, date text) are touched by one preparer at a time: the batch thread waits
/// for a chunk's preparer before it starts the next.
final class ChunkPreparer: @unchecked Sendable {
    // @unchecked: `result` is written by the helper before `done` is signalled and
    // read by the batch thread only after `done` was waited for.
    typealias Work = [(item: JournalItem, isProtected: Bool)]

    private let trasher: PhotoTrasher
    private let work: Work
    private var result: [PhotoTrasher.Prepared] = []
    private let done = OneShotSignal()
    private var started = false

    init(_ trasher: PhotoTrasher, _ work: Work) {
        self.trasher = trasher
        self.work = work
    }

    /// Starts preparing on a helper thread; when none can be had, `prepared()` does
    /// the work itself.
    func start() {
        do throws(SystemError) {
            try SystemThread.detach(name: "curatord-plan", stackSize: 256 << 10) { [self] in
                result = trasher.prepare(work)
                done.signal()
            }
            started = true
        } catch {
            log.warning("preparing a chunk on the batch thread: \(error)")
        }
    }

    /// The chunk's photos prepared, in order (waiting for the helper if need be).
    func prepared() -> [PhotoTrasher.Prepared] {
        guard started else { return trasher.prepare(work) }
        while !done.wait(seconds: 3600) {}
        return result
    }
}
