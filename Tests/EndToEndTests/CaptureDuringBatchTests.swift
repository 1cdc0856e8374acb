// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// The capture-time reader leaves the cores to a batch moving photos to the trash
/// (issue 14: photos imported and culled at once had their EXIF read on the cores
/// the batch needed), and reads what waits once the batch is over.
@Suite struct CaptureDuringBatchTests {
    @Test func captureTimesWaitWhileABatchRunsAndAreReadAfterIt() throws {
        let daemon = Daemon()
        // Chunks of one photo, each ending with a sync: the batch lasts seconds.
        daemon.extraEnvironment["CURATORD_BATCH_CHUNK"] = "1"
        let count = 2000
        Files.mkdir(daemon.root() + "/cull")
        for i in 0..<count { Files.write(daemon.root() + "/cull/p\(i).jpg", "photo \(i)") }
        try daemon.start()
        let client = try daemon.client()
        try eventually(timeout: 30, "the start-up's capture times") { try client.rootStatus()["capture_pending"] as? Int == 0 }
        let ids = try client.idsByPath(["folder": "cull"]).values.sorted()
        try #require(ids.count == count)
        let plan = try client.prepare(["ids": ids])
        let token = try #require(plan["token"] as? String)

        let confirming = try daemon.client()
        try confirming.sendLine(#"{"id":1,"cmd":"delete.confirm","token":"\#(token)"}"#)
        try eventually(timeout: 20, "the batch to run") { try client.status()["batch_running"] as? Bool == true }
        // Imported while the batch runs: indexed at once, their capture times left for later.
        let imported = 300
        Files.mkdir(daemon.root() + "/import")
        for i in 0..<imported { Files.write(daemon.root() + "/import/i\(i).jpg", "new \(i)") }
        try client.sync()
        usleep(600_000)  // the idle reader looks for work every 100 ms
        let during = try client.status()
        let root = try client.rootStatus()
        try #require(during["batch_running"] as? Bool == true, "the batch ended before the check; make it longer")
        #expect(root["capture_pending"] as? Int == imported, "\(root)")

        let answer = try #require(try confirming.readObject(timeout: 120))
        #expect(answer["ok"] as? Bool == true, "\(answer)")
        try eventually(timeout: 30, "the capture times after the batch") { try client.rootStatus()["capture_pending"] as? Int == 0 }
        #expect(daemon.stop() == 0)
    }
}
