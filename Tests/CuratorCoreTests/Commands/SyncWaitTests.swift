// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Foundation
import Glibc
import Synchronization
import Testing

/// `sync` on a polled root waits for its running scan to end: woken when it ends
/// (`ScanEnds`), not looking at the state again every few milliseconds.
@Suite(.serialized)
struct SyncWaitTests {
    static let me = Caller(uid: getuid(), gid: getgid())

    /// A fixture whose root is polled and scanning.
    static func polledAndScanning() throws -> (StoppingTests.Fixture, Int32) {
        let f = try StoppingTests.Fixture(photos: 1)
        let root = try f.curator.withState { state in
            let id = try #require(state.rootID(named: "pics"))
            state.roots[id]?.usesInotify = false
            state.roots[id]?.scanning = true
            return id
        }
        return (f, root)
    }

    /// The voluntary context switches of the calling thread so far.
    static func switches() -> Int? {
        let status = (try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
        return line.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
    }

    @Test func aSyncAnswersWhenThePolledRootsScanEndsAndSleepsMeanwhile() throws {
        let (f, root) = try Self.polledAndScanning()
        let answered = DispatchSemaphore(value: 0)
        let box = Mutex<(result: SyncResult?, switches: Int?)>((nil, nil))
        let curator = f.curator
        Thread.detachNewThread {
            let before = Self.switches()
            let result = try? SyncCommand.run(SyncRequest(root: "pics", timeoutMs: 20_000), curator: curator, caller: Self.me)
            let after = Self.switches()
            let switches = before.flatMap { b in after.map { $0 - b } }
            box.withLock { $0 = (result, switches) }
            answered.signal()
        }
        #expect(answered.wait(timeout: .now() + 0.5) == .timedOut, "the sync answered while the scan ran")
        f.curator.withState { $0.scanFinished(root: root, elapsedMs: 1, watches: 0, stillScanning: false) }
        #expect(answered.wait(timeout: .now() + 10) == .success, "the sync did not answer once the scan ended")
        let (result, counted) = box.withLock { $0 }
        #expect(result?.synced == true)
        let switches = try #require(counted, "/proc/thread-self/status says no voluntary_ctxt_switches")
        // Looking every 2 ms would be about 250 sleeps in the half second.
        #expect(switches < 25, "the sync's thread slept \(switches) times while it waited")
    }

    @Test func aScanThatDoesNotEndInTimeIsNotSynced() throws {
        let (f, _) = try Self.polledAndScanning()
        let started = MonotonicClock.nanoseconds()
        let result = try SyncCommand.run(SyncRequest(root: "pics", timeoutMs: 300), curator: f.curator, caller: Self.me)
        let elapsed = MonotonicClock.nanoseconds() - started
        #expect(result.synced == false)
        #expect(elapsed >= 290_000_000 && elapsed < 10_000_000_000, "\(elapsed) ns")
    }

    @Test func aRingBetweenTheLookAndTheWaitIsNotMissed() {
        let ends = ScanEnds()
        let seen = ends.current
        ends.ring()
        #expect(ends.wait(past: seen, until: .after(seconds: 5)))
        let now = ends.current
        let started = MonotonicClock.nanoseconds()
        #expect(!ends.wait(past: now, until: .after(seconds: 0.1)), "woken with nothing rung")
        #expect(MonotonicClock.nanoseconds() - started >= 90_000_000)
    }
}
