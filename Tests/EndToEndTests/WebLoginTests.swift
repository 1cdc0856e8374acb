// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Web passwords, `web.login` and `web.attach` on the daemon's socket (issue 51): real
/// users (useradd), the daemon as its service user, the gateway's user and others
/// connecting as themselves (setpriv + socat).
@Suite(.serialized)
struct WebLoginTests {
    static func error(_ response: [String: Any]) -> (code: String?, message: String?) {
        let error = response["error"] as? [String: Any]
        return (error?["code"] as? String, error?["message"] as? String)
    }

    static func login(_ c: Client, _ user: String, _ password: String, client: String = "192.0.2.9") throws -> [String: Any] {
        try c.request(["cmd": "web.login", "user": user, "password": password, "client": client])
    }

    @Test func thePasswordIsKeptAsAnArgon2idHashInAFileOnlyTheDaemonReads() throws {
        guard WebService.available else { return print("skipped: needs root, useradd, setpriv, socat") }
        let web = try WebService()
        defer { web.stop() }
        let path = web.d.stateDir + "/web-passwords"
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600 && info.st_uid == web.attack.service.uid, "mode \(String(info.st_mode & 0o777, radix: 8))")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\(web.attack.alice.uid) $argon2id$"), "\(text)")
        #expect(!text.contains("alice's web password"))
        #expect(!web.d.logText.contains("alice's web password"))
    }

    @Test func aliceLogsInAndTheAttachedConnectionIsHers() throws {
        guard WebService.available else { return print("skipped: needs root, useradd, setpriv, socat") }
        let web = try WebService()
        defer { web.stop() }
        let ids = try web.photoIDs()
        let gateway = try web.gatewayConnection()
        let login = try gateway.client.result(["cmd": "web.login", "user": web.attack.alice.name,
                                               "password": WebService.passwords["alice"] ?? "", "client": "192.0.2.1"])
        let token = try #require(login["token"] as? String)
        #expect(token.count == 64 && token.allSatisfy(\.isHexDigit))
        #expect(login["uid"] as? Int == Int(web.attack.alice.uid))
        #expect(!web.d.logText.contains(token), "the token is in the log")

        let session = try web.gatewayConnection()
        let attached = try session.client.result(["cmd": "web.attach", "token": token])
        #expect(attached["uid"] as? Int == Int(web.attack.alice.uid))
        let hello = try session.client.result(["cmd": "hello"])
        #expect(hello["uid"] as? Int == Int(web.attack.alice.uid), "after web.attach the connection is alice's")
        let listed = try session.client.result(["cmd": "list", "fields": ["id", "path"]])
        let paths = (listed["photos"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(paths == ["alice.jpg"], "alice sees her photo and not bob's private one: \(paths)")
        // bob's private photo by its id answers as a never-given id does.
        let bobs = try session.client.request(["cmd": "photo.info", "photo": ids.bob])
        let never = try session.client.request(["cmd": "photo.info", "photo": 987_654])
        #expect(Self.error(bobs).code == "no_such_photo" && Self.error(never).code == "no_such_photo", "\(bobs)")
        #expect(try session.client.result(["cmd": "photo.info", "photo": ids.alice])["photo"] != nil)
        // An attached connection cannot be attached again, nor log anyone in.
        #expect(try session.client.errorCode(["cmd": "web.attach", "token": token]) == "permission_denied")
        #expect(try Self.error(Self.login(session.client, web.attack.bob.name, WebService.passwords["bob"] ?? "")).code == "permission_denied")
    }

    @Test func onlyTheGatewaysUserMayLogInOrAttach() throws {
        guard WebService.available else { return print("skipped: needs root, useradd, setpriv, socat") }
        let web = try WebService()
        defer { web.stop() }
        let gateway = try web.gatewayConnection()
        let token = try #require(try gateway.client.result(["cmd": "web.login", "user": web.attack.bob.name,
                                                            "password": WebService.passwords["bob"] ?? ""])["token"] as? String)
        // alice, on her own connection, with bob's token or his password: refused, and told why.
        let alice = try web.d.client(asUser: web.attack.alice.name)
        let attach = try alice.client.request(["cmd": "web.attach", "token": token])
        #expect(Self.error(attach).code == "permission_denied", "\(attach)")
        #expect(Self.error(attach).message?.contains("web_gateway_user") == true, "\(attach)")
        #expect(try alice.client.result(["cmd": "hello"])["uid"] as? Int == Int(web.attack.alice.uid))
        let login = try Self.login(alice.client, web.attack.bob.name, WebService.passwords["bob"] ?? "")
        #expect(Self.error(login).code == "permission_denied", "\(login)")
        #expect(try alice.client.errorCode(["cmd": "web.logout", "token": token]) == "permission_denied")
        // The token still works for the gateway: alice's attempts ended nothing.
        let session = try web.gatewayConnection()
        #expect(try session.client.result(["cmd": "web.attach", "token": token])["uid"] as? Int == Int(web.attack.bob.uid))
    }

    @Test func aWrongPasswordAndAnUnknownUserGetTheSameAnswerAndThenAreThrottled() throws {
        guard WebService.available else { return print("skipped: needs root, useradd, setpriv, socat") }
        let web = try WebService()
        defer { web.stop() }
        let gateway = try web.gatewayConnection()
        let bob = web.attack.bob.name
        // Two of each, interleaved, each timing the better of its two: one sample
        // slowed by a neighbour on a shared host is not a difference of the daemon's.
        var wrongSeconds = Double.infinity, unknownSeconds = Double.infinity
        var wrong: [String: Any] = [:], unknown: [String: Any] = [:]
        for i in 0..<2 {
            var started = Date()
            wrong = try Self.login(gateway.client, bob, "not bob's password", client: "192.0.2.1\(i)")
            wrongSeconds = min(wrongSeconds, Date().timeIntervalSince(started))
            started = Date()
            unknown = try Self.login(gateway.client, "c13nosuchuser\(i)", "anything", client: "192.0.2.1\(i + 5)")
            unknownSeconds = min(unknownSeconds, Date().timeIntervalSince(started))
        }
        #expect(Self.error(wrong).code == "login_failed" && Self.error(wrong).message == Self.error(unknown).message, "\(wrong) \(unknown)")
        #expect(Self.error(unknown).code == "login_failed")
        // Both did an Argon2id check: neither answers at once.
        let ratio = max(wrongSeconds, unknownSeconds) / max(min(wrongSeconds, unknownSeconds), 1e-6)
        #expect(ratio < 3 && min(wrongSeconds, unknownSeconds) > 0.01, "wrong \(wrongSeconds) s, unknown \(unknownSeconds) s")
        // bob's name: three more failures (from other addresses), then even his own
        // password is refused until the wait is over.
        for i in 0..<3 { _ = try Self.login(gateway.client, bob, "guess \(i)", client: "192.0.2.\(20 + i)") }
        let throttled = try Self.login(gateway.client, bob, WebService.passwords["bob"] ?? "", client: "192.0.2.30")
        #expect(Self.error(throttled).code == "login_throttled", "\(throttled)")
        // One address: failures for made-up names throttle it for alice too.
        for i in 0..<4 { _ = try Self.login(gateway.client, "c13nobody\(i)", "guess", client: "198.51.100.7") }
        let fromThere = try Self.login(gateway.client, web.attack.alice.name, WebService.passwords["alice"] ?? "", client: "198.51.100.7")
        #expect(Self.error(fromThere).code == "login_throttled", "\(fromThere)")
        let fromElsewhere = try Self.login(gateway.client, web.attack.alice.name, WebService.passwords["alice"] ?? "", client: "198.51.100.8")
        #expect(fromElsewhere["ok"] as? Bool == true, "\(fromElsewhere)")
    }

    @Test func aUserOutsideTheSocketsGroupCannotLogIn() throws {
        guard WebService.available else { return print("skipped: needs root, useradd, setpriv, socat") }
        let web = try WebService()
        defer { web.stop() }
        let gateway = try web.gatewayConnection()
        let answer = try Self.login(gateway.client, web.outsider.name, WebService.passwords["outsider"] ?? "")
        #expect(Self.error(answer).code == "login_failed", "\(answer)")
    }

    @Test func logoutAndExpiryEndTheSessionAndItsConnections() throws {
        guard WebService.available else { return print("skipped: needs root, useradd, setpriv, socat") }
        let web = try WebService(idleSeconds: 2)
        defer { web.stop() }
        let gateway = try web.gatewayConnection()
        func login() throws -> String {
            let result = try gateway.client.result(["cmd": "web.login", "user": web.attack.alice.name,
                                                    "password": WebService.passwords["alice"] ?? ""])
            return result["token"] as? String ?? ""
        }
        let token = try login()
        let session = try web.gatewayConnection()
        _ = try session.client.result(["cmd": "web.attach", "token": token])
        #expect(try gateway.client.result(["cmd": "web.logout", "token": token])["ended"] as? Bool == true)
        #expect(try session.client.errorCode(["cmd": "status"]) == "not_signed_in")
        let again = try web.gatewayConnection()
        #expect(try again.client.errorCode(["cmd": "web.attach", "token": token]) == "not_signed_in")

        // Idle: requests keep it alive; 2 s without one end it.
        let idle = try login()
        let kept = try web.gatewayConnection()
        _ = try kept.client.result(["cmd": "web.attach", "token": idle])
        for _ in 0..<3 {
            usleep(1_000_000)
            #expect(try kept.client.result(["cmd": "hello"])["uid"] as? Int == Int(web.attack.alice.uid))
        }
        usleep(2_500_000)
        #expect(try kept.client.errorCode(["cmd": "hello"]) == "not_signed_in")
    }

    /// An attached connection is the user's in the daemon's counts too: alice, holding
    /// as many connections as one user may, gets no more through the gateway, and the
    /// gateway's own count is not charged for hers.
    @Test func anAttachedConnectionCountsAgainstItsUsersConnectionLimit() throws {
        guard WebService.available else { return print("skipped: needs root, useradd, setpriv, socat") }
        let web = try WebService(extra: "max_clients_per_user: 2")
        defer { web.stop() }
        let gateway = try web.gatewayConnection()
        let token = try #require(try gateway.client.result(["cmd": "web.login", "user": web.attack.alice.name,
                                                            "password": WebService.passwords["alice"] ?? ""])["token"] as? String)
        let first = try web.gatewayConnection()
        _ = try first.client.result(["cmd": "web.attach", "token": token])
        // The gateway holds 2 connections, one of them now alice's: it may open another.
        let second = try web.gatewayConnection()
        _ = try second.client.result(["cmd": "web.attach", "token": token])
        let third = try web.gatewayConnection()
        let refused = try third.client.request(["cmd": "web.attach", "token": token])
        #expect(Self.error(refused).code == "too_many_connections", "\(refused)")
        // Still the gateway's, and still usable as such.
        #expect(try third.client.result(["cmd": "hello"])["uid"] as? Int == Int(web.gateway.uid))
    }

    /// A subscriber sends no request to be refused: its connection is ended when its
    /// session is (a logged-out page must not go on receiving the user's events).
    @Test func aLogoutEndsAnAttachedSubscriber() throws {
        guard WebService.available else { return print("skipped: needs root, useradd, setpriv, socat") }
        let web = try WebService()
        defer { web.stop() }
        let gateway = try web.gatewayConnection()
        let token = try #require(try gateway.client.result(["cmd": "web.login", "user": web.attack.alice.name,
                                                            "password": WebService.passwords["alice"] ?? ""])["token"] as? String)
        let stream = try web.gatewayConnection()
        _ = try stream.client.result(["cmd": "web.attach", "token": token])
        _ = try stream.client.result(["cmd": "subscribe"])
        #expect(try gateway.client.result(["cmd": "web.logout", "token": token])["ended"] as? Bool == true)
        let started = Date()
        var said: [String: Any]?
        while Date().timeIntervalSince(started) < 15, said == nil {
            guard let line = (try? stream.client.readObject(timeout: 15 - Date().timeIntervalSince(started))) ?? nil else { break }
            if line["event"] == nil { said = line }
        }
        #expect(Self.error(said ?? [:]).code == "not_signed_in", "\(String(describing: said))")
        // Closed after it: reading meets the end of the stream (an error), not a timeout (nil).
        #expect(throws: (any Error).self) { try stream.client.readObject(timeout: 5) }
    }

    /// `curatorctl web passwd` on a terminal (script(1) gives it one): asked twice, and
    /// what is typed is not echoed.
    @Test func webPasswdAsksTwiceOnTheTerminalWithoutEcho() throws {
        guard Tool.exists("/usr/bin/script") else { return print("skipped: needs script(1)") }
        let d = Daemon()
        try d.start()
        defer { d.stop() }
        func typed(_ first: String, _ second: String) throws -> String {
            let input = "(sleep 1; printf '\(first)\\n'; sleep 1; printf '\(second)\\n'; sleep 1)"
            let out = try Command.run("/bin/sh", ["-c", "\(input) | script -qec '\(Daemon.curatorctl) --socket \(d.socket) web passwd' /dev/null"],
                                      timeout: 30)
            return out.stdout
        }
        let differ = try typed("first-pw", "second-pw")
        #expect(differ.contains("differ") && !Files.exists(d.stateDir + "/web-passwords"), "\(differ)")
        let shown = try typed("secret-pw", "secret-pw")
        #expect(shown.contains("New web password:") && shown.contains("Again:") && shown.contains("Web password set"), "\(shown)")
        #expect(!shown.contains("secret-pw"), "the password was echoed: \(shown)")
        #expect((Files.read(d.stateDir + "/web-passwords") ?? "").contains(" $argon2id$"))
    }
}
