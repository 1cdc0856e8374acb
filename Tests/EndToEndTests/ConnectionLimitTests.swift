// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Connections are limited in all (`max_clients`) and per user
/// (`max_clients_per_user`, well below), and idle ones are closed
/// (`idle_timeout_seconds`), so that one user cannot lock the others out
/// (issue 11 point 2).
@Suite(.serialized)
struct ConnectionLimitTests {
    static let bob: UInt32 = 4243
    static let alice: UInt32 = 4244

    /// A daemon over one photo with these settings in its configuration file.
    static func daemon(_ settings: String) throws -> Daemon {
        let d = Daemon()
        Files.write(d.root() + "/a.jpg")
        let config = d.home.sub("curatord.json5")
        Files.write(config, #"{ roots: ["\#(d.root())"], \#(settings) }"#)
        d.configPath = config
        try d.start()
        return d
    }

    /// The error code of the line a refused connection gets, then the end.
    static func refusal(_ client: Client) throws -> String? {
        let line = try client.readObject(timeout: 5)
        #expect(throws: HarnessError.self, "the connection is closed") { _ = try client.readLine(timeout: 5) }
        return (line?["error"] as? [String: Any])?["code"] as? String
    }

    @Test func pastMaxClientsAClientIsRefusedAndTheOthersStayServed() throws {
        guard HeldConnections.available else {
            print("skipped: needs root, setpriv and socat to connect as other uids")
            return
        }
        let d = try Self.daemon("max_clients: 4, max_clients_per_user: 3")
        d.letOtherUsersConnect()
        // bob takes 3, root 1: the daemon is full, though root is below its own cap.
        let bob = HeldConnections(uid: Self.bob)
        try bob.open(3, to: d.socket)
        let mine = try d.client()
        try eventually(timeout: 10, "bob's connections to be admitted") {
            try mine.result(["cmd": "status"])["clients"] as? Int == 4
        }
        #expect(try Self.refusal(try d.client()) == "too_many_clients")
        try eventually(timeout: 5, "the refusal to be logged") { d.logText.contains("refused a client (uid 0") }
        // Those in keep being served; bob leaving makes room.
        #expect(try mine.result(["cmd": "hello"])["server"] as? String == "curatord")
        bob.stop()
        try eventually(timeout: 10, "places to free up") {
            guard let c = try? d.client(), let r = try? c.request(["cmd": "hello"], timeout: 5) else { return false }
            return r["ok"] as? Bool == true
        }
    }

    @Test func oneUserAtTheirCapLeavesRoomForEveryOtherUser() throws {
        guard HeldConnections.available else {
            print("skipped: needs root, setpriv and socat to connect as other uids")
            return
        }
        let d = try Self.daemon("max_clients: 12, max_clients_per_user: 3")
        d.letOtherUsersConnect()
        // bob opens 10 idle connections: 3 are his, 7 are refused as too many for one user.
        let bob = HeldConnections(uid: Self.bob)
        try bob.open(10, to: d.socket)
        try eventually(timeout: 20, "bob's connections to be admitted or refused") {
            bob.refused("too_many_connections") == 7
        }
        #expect(bob.refused("too_many_clients") == 0)
        let probe = try d.client()
        #expect(try probe.result(["cmd": "status"])["clients"] as? Int == 4, "bob's 3 and this one")
        #expect(bob.said.allSatisfy { $0.isEmpty || $0.contains("\"too_many_connections\"") }, "\(bob.said)")

        // alice gets in, and bob does not (a new connection of his is refused at once).
        let alice = try requestAsUser(Self.alice, socket: d.socket, #"{"id":1,"cmd":"hello"}"#)
        #expect(alice.contains(#""ok":true"#) && alice.contains(#""uid":4244"#), "\(alice)")
        try bob.open(1, to: d.socket)
        try eventually(timeout: 10, "bob's next connection to be refused") { bob.refused("too_many_connections") == 8 }
        #expect(bob.said.last?.contains("uid 4243 already has 3 connections") == true, "\(bob.said)")
        // curatorctl says why, whether its request got there before the refusal or not.
        for _ in 0..<5 {
            let ctl = try d.ctl(["status"], asUID: Self.bob)
            #expect(ctl.status == 1 && ctl.stderr.contains("the most one user may have"), "\(ctl)")
        }

        // Root is a user like the others: three connections (the probe is one), not four.
        var mine = [probe]
        for _ in 0..<2 {
            let c = try d.client()
            _ = try c.result(["cmd": "hello"])
            mine.append(c)
        }
        #expect(try Self.refusal(try d.client()) == "too_many_connections")
        // Refusals are logged, but not one line each.
        let lines = d.logText.split(separator: "\n").filter { $0.contains("refused a client (uid 4243") }
        #expect(lines.count == 1, "\(lines)")

        // When bob lets go, he may connect again.
        bob.stop()
        try eventually(timeout: 10, "bob's connections to be closed") {
            (try? requestAsUser(Self.bob, socket: d.socket, #"{"id":1,"cmd":"hello"}"#))?.contains(#""ok":true"#) == true
        }
    }

    @Test func withTheDefaultsOneUserCannotTakeEveryConnection() throws {
        guard HeldConnections.available else {
            print("skipped: needs root, setpriv and socat to connect as other uids")
            return
        }
        let d = try Self.daemon("")
        d.letOtherUsersConnect()
        let check = try Tool.run(Daemon.curatord, ["--check-config", "--config", try #require(d.configPath)], environment: d.environment)
        #expect(check.stdout.contains("max_clients: 64,") && check.stdout.contains("max_clients_per_user: 16,"), "\(check.stdout)")
        #expect(check.stdout.contains("idle_timeout_seconds: 300,"), "\(check.stdout)")
        // The attack of the issue: bob holds 70 connections.
        let bob = HeldConnections(uid: Self.bob)
        try bob.open(70, to: d.socket)
        try eventually(timeout: 30, "bob's connections to be admitted or refused") {
            bob.refused("too_many_connections") == 54
        }
        let alice = try requestAsUser(Self.alice, socket: d.socket, #"{"id":1,"cmd":"status"}"#)
        #expect(alice.contains(#""ok":true"#) && alice.contains(#""clients":17"#), "\(alice)")
    }

    @Test func idleConnectionsAreClosedButNotSubscribersOrThoseOwedAnAnswer() throws {
        let d = try Self.daemon("idle_timeout_seconds: 1")
        for i in 0..<3000 { Files.write(d.root() + "/p\(i).jpg") }
        let setup = try d.client()
        try setup.sync()
        let idle = try d.client()
        let subscriber = try d.client()
        _ = try subscriber.result(["cmd": "subscribe"])
        let owed = try d.client()
        // A listing of 3000 photos it does not read for 3 s: it is owed an answer.
        try owed.sendLine(#"{"id":7,"cmd":"list"}"#)

        // The idle one is told, and closed, about a second later.
        let started = Date()
        #expect(try Self.refusal(idle) == "idle_timeout")
        let waited = Date().timeIntervalSince(started)
        #expect(waited > 0.5 && waited < 5, "closed after \(waited) s")
        // One that keeps asking is never idle.
        let busy = try d.client()
        for _ in 0..<6 {
            _ = try busy.result(["cmd": "hello"])
            usleep(400_000)
        }
        // The subscriber stays, and still gets events and answers.
        Files.write(d.root() + "/late.jpg")
        // Other events (a `sets` recount, thumbnails) may come first: the photo's is awaited.
        var kinds: [String] = []
        while kinds.last != "added", kinds.count < 20, let event = try subscriber.nextEvent(timeout: 10) {
            kinds.append(event["event"] as? String ?? "?")
        }
        #expect(kinds.last == "added", "\(kinds)")
        #expect(try subscriber.result(["cmd": "hello"])["server"] as? String == "curatord")
        // The one owed a listing gets all of it.
        let listing = try #require(try owed.readObject(timeout: 10))
        #expect(listing["id"] as? Int == 7)
        #expect((listing["result"] as? [String: Any])?["total"] as? Int == 3001, "a.jpg and the 3000")
        // Once it has its answer and asks nothing more, it is idle too.
        #expect(try Self.refusal(owed) == "idle_timeout")
    }
}
