// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// The system web gateway (issue 51): the real `curatord-web --system`, run as the
/// gateway's user, in front of the real daemon run as its service user, spoken to over
/// TCP by Python's http.client, with real users' web passwords.
@Suite(.serialized)
struct WebSystemGatewayTests {
    @Test func aliceSignsInSeesHerPhotosAndNotBobsAndHerSessionOutlivesAGatewayRestart() throws {
        guard WebService.available else { return print("skipped: needs root, useradd, setpriv, socat") }
        let service = try WebService()
        defer { service.stop() }
        let ids = try service.photoIDs()
        var web = try WebGatewayProcess(system: service.d, user: service.gateway.name)
        let alice = service.attack.alice

        // Without the custom header a login is refused before the daemon sees it.
        let forged = try web.request("POST", "/api/v1/login", headers: ["Content-Type": "application/json"],
                                     body: #"{"user":"x","password":"y"}"#)
        #expect(forged.status == 403 && forged.errorCode == "forbidden")

        let (login, cookie) = try web.logIn(alice.name, WebService.passwords["alice"] ?? "")
        #expect(login.status == 200, "\(login.body)")
        let value = try #require(cookie)
        let attributes = Set((login.header("Set-Cookie") ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(attributes.isSuperset(of: ["HttpOnly", "SameSite=Strict", "Path=/"]), "\(attributes)")
        #expect(!login.body.contains(value), "the token is in the body, where a script could read it")
        #expect(login.result["uid"] as? Int == Int(alice.uid))

        let hello = try web.api("hello", cookie: value)
        #expect(hello.result["uid"] as? Int == Int(alice.uid), "\(hello.body)")
        let listed = try web.api("list", #"{"fields":["id","path"]}"#, cookie: value)
        let paths = (listed.result["photos"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(paths == ["alice.jpg"], "\(listed.body)")
        let bobs = try web.api("photo.info", #"{"photo":\#(ids.bob)}"#, cookie: value)
        let never = try web.api("photo.info", #"{"photo":987654}"#, cookie: value)
        #expect(bobs.status == 404 && bobs.errorCode == "no_such_photo", "\(bobs.body)")
        #expect(never.status == bobs.status && never.errorCode == bobs.errorCode)
        #expect(try web.api("photo.info", #"{"photo":\#(ids.alice)}"#, cookie: value).status == 200)
        // Through the gateway, nobody changes a web password or logs another in.
        #expect(try web.api("web.passwd", #"{"password":"taken over"}"#, cookie: value).status == 403)

        // The session is the daemon's: a new gateway on the same port serves it.
        let port = web.port
        web.stop()
        web = try WebGatewayProcess(system: service.d, user: service.gateway.name, port: port)
        let again = try web.api("hello", cookie: value)
        #expect(again.status == 200 && again.result["uid"] as? Int == Int(alice.uid), "\(again.body)")
        #expect(!web.log.contains(value) && !service.d.logText.contains(value), "the token is in a log")
    }

    @Test func aWrongPasswordIsRefusedAndRepeatedFailuresAreThrottled() throws {
        guard WebService.available else { return print("skipped: needs root, useradd, setpriv, socat") }
        let service = try WebService()
        defer { service.stop() }
        let web = try WebGatewayProcess(system: service.d, user: service.gateway.name)
        let bob = service.attack.bob.name
        let wrong = try web.logIn(bob, "not bob's password")
        #expect(wrong.answer.status == 401 && wrong.answer.errorCode == "login_failed" && wrong.cookie == nil, "\(wrong.answer.body)")
        let unknown = try web.logIn("c13nosuchuser", "anything")
        func message(_ a: WebGatewayProcess.Answer) -> String? { (a.json["error"] as? [String: Any])?["message"] as? String }
        #expect(unknown.answer.status == 401 && unknown.answer.errorCode == "login_failed" && message(unknown.answer) == message(wrong.answer),
                "\(unknown.answer.body) \(wrong.answer.body)")
        #expect(try web.api("hello", cookie: String(repeating: "ab", count: 32)).status == 401)
        for i in 0..<2 { _ = try web.logIn(bob, "guess \(i)") }
        let throttled = try web.logIn(bob, WebService.passwords["bob"] ?? "")
        #expect(throttled.answer.status == 429 && throttled.answer.errorCode == "login_throttled" && throttled.cookie == nil,
                "\(throttled.answer.body)")
        // An outsider of the socket's group, with a web password set: refused as a wrong password is.
        let outsider = try web.logIn(service.outsider.name, WebService.passwords["outsider"] ?? "")
        #expect(outsider.answer.status == 401 || outsider.answer.status == 429, "\(outsider.answer.body)")
    }

    @Test func logoutAndIdleExpiryEndTheSession() throws {
        guard WebService.available else { return print("skipped: needs root, useradd, setpriv, socat") }
        let service = try WebService(idleSeconds: 2)
        defer { service.stop() }
        let web = try WebGatewayProcess(system: service.d, user: service.gateway.name)
        let alice = service.attack.alice.name
        let password = WebService.passwords["alice"] ?? ""

        let first = try #require(try web.logIn(alice, password).cookie)
        #expect(try web.api("hello", cookie: first).status == 200)
        let logout = try web.api("logout", cookie: first)
        #expect(logout.status == 200 && logout.result["ended"] as? Bool == true, "\(logout.body)")
        #expect(logout.header("Set-Cookie")?.contains("Max-Age=0") == true)
        let after = try web.api("hello", cookie: first)
        #expect(after.status == 401 && after.errorCode == "not_signed_in", "\(after.body)")

        let second = try #require(try web.logIn(alice, password).cookie)
        #expect(try web.api("hello", cookie: second).status == 200)
        usleep(3_000_000)
        let expired = try web.api("hello", cookie: second)
        #expect(expired.status == 401 && expired.errorCode == "not_signed_in", "\(expired.body)")
    }
}
