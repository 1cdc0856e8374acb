// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Foundation
import Glibc
import Testing

/// The inotify source with real inotify on temporary folders: kernel events become
/// hints in order, nobody has to take them for the kernel queue to be drained,
/// watches follow renamed folders, and libinotifytools can be started afresh.
///
/// libinotifytools is process-global: one source serves every test here, one test
/// at a time, each on its own folder and root id.
@Suite(.serialized) struct InotifySourceTests {
    final class Shared: Sendable {
        let source: InotifySource
        let hints: PendingHints
        let report = WatcherReport()

        init() throws {
            hints = PendingHints { }
            source = InotifySource(tools: try InotifyTools(), hints: hints, report: report, moves: OwnMoves())
            try source.start()
        }
    }

    // The suite is serialized: one test at a time reads and sets it.
    nonisolated(unsafe) static var shared: Shared?

    static func source() throws -> Shared {
        if let shared { return shared }
        let made = try Shared()
        shared = made
        return made
    }

    /// Watches `relative` below `base` for `root`, as the crawler does: open, then watch.
    static func watch(_ base: ByteString, _ relative: String, root: Int32, in shared: Shared) throws -> WatchOutcome? {
        let path = ByteString(relative)
        let fd = try FileDescriptor.openDirectory(base.appending(path))
        defer { try? fd.close() }
        let status = try FileStatus.of(descriptor: fd)
        let request = DirectoryToWatch(root: root, path: path, descriptor: fd,
                                       directory: WatchTable.DirectoryKey(device: status.device, inode: status.inode))
        return shared.source.watch([request]).first
    }

    /// Takes hints of `root` until `done` says enough (or 10 s pass).
    static func hints(of root: Int32, from shared: Shared, until done: ([Hint]) -> Bool) -> (lost: String?, hints: [Hint]) {
        var got: [Hint] = []
        var lost: String?
        let deadline = Date(timeIntervalSinceNow: 10)
        while !done(got) && deadline.timeIntervalSinceNow > 0 {
            let batch = shared.hints.take(max: 100_000)
            lost = lost ?? batch.lost
            got += batch.hints.filter { $0.root == root }
            if batch.hints.isEmpty { usleep(2000) }
        }
        return (lost, got)
    }

