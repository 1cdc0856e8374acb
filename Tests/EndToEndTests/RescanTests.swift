// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing

extension Watch {
    /// `rescan` answers once the watcher has the scan in hand: a client that asks
    /// `status` right after the answer sees the rescan counted (and `scanning` until it
    /// ends), so "rescan, then wait for scanning false" never reads the state from
    /// before it. Before, the answer came when the request was queued, and on a loaded
    /// host a client could see the last scan's "not scanning" and read a stale index.
    @Suite struct Rescan {
        @Test func theAnswerComesOnceTheScanIsScheduled() throws {
            let daemon = Daemon()
            let root = daemon.root()
            for folder in 0..<20 {
                Files.mkdir(root + "/f\(folder)")
                for photo in 0..<50 { Files.write(root + "/f\(folder)/p\(photo).jpg") }
            }
            try daemon.start()
            try daemon.waitForScanToFinish()
            let c = try daemon.client()
            func rescans() throws -> Int {
                let roots = try c.result(["cmd": "status"])["roots"] as? [[String: Any]]
                return roots?.first?["rescans"] as? Int ?? -1
            }
            let before = try rescans()
            for round in 1...5 {
                _ = try c.result(["cmd": "rescan"])
                #expect(try rescans() == before + round, "counted by the time the answer came (round \(round))")
                try daemon.waitForScanToFinish()
            }
            #expect(try c.idsByPath().count == 1000)
        }
    }
}
