// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Random kills (issue 4 point 5): a batch of a few hundred photos, `kill -9` at
/// a random moment of the batch or of its undo, or at a random failpoint count; a
/// restart, the invariants on disk, and an undo that brings every photo back with
/// identical content and its former id. The same daemon and photos go round and
/// round, so each crash starts from the state the previous undo left.
///
/// `CURATORD_CRASH_SOAK=N` runs N crashes instead of the default few
/// (`make crash-soak`); `CURATORD_CRASH_SEED` replays a run.
@Suite(.serialized)
struct CrashRandomTests {
    static let photoCount = 240
    static var crashes: Int {
        Int(ProcessInfo.processInfo.environment["CURATORD_CRASH_SOAK"] ?? "").map { max($0, 1) } ?? 9
    }

    enum Moment: CaseIterable {
        /// SIGKILL a random time after the confirm was sent.
        case batchAfterDelay
        /// `CURATORD_FAILPOINT` at a random step and count of the batch.
        case batchAtFailpoint
        /// SIGKILL a random time after an undo was sent.
        case undoAfterDelay
    }

    static let batchSteps = ["batch.journaled", "chunk.intent", "item.info_created", "item.info_unnamed", "item.info_written", "item.renamed",
                             "chunk.synced", "chunk.journaled", "batch.finished"]
    /// Chunks of 32 photos (`CURATORD_BATCH_CHUNK`): a batch is eight chunks, so kills
    /// land before, inside and after chunk syncs and commits.
    static let chunk = 32
    static let environment = ["CURATORD_BATCH_CHUNK": "\(chunk)"]

    @Test func killsAtRandomMomentsLoseNothing() throws {
        let d = Daemon()
        let photos = try PhotoSet.make(in: d.root(), count: Self.photoCount,
                                       folders: ["2023/spring", "2023/summer", "2024/05 beach", "2024/06"])
        d.extraEnvironment = Self.environment
        try d.start()
        try d.explainingFailures {
            let ids = try d.client().idsByPath()
            #expect(ids.count == Self.photoCount)

            // A whole batch and its undo, timed: the range random kills are drawn from.
            let c = try d.client()
            try Self.selectAll(c)
            var started = Date()
            #expect(try c.deleteSelection()["trashed"] as? Int == Self.photoCount)
            let batchSeconds = -started.timeIntervalSinceNow
            started = Date()
            #expect(try c.undo()["restored"] as? Int == Self.photoCount)
            let undoSeconds = -started.timeIntervalSinceNow
            try CrashCheck.undoEverything(d, photos, ids: ids, "a batch without a crash")

            let seed = UInt64(ProcessInfo.processInfo.environment["CURATORD_CRASH_SEED"] ?? "") ?? UInt64.random(in: 1...UInt64.max)
            var random = SplitMix64(seed: seed)
            print("crash test: \(Self.crashes) crashes, seed \(seed) (CURATORD_CRASH_SEED replays it); "
                  + "a batch of \(Self.photoCount) takes \(Int(batchSeconds * 1000)) ms, its undo \(Int(undoSeconds * 1000)) ms")
            var lastBatch = try c.history().first?["batch"] as? Int ?? 0
            /// How the crashes fell: batch state after recovery → count ("none": before the batch began).
            var tally: [String: Int] = [:]
            for i in 0..<Self.crashes {
                let moment = Moment.allCases[i % Moment.allCases.count]
                let what: String
                switch moment {
                case .batchAfterDelay:
                    let delay = random.fraction() * batchSeconds * 1.2
                    what = "kill \(Int(delay * 1000)) ms into a batch"
                    let c = try d.client()
                    try Self.selectAll(c)
                    let plan = try c.prepare()
                    try c.sendLine(#"{"id":1,"cmd":"delete.confirm","token":"\#(plan["token"] as? String ?? "")"}"#)
                    // The randomness is the point: not a wait for something.
                    usleep(UInt32(delay * 1e6))
                    d.kill9()
                case .batchAtFailpoint:
                    let step = Self.batchSteps[Int(random.next() % UInt64(Self.batchSteps.count))]
                    let count = step.hasPrefix("item.") ? 1 + Int(random.next() % UInt64(Self.photoCount))
                        : step.hasPrefix("chunk.") ? 1 + Int(random.next() % UInt64(Self.photoCount / Self.chunk)) : 1
                    what = "failpoint \(step):\(count)"
                    d.stop()
                    d.extraEnvironment = Self.environment.merging(["CURATORD_FAILPOINT": "\(step):\(count)"]) { $1 }
                    try d.start()
                    let c = try d.client()
                    try Self.selectAll(c)
                    let plan = try c.prepare()
                    #expect(throws: (any Error).self, "\(what)") { try c.confirm(plan) }
                    #expect(try d.waitForExit() == SIGKILL, "\(what)")
                case .undoAfterDelay:
                    let delay = random.fraction() * undoSeconds * 1.2
                    what = "kill \(Int(delay * 1000)) ms into an undo"
                    let c = try d.client()
                    try Self.selectAll(c)
                    #expect(try c.deleteSelection()["trashed"] as? Int == Self.photoCount)
                    try c.sendLine(#"{"id":1,"cmd":"undo"}"#)
                    usleep(UInt32(delay * 1e6))
                    d.kill9()
                }
                let context = "crash \(i + 1) of \(Self.crashes), seed \(seed): \(what)"
                CrashCheck.wholeTrashInfos(d, "\(context), before the restart")
                d.extraEnvironment = Self.environment
                try d.start()
                let census = try CrashCheck.invariants(d, photos, context)
                let again = try d.client()
                if let newest = try again.history().first, let id = newest["batch"] as? Int, id > lastBatch {
                    lastBatch = id
                    let state = newest["state"] as? String ?? ""
                    tally[state, default: 0] += 1
                    let allowed = moment == .undoAfterDelay ? ["done", "partly_undone", "undone"] : ["interrupted", "done"]
                    #expect(allowed.contains(state), "\(context): batch \(id) is \(state)")
                    let trashed = newest["trashed"] as? Int ?? -1
                    let restored = newest["restored"] as? Int ?? -1
                    #expect(census.inTrash.count == trashed - restored, "\(context): history \(newest)")
                    if state == "done" && moment != .undoAfterDelay {
                        #expect(census.inTrash.count == Self.photoCount, "\(context): a done batch trashed everything")
                    }
                } else {
                    tally["none", default: 0] += 1
                    #expect(census.inTrash.isEmpty, "\(context): killed before the batch began, yet photos are in the trash")
                }
                try CrashCheck.undoEverything(d, photos, ids: ids, context)
            }
            print("crash test: batches after recovery: \(tally.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
            #expect(tally["interrupted", default: 0] + tally["partly_undone", default: 0] > 0,
                    "no crash landed in the middle of a batch or an undo: \(tally)")
        }
    }

    /// A fresh selection of the whole view.
    static func selectAll(_ c: Client) throws {
        _ = try c.result(["cmd": "mode", "mode": "view"])
        _ = try c.result(["cmd": "mode", "mode": "select"])
        let selected = try c.result(["cmd": "select", "all": true])
        guard selected["count"] as? Int == photoCount else { throw HarnessError("selected \(selected), not \(photoCount)") }
    }
}
