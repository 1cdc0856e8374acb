// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Foundation
import Glibc
import Synchronization
import Testing

/// Batches on different roots run at once, each on a runner of its own (`another()`:
/// its own journal connection and helpers): one held mid-way (here by a failpoint
/// that waits, in the daemon by a share that hangs) does not stop another batch,
/// its undo or the history, and each batch's records stay its own.
@Suite struct ConcurrentBatchTests {
    @Test func aBatchHeldMidWayLetsAnotherRunnerBatchAndUndo() throws {
        let box = try Sandbox()
        try box.photo("held/a.jpg")
        try box.photo("free/b.jpg")
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // The first batch to commit a chunk's intents waits there until released.
        let failpoints = Failpoints(point: .chunkIntent, count: 1, action: .run {
            entered.signal()
            release.wait()
        })
        let runner = try box.runner(failpoints: failpoints)
        let other = try runner.another()
        let heldPlan = try box.plan(["held/a.jpg"])
        let freePlan = BatchPlan(session: "test", items: [try box.item(2, "free/b.jpg", rootName: "other")])

        let held = Mutex<Result<BatchOutcome, BatchError>?>(nil)
        // The runner is used by that thread alone until it has finished (`held` set).
        nonisolated(unsafe) let heldRunner = runner
        let thread = Thread {
            let outcome = Result { () throws(BatchError) in try heldRunner.run(plan: heldPlan, requester: .me) }
            held.withLock { $0 = outcome }
        }
        thread.start()
        #expect(entered.wait(timeout: .now() + 10) == .success, "the first batch never reached its intents")
        defer { release.signal() }

        let free = try other.run(plan: freePlan, requester: .me)
        #expect(free.result.trashed == 1 && free.result.state == .done)
        #expect(!Sandbox.exists(box.root.appending("free/b.jpg")))
        #expect(Sandbox.exists(box.root.appending("held/a.jpg")), "the held batch moved nothing yet")
        let undone = try other.undo(batch: free.result.batch, requester: .me)
        #expect(undone.result.restored == 1)
        #expect(Sandbox.exists(box.root.appending("free/b.jpg")))
        let history = try other.history(uid: nil)
        #expect(history.map(\.state) == [.undone, .running], "\(history)")

        release.signal()
        let deadline = Date(timeIntervalSinceNow: 10)
        while held.withLock({ $0 == nil }) && Date() < deadline { usleep(5_000) }
        let outcome = try #require(held.withLock { $0 }, "the held batch never finished").get()
        #expect(outcome.result.trashed == 1 && outcome.result.state == BatchState.done)
        #expect(!Sandbox.exists(box.root.appending("held/a.jpg")))
        // Each batch's records are its own, and nothing is left running.
        #expect(try runner.result(of: outcome.result.batch).items.map(\.path) == ["held/a.jpg"])
        #expect(try runner.result(of: free.result.batch).items.map(\.path) == ["free/b.jpg"])
        #expect(try !runner.journal.hasRunningBatch())
    }

    @Test func aBatchLeftRunningByAnotherProcessStillStopsEveryRunner() throws {
        let box = try Sandbox()
        try box.photo("a.jpg")
        try box.batchLeftRunning("a.jpg")
        let runner = try box.runner()
        let other = try runner.another()
        for candidate in [runner, other] {
            let error = try #require(throws: BatchError.self) { try candidate.run(plan: try box.plan(["a.jpg"]), requester: .me) }
            #expect(error.code == .recoveryPending && error.message.contains("batch 1"), "\(error)")
        }
    }
}
