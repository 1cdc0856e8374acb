// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Foundation
import Glibc
import Testing

/// SIGTERM (what `systemctl stop` sends): stop accepting, finish the step in
/// progress, close the index, exit 0 well within TimeoutStopSec=; the next
/// start finds everything as it was.
@Suite(.serialized)
struct SystemdShutdownTests {
    static func walLength(_ daemon: Daemon) -> Int {
        var st = stat()
        return stat(daemon.stateDir + "/index.sqlite-wal", &st) == 0 ? Int(st.st_size) : 0
    }

    @Test func sigtermExitsZeroWithTheIndexClosedAndTheNextStartFindsItAll() throws {
        let daemon = Daemon()
        for i in 0..<20 { Files.write(daemon.root() + "/p\(i).jpg") }
        try daemon.start()
        let ids = try daemon.client().idsByPath()
        #expect(ids.count == 20)

        let started = Date()
        #expect(daemon.stop(timeout: 25) == 0)
        #expect(daemon.exitedNormally)
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(daemon.logText.contains("stopped cleanly"))
        // The WAL was checkpointed into the index: nothing is left for the next start to replay.
        #expect(Self.walLength(daemon) == 0, "\(daemon.logText)")

        try daemon.start()
        #expect(try daemon.client().idsByPath() == ids)
        #expect(daemon.stop() == 0)
    }

    @Test func sigtermDuringTheFirstScanStopsPromptlyAndTheNextStartCompletes() throws {
        let daemon = Daemon()
        for d in 0..<150 {
            let dir = daemon.home.mkdir("pics/d\(d)")
            for f in 0..<20 { Files.write(dir + "/p\(f).jpg") }
        }
        try daemon.start(waitForScan: false)
        let started = Date()
        #expect(daemon.stop(timeout: 25) == 0)
        #expect(daemon.exitedNormally)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(!daemon.logText.contains("did not finish its step"))

        try daemon.start()
        #expect(try daemon.client().result(["cmd": "status"])["photos"] as? Int == 3000)
        #expect(daemon.stop() == 0)
    }

    @Test func sigtermDuringABatchExitsZeroAndTheNextStartRecoversIt() throws {
        let daemon = Daemon()
        // Small chunks (each ends with a sync) and many photos, so that the stop
        // lands mid-batch: the journal's group commit makes a batch of 400 too quick.
        daemon.extraEnvironment["CURATORD_BATCH_CHUNK"] = "4"
        let count = 2000
        for i in 0..<count { Files.write(daemon.root() + "/p\(i).jpg", "photo \(i)") }
        try daemon.start()
        let client = try daemon.client()
        _ = try client.result(["cmd": "mode", "session": "cull", "mode": "select"])
        _ = try client.result(["cmd": "select", "session": "cull", "all": true])
        let plan = try client.result(["cmd": "delete.prepare", "session": "cull"])
        let token = try #require(plan["token"] as? String)
        #expect(plan["count"] as? Int == count)

        // Confirm on a connection of its own and, once some photos are in the trash, stop.
        let confirming = try daemon.client()
        try confirming.sendLine(#"{"id":1,"cmd":"delete.confirm","session":"cull","token":"\#(token)"}"#)
        let trashFiles = daemon.dataHome + "/Trash/files"
        try eventually(timeout: 20, "the batch to start trashing") {
            ((try? FileManager.default.contentsOfDirectory(atPath: trashFiles))?.count ?? 0) >= 5
        }
        let started = Date()
        #expect(daemon.stop(timeout: 25) == 0)
        #expect(daemon.exitedNormally)
        #expect(Date().timeIntervalSince(started) < 10)
        // It stopped between two photos, not in the middle of one.
        #expect(!daemon.logText.contains("did not reach the end of a step"))
        let trashedAtStop = (try? FileManager.default.contentsOfDirectory(atPath: trashFiles))?.count ?? 0
        #expect(trashedAtStop < count, "the batch finished before the stop: the test proves nothing")
        // The confirming client got its answer (it used to get none: the batch's thread
        // parked until the process ended), saying how far the batch went; then the end.
        let answer = try #require(try confirming.readObject(timeout: 5), "the confirm was never answered")
        #expect(answer["id"] as? Int == 1)
        let error = answer["error"] as? [String: Any] ?? [:]
        #expect(error["code"] as? String == "shutting_down", "\(answer)")
        let message = error["message"] as? String ?? ""
        #expect(message.contains("batch 1 stopped after") && message.contains("of its \(count) photos"), "\(message)")
        let notice = try confirming.readObject(timeout: 5)
        #expect((notice?["error"] as? [String: Any])?["code"] as? String == "shutting_down" && notice?["id"] == nil, "\(String(describing: notice))")
        #expect(throws: HarnessError.self) { _ = try confirming.readLine(timeout: 5) }

        // The next start recovers it: every photo is either in place or in the trash with its .trashinfo.
        try daemon.start()
        #expect(daemon.logText.contains("recovered batch"), "\(daemon.logText)")
        let inTrash = Set((try? FileManager.default.contentsOfDirectory(atPath: trashFiles)) ?? [])
        let infos = Set(((try? FileManager.default.contentsOfDirectory(atPath: daemon.dataHome + "/Trash/info")) ?? [])
            .map { String($0.dropLast(".trashinfo".count)) })
        #expect(infos == inTrash)
        for i in 0..<count {
            let name = "p\(i).jpg"
            let inPlace = Files.exists(daemon.root() + "/" + name)
            #expect(inPlace != inTrash.contains(name), "\(name): in place \(inPlace), in the trash \(inTrash.contains(name))")
        }
        #expect(try daemon.client().result(["cmd": "status"])["photos"] as? Int == count - inTrash.count)
        #expect(daemon.stop() == 0)
    }

    @Test func stoppingLeavesAnInheritedSocketListeningForTheNextStart() throws {
        // As under a .socket unit: the socket outlives the service. A stop must not
        // shut it down, or every later client would be refused instead of queued.
        let daemon = Daemon()
        Files.write(daemon.root() + "/a.jpg")
        let socket = try InheritedSocket(path: daemon.socket)
        let first = try socket.spawn(daemon)
        try eventually(timeout: 15, "the first daemon to answer") {
            (try? daemon.client().request(["cmd": "hello"])) != nil
        }
        kill(first, SIGTERM)
        #expect(InheritedSocket.wait(first, timeout: 25) == 0)

        // Nobody serves it now, yet a client can connect and send: the kernel queues it.
        let waiting = try Client(daemon.socket)
        try waiting.sendLine(#"{"id":7,"cmd":"hello"}"#)

        // The next start (systemd would do it on that connection) answers the queued client.
        let second = try socket.spawn(daemon)
        let answer = try #require(try waiting.readObject(timeout: 15))
        #expect(answer["id"] as? Int == 7)
        #expect(answer["ok"] as? Bool == true)
        kill(second, SIGTERM)
        #expect(InheritedSocket.wait(second, timeout: 25) == 0)
        // The socket file is the .socket unit's: the daemon leaves it in place.
        #expect(Files.exists(daemon.socket))
    }
}
