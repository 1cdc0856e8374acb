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
