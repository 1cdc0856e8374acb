// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
@testable import CuratorSystem
import Glibc
import Testing

/// The `.trashinfo` helper of a batch shares the chunk's infos with the batch
/// thread: whichever gets to an info first writes it, so that a helper the
/// scheduler keeps waiting (a loaded host) never holds the batch thread up.
@Suite("Batch: .trashinfo files written ahead")
struct InfoWriterAheadTests {
    /// A home trash in the sandbox and `count` moves of photos `<prefix>0.jpg`... into it.
    private static func moves(_ box: Sandbox, count: Int, prefix: String = "p") throws -> [ChunkPlanner.PlannedMove] {
        let infoDirectory = box.homeTrash.appending("info")
        let filesDirectory = box.homeTrash.appending("files")
        if !Sandbox.exists(infoDirectory) { try Sandbox.makeDirectories(infoDirectory) }
        if !Sandbox.exists(filesDirectory) { try Sandbox.makeDirectories(filesDirectory) }
        let trash = TrashDirectory(path: box.homeTrash, topdir: nil,
                                   files: try DirectoryHandle.open(filesDirectory, followingSymlinks: false),
                                   info: try DirectoryHandle.open(infoDirectory, followingSymlinks: false))
        let parent = try DirectoryHandle.open(box.root, followingSymlinks: false)
        return try (0..<count).map { index in
            let name = ByteString("\(prefix)\(index).jpg")
            let path = try #require(PhotoPath(root: box.root, relative: name))
            return ChunkPlanner.PlannedMove(parent: parent, path: path, trash: trash, name: name, owner: geteuid(),
                                            info: TrashInfo(path: box.root.appending(name), deletionDate: "2026-12-01T03:00:00"))
        }
    }

    private static func infos(_ box: Sandbox) -> [ByteString] {
        Sandbox.names(in: box.homeTrash.appending("info")).sorted()
    }

    /// The helper's job is queued behind a busy thread and never starts: the batch
    /// thread is told at once to write each info itself. (Before, it waited for the
    /// helper, first spinning on sched_yield, then asleep, as long as the helper took
    /// to be scheduled.)
    @Test func theBatchThreadWritesWhatTheHelperHasNotReachedInsteadOfWaiting() throws {
        let box = try Sandbox()
        let moves = try Self.moves(box, count: 3)
        let pool = WorkerPool(name: "test-infos", threads: 1, queueLimit: 4, stackSize: 256 << 10, keepIdleSeconds: 0)
        let release = OneShotSignal()
        try pool.submit { _ = release.wait(seconds: 60) }  // the pool's only thread, busy
        let ahead = InfoWriterAhead(moves, failpoints: .disarmed)
        ahead.start(on: pool)

        let asker = WorkerPool(name: "test-asker", threads: 1, stackSize: 256 << 10, keepIdleSeconds: 0)
        let handOver = HandOver(ahead)
        let answers = try asker.submit { () -> [Bool] in (0..<3).map { handOver.value.result(at: $0) == nil } }
        let answered = answers.wait(until: .after(seconds: 5))
        release.signal()
        #expect(answered != nil, "the batch thread waited for a helper that never ran")
        let mine = (answered ?? answers.wait()).get()  // the asker is done with the writer after this
        #expect(mine == [true, true, true], "every info left to the batch thread")
        #expect(ahead.finish(reached: 3).isEmpty)
        #expect(Self.infos(box).isEmpty, "the helper, started late, wrote nothing the batch thread had taken")
    }

    /// With the helper running ahead, the batch thread takes its results, and a
    /// batch that stops part-way gets back the infos written for moves it never
    /// reached (to remove them).
    @Test func infosWrittenAheadAreHandedOverAndThoseNeverReachedAreReturned() throws {
        let box = try Sandbox()
        let moves = try Self.moves(box, count: 4)
        let pool = WorkerPool(name: "test-infos", threads: 1, queueLimit: 4, stackSize: 256 << 10, keepIdleSeconds: 0)
        let ahead = InfoWriterAhead(moves, failpoints: .disarmed)
        ahead.start(on: pool)
        let deadline = Deadline.after(seconds: 10)
        while Self.infos(box).count < 4 && Deadline.now < deadline { usleep(1000) }
        #expect(Self.infos(box) == ["p0.jpg.trashinfo", "p1.jpg.trashinfo", "p2.jpg.trashinfo", "p3.jpg.trashinfo"])
        guard case .written? = ahead.result(at: 0) else {
            Issue.record("the helper's info for the first move was not handed over")
            return
        }
        let left = ahead.finish(reached: 1)
        #expect(left.map(\.name) == ["p1.jpg", "p2.jpg", "p3.jpg"])
    }

    /// The next chunk's writer starts while the chunk before's is still writing (its
    /// helper held inside its second info): it writes nothing until that one is done,
    /// then all of its own. Two writers at once in one `info/` spin on its lock.
    @Test func theNextChunksWriterWaitsForTheOneBefore() throws {
        let box = try Sandbox()
        let before = try Self.moves(box, count: 3, prefix: "p")
        let next = try Self.moves(box, count: 3, prefix: "q")
        let release = OneShotSignal()
        let held = Failpoints(point: .itemInfoCreated, count: 2, action: .run { _ = release.wait(seconds: 60) })
        let pool = WorkerPool(name: "test-infos", threads: 2, queueLimit: 4, stackSize: 256 << 10, keepIdleSeconds: 0)
        let first = InfoWriterAhead(before, failpoints: held)
        let second = InfoWriterAhead(next, failpoints: .disarmed)
        first.start(on: pool)
        second.start(on: pool, after: first)
        usleep(300_000)
        let meanwhile = Self.infos(box)
        release.signal()
        #expect(meanwhile == ["p0.jpg.trashinfo"], "the second writer went on while the first was writing")
        let deadline = Deadline.after(seconds: 10)
        while Self.infos(box).count < 6 && Deadline.now < deadline { usleep(1000) }
        #expect(Self.infos(box) == ["p0.jpg.trashinfo", "p1.jpg.trashinfo", "p2.jpg.trashinfo",
                                    "q0.jpg.trashinfo", "q1.jpg.trashinfo", "q2.jpg.trashinfo"])
        #expect(first.finish(reached: 0).map(\.name) == ["p0.jpg", "p1.jpg", "p2.jpg"])
        #expect(second.finish(reached: 0).map(\.name) == ["q0.jpg", "q1.jpg", "q2.jpg"])
    }
}

/// Hands the writer (which belongs to one thread at a time, the batch thread's) to
/// the thread that plays the batch thread, and back once that thread's job is over.
// @unchecked: used by one thread at a time: the asker's job, then the test after it
// waited for that job (or, when it timed out, after the helper it waited on ran).
private final class HandOver: @unchecked Sendable {
    let value: InfoWriterAhead
    init(_ value: InfoWriterAhead) { self.value = value }
}