    static func write(_ path: ByteString, _ text: String = "x") {
        let fd = open(path.lossyString, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(fd >= 0)
        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
        close(fd)
    }

    @Test func kernelEventsBecomeHintsInTheirOrder() throws {
        let shared = try Self.source()
        let scratch = try ScratchDirectory()
        let root: Int32 = 101
        _ = shared.hints.take(max: .max)
        #expect(try Self.watch(scratch.path, "", root: root, in: shared) == .watched)
        #expect(shared.source.watchCount(root: root) == 1)
        Self.write(scratch.child("a.jpg"))
        #expect(mkdir(scratch.child("sub").lossyString, 0o755) == 0)
        #expect(rename(scratch.child("a.jpg").lossyString, scratch.child("b.jpg").lossyString) == 0)
        Self.write(scratch.child(".curatord-cookie-1-1"))
        // Every event in the pending set before the first take: a.jpg's create and its
        // close-after-write merge only when taken together (a starved test could take
        // the create alone, which is right, but not what this test is about).
        shared.source.flush()
        let (lost, hints) = Self.hints(of: root, from: shared) { $0.count >= 5 }
        #expect(lost == nil)
        #expect(hints.count == 5)
        guard hints.count == 5 else { return }
        // Create and close-write of a.jpg are one hint: written, no longer awaited.
        #expect(hints[0].kind == .path(ByteString("a.jpg"), .written))
        #expect(hints[1].kind == .path(ByteString("sub"), .directoryCreated))
        guard case .movedFrom(let from, let cookie, false, _) = hints[2].kind, case .movedTo(let to, cookie, false) = hints[3].kind else {
            Issue.record("not a rename: \(hints[2]) \(hints[3])")
            return
        }
        #expect(from == ByteString("a.jpg") && to == ByteString("b.jpg"))
        #expect(hints[4].kind == .cookie(ByteString(".curatord-cookie-1-1")))
        shared.source.unwatch(root: root)
    }

    @Test func theWatchesOfARenamedFolderFollowIt() throws {
        let shared = try Self.source()
        let scratch = try ScratchDirectory()
        let root: Int32 = 102
        #expect(mkdir(scratch.child("album").lossyString, 0o755) == 0)
        #expect(mkdir(scratch.child("album/deep").lossyString, 0o755) == 0)
        for folder in ["", "album", "album/deep"] { #expect(try Self.watch(scratch.path, folder, root: root, in: shared) == .watched) }
        // Watching a folder watched already changes nothing.
        #expect(try Self.watch(scratch.path, "album", root: root, in: shared) == .watched)
        #expect(shared.source.watchCount(root: root) == 3)
        _ = shared.hints.take(max: .max)
        #expect(rename(scratch.child("album").lossyString, scratch.child("trip").lossyString) == 0)
        Self.write(scratch.child("trip/deep/x.jpg"))
        let (_, hints) = Self.hints(of: root, from: shared) { $0.contains { $0.kind == .path(ByteString("trip/deep/x.jpg"), .written) } }
        #expect(hints.last?.kind == .path(ByteString("trip/deep/x.jpg"), .written), "\(hints)")
        // A folder moved out: forgotten and removed from the kernel; its events stop.
        shared.source.forget(root: root, below: ByteString("trip"), unwatch: true)
        shared.source.flush()  // requests are handled in order: the forget is done
        #expect(shared.source.watchCount(root: root) == 1)
        _ = shared.hints.take(max: .max)
        Self.write(scratch.child("trip/deep/y.jpg"))
        Self.write(scratch.child("z.jpg"))
        let (_, after) = Self.hints(of: root, from: shared) { $0.contains { $0.kind == .path(ByteString("z.jpg"), .written) } }
        #expect(!after.isEmpty && after.allSatisfy { $0.kind == .path(ByteString("z.jpg"), .written) || $0.kind == .path(ByteString("z.jpg"), .awaitingClose) },
                "\(after)")
        shared.source.unwatch(root: root)
    }

    /// Issue 14: 50 000 files written at 60 000 a second overflowed the kernel queue,
    /// because the thread that read it also stat'ed and indexed. The source only reads:
    /// more files than the queue holds events for, written while nobody takes a hint,
    /// all come through, without an overflow: the pending set, not the kernel, holds them.
    @Test func aBurstLargerThanTheKernelQueueIsReadWithoutOverflow() throws {
        let shared = try Self.source()
        let scratch = try ScratchDirectory()
        let root: Int32 = 103
        let queued = Int((try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 16384
        // Two events a file (create, close-write): twice what the queue holds.
        let count = max(20_000, queued)
        _ = shared.hints.take(max: .max)
        #expect(try Self.watch(scratch.path, "", root: root, in: shared) == .watched)
        // Written in runs of 2 000 files (4 000 events, a quarter of the queue), each
        // flushed: the source must hold them all while nobody takes a hint. (How fast it
        // keeps up with a writer at full speed is the benchmark's flood workload: a
        // test on a loaded machine cannot say.)
        for i in 0..<count {
            Self.write(scratch.child(ByteString("IMG_\(i).JPG")))
            if i % 2_000 == 1_999 { shared.source.flush() }
        }
        // (A file's create and close may come in two takes: two hints then.)
        func written(_ hints: [Hint]) -> Set<Hint.Kind> { Set(hints.map(\.kind).filter { if case .path(_, .written) = $0 { true } else { false } }) }
        let (lost, hints) = Self.hints(of: root, from: shared) { written($0).count >= count }
        #expect(lost == nil, "the kernel queue overflowed")
        #expect(written(hints) == Set((0..<count).map { Hint.Kind.path(ByteString("IMG_\($0).JPG"), .written) }))
        shared.source.unwatch(root: root)
    }

    @Test func aFlushReturnsOnceWhatWasQueuedIsAmongTheHints() throws {
        let shared = try Self.source()
        let scratch = try ScratchDirectory()
        let root: Int32 = 104
        #expect(try Self.watch(scratch.path, "", root: root, in: shared) == .watched)
        for round in 0..<20 {
            _ = shared.hints.take(max: .max)
            Self.write(scratch.child(ByteString("\(round).jpg")))
            shared.source.flush()
            let hints = shared.hints.take(max: .max).hints.filter { $0.root == root }
            #expect(hints.map(\.kind) == [.path(ByteString("\(round).jpg"), .written)], "round \(round)")
        }
        shared.source.unwatch(root: root)
    }

    @Test func aRestartShedsTheEntriesOfDroppedWatches() throws {
        let shared = try Self.source()
        let scratch = try ScratchDirectory()
        let root: Int32 = 105
        #expect(try Self.watch(scratch.path, "", root: root, in: shared) == .watched)
        for i in 0..<5 {
            #expect(mkdir(scratch.child(ByteString("churn\(i)")).lossyString, 0o755) == 0)
            #expect(try Self.watch(scratch.path, "churn\(i)", root: root, in: shared) == .watched)
            #expect(rmdir(scratch.child(ByteString("churn\(i)")).lossyString) == 0)
        }
        let deadline = Date(timeIntervalSinceNow: 10)
        // The kernel's drop notices come one by one: wait until all five are read.
        while (shared.report.snapshot.staleEntries < 5 || shared.source.watchCount(root: root) != 1)
            && deadline.timeIntervalSinceNow > 0 { usleep(2000) }
        #expect(shared.report.snapshot.staleEntries >= 5)
        #expect(shared.source.watchCount(root: root) == 1)
        let restarts = shared.report.snapshot.restarts
        guard case .success(let shed) = shared.source.restart() else {
            Issue.record("inotify could not be restarted")
            return
        }
        #expect(shed >= 5)
        #expect(shared.report.snapshot.staleEntries == 0 && shared.report.snapshot.restarts == restarts + 1)
        // Every watch went with the old instance; a new one works.
        #expect(shared.source.watchCount(root: root) == 0)
        _ = shared.hints.take(max: .max)
        #expect(try Self.watch(scratch.path, "", root: root, in: shared) == .watched)
        Self.write(scratch.child("after.jpg"))
        // The create and the close-after-write merge into one hint unless the first
        // is taken before the second comes: wait for the close, whichever way it comes.
        let (_, hints) = Self.hints(of: root, from: shared) { $0.contains { $0.kind == .path(ByteString("after.jpg"), .written) } }
        #expect(hints.last?.kind == .path(ByteString("after.jpg"), .written))
        #expect(hints.allSatisfy { if case .path(let path, _) = $0.kind { path == ByteString("after.jpg") } else { false } })
        shared.source.unwatch(root: root)
    }
}
