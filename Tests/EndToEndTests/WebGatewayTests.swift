// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// The personal web gateway (issue 51): the real `curatord-web` in front of the real
/// daemon, spoken to over TCP on loopback by Python's http.client.
@Suite(.serialized)
struct WebGatewayTests {
    static func daemon(photos: Int = 3) throws -> Daemon {
        let d = Daemon()
        for i in 1...photos { Files.write(d.root() + String(format: "/IMG_%04d.JPG", i), "photo \(i)") }
        try d.start()
        return d
    }

    static let securityHeaders = ["Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "Cache-Control"]

    @Test func theSecretAddressSignsInOnceAndLeavesTheAddressBar() throws {
        let d = try Self.daemon()
        let web = try WebGatewayProcess(d)
        // A wrong secret gets nothing, and spends nothing.
        var wrong = Array(web.token)
        wrong[0] = wrong[0] == "a" ? "b" : "a"
        #expect(try web.request("GET", "/login?token=" + String(wrong)).status == 403)
        #expect(try web.request("GET", "/login").status == 403)

        let login = try web.request("GET", "/login?token=" + web.token)
        #expect(login.status == 303)
        #expect(login.header("Location") == "/")
        let cookie = try #require(login.header("Set-Cookie"))
        let attributes = Set(cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(attributes.isSuperset(of: ["HttpOnly", "SameSite=Strict", "Path=/"]), "\(cookie)")
        let value = try #require(cookie.split(separator: ";").first?.split(separator: "=").last.map(String.init))
        #expect(value.count == 64 && value != web.token)

        let page = try web.request("GET", "/", headers: ["Cookie": "curator_session=" + value])
        #expect(page.status == 200)
        #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)

        // Spent: the same address again (history, another browser) signs no one in.
        let again = try web.request("GET", "/login?token=" + web.token)
        #expect(again.status == 403)
        #expect(again.header("Set-Cookie") == nil)
        #expect(!web.log.contains(web.token) && !web.log.contains(value), "a secret in the log: \(web.log)")
    }

    @Test func withoutTheCookieOnlyTheLoginPageAnswers() throws {
        let d = try Self.daemon()
        let web = try WebGatewayProcess(d)
        let page = try web.request("GET", "/")
        #expect(page.status == 401)
        #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
        let api = try web.request("POST", "/api/v1/status", headers: ["X-Curator": "1"], body: "{}")
        #expect(api.status == 401)
        #expect(api.errorCode == "unauthorized")
        #expect(!api.body.contains("\"result\""))
        // (A stream never ends: a short timeout makes an open one a failure, not a wait.)
        #expect(try web.request("GET", "/api/v1/events", extra: ["timeout": 5]).status == 401)
        let forged = try web.api("status", cookie: String(repeating: "0", count: 64))
        #expect(forged.status == 401)
        // The secret itself is no session.
        #expect(try web.api("status", cookie: web.token).status == 401)
    }

    @Test func aChangeNeedsTheHeaderAndTheGatewaysOwnOriginAndHost() throws {
        let d = try Self.daemon()
        let web = try WebGatewayProcess(d)
        let cookie = try web.signIn()
        let noHeader = try web.request("POST", "/api/v1/status", headers: ["Cookie": "curator_session=" + cookie], body: "{}")
        #expect(noHeader.status == 403)
        #expect(noHeader.errorCode == "forbidden")
        #expect(try web.api("status", cookie: cookie, headers: ["X-Curator": "0"]).status == 403)
        #expect(try web.api("status", cookie: cookie, headers: ["Origin": "http://evil.example"]).status == 403)
        #expect(try web.api("status", cookie: cookie, headers: ["Origin": "http://127.0.0.1:\(web.port + 1)"]).status == 403)
        // DNS rebinding: a page of another name that resolves to 127.0.0.1.
        let rebound = try web.api("status", cookie: cookie, headers: ["Host": "evil.example:\(web.port)",
                                                                       "Origin": "http://evil.example:\(web.port)"])
        #expect(rebound.status == 403)
        #expect(try web.request("GET", "/", headers: ["Cookie": "curator_session=" + cookie, "Host": "evil.example"]).status == 403)

        let fromPage = try web.api("status", cookie: cookie)
        #expect(fromPage.status == 200)
        #expect(fromPage.json["ok"] as? Bool == true)
        #expect(fromPage.result["photos"] as? Int == 3)
        let viaLocalhost = try web.api("hello", cookie: cookie, headers: ["Host": "localhost:\(web.port)",
                                                                          "Origin": "http://localhost:\(web.port)"])
        #expect(viaLocalhost.status == 200)
        // A program (no Origin) with the header is served.
        let program = try web.request("POST", "/api/v1/hello", headers: ["Cookie": "curator_session=" + cookie, "X-Curator": "1"],
                                  body: "{}")
        #expect(program.status == 200)
        #expect(program.result["uid"] as? Int == Int(getuid()))
    }

    @Test func everyAnswerCarriesTheSecurityHeaders() throws {
        let d = try Self.daemon()
        let web = try WebGatewayProcess(d)
        let cookie = try web.signIn()
        let answers = [
            try web.request("GET", "/"),
            try web.request("GET", "/login?token=" + String(repeating: "1", count: 64)),
            try web.api("status", cookie: cookie),
            try web.api("status", cookie: cookie, headers: ["X-Curator": "0"]),
            try web.api("nosuch", cookie: cookie),
            try web.request("GET", "/", headers: ["Cookie": "curator_session=" + cookie]),
        ]
        for answer in answers {
            for name in Self.securityHeaders { #expect(answer.header(name) != nil, "\(answer.status) lacks \(name)") }
            #expect(answer.header("Content-Security-Policy")?.contains("default-src 'self'") == true)
            #expect(answer.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
            #expect(answer.header("X-Content-Type-Options") == "nosniff")
            #expect(answer.header("Referrer-Policy") == "no-referrer")
            #expect(answer.header("Cache-Control") == "no-store")
        }
    }

    @Test func aSelectionMadeThroughTheGatewayIsTheOneCuratorctlShows() throws {
        let d = try Self.daemon()
        let web = try WebGatewayProcess(d)
        let cookie = try web.signIn()
        #expect(try web.api("mode", #"{"mode":"select"}"#, cookie: cookie).status == 200)
        let selected = try web.api("select", #"{"positions": "1 3"}"#, cookie: cookie)
        #expect(selected.status == 200)
        #expect(selected.result["count"] as? Int == 2)
        let ctl = try Command.run(Daemon.curatorctl, ["--socket", d.socket, "--json", "selection"], environment: d.environment)
        #expect(ctl.status == 0, "\(ctl.stderr)")
        let shown = try JSONSerialization.jsonObject(with: Data(ctl.stdout.utf8)) as? [String: Any]
        let items = (shown?["result"] as? [String: Any])?["items"] as? [[String: Any]] ?? []
        #expect(items.compactMap { $0["path"] as? String } == ["IMG_0001.JPG", "IMG_0003.JPG"])
    }

    @Test func anErrorComesWithItsStatusAndTheProtocolsErrorObject() throws {
        let d = try Self.daemon()
        let web = try WebGatewayProcess(d)
        let cookie = try web.signIn()
        let viewMode = try web.api("select", #"{"positions":"1"}"#, cookie: cookie)
        #expect(viewMode.status == 409)
        #expect(viewMode.errorCode == "not_in_select_mode")
        #expect(viewMode.json["ok"] as? Bool == false)
        let noRoot = try web.api("list", #"{"root":"nope"}"#, cookie: cookie)
        #expect(noRoot.status == 404)
        #expect(noRoot.errorCode == "no_such_root")
        let badArgument = try web.api("list", #"{"limit":-1}"#, cookie: cookie)
        #expect(badArgument.status == 400)
        #expect(badArgument.errorCode == "invalid_argument")
        let unknown = try web.api("nosuch", cookie: cookie)
        #expect(unknown.status == 404)
        #expect(unknown.errorCode == "unknown_command")
        // The command is the path's; a body cannot name another.
        let smuggled = try web.api("status", #"{"cmd":"reload"}"#, cookie: cookie)
        #expect(smuggled.status == 400)
        #expect(try web.api("status", "[1]", cookie: cookie).status == 400)
        #expect(try web.api("subscribe", cookie: cookie).status == 404)
        let get = try web.request("GET", "/api/v1/status", headers: ["Cookie": "curator_session=" + cookie])
        #expect(get.status == 405)
        #expect(get.header("Allow") == "POST")
    }

    @Test func aBodyOverTheLimitIsRefusedWith413() throws {
        let d = try Self.daemon()
        let web = try WebGatewayProcess(d)
        let cookie = try web.signIn()
        let headers = ["Cookie": "curator_session=" + cookie, "X-Curator": "1"]
        // Refused from the head alone, before a byte of the body is read.
        let declared = try web.request("POST", "/api/v1/status", headers: headers, extra: ["declared_length": (1 << 20) + 1])
        #expect(declared.status == 413, "\(declared)")
        #expect(declared.errorCode == "request_too_large")
        // Chunked: no length ahead; refused once past the limit.
        let chunked = try web.request("POST", "/api/v1/status", headers: headers, extra: ["chunks": [600_000, 600_000]])
        #expect(chunked.status == 413, "\(chunked)")
        #expect(chunked.errorCode == "request_too_large")
        // Under the limit, whitespace and all, it is a request like any other.
        let padded = try web.request("POST", "/api/v1/status", headers: headers, extra: ["body_size": 64 << 10])
        #expect(padded.status == 200)
        #expect(try web.api("hello", cookie: cookie).status == 200)
    }

    @Test func aFileCreatedInTheRootArrivesAsAnAddedEvent() throws {
        let d = try Self.daemon()
        let web = try WebGatewayProcess(d)
        let cookie = try web.signIn()
        let raw = try WebGatewayProcess.client("events", ["port": web.port, "cookie": cookie, "create": d.root() + "/NEW_0001.JPG",
                                                          "expect": "NEW_0001.JPG", "timeout": 20])
        let answer = WebGatewayProcess.answer(raw)
        #expect(answer.status == 200, "\(raw)")
        #expect(answer.header("Content-Type") == "text/event-stream")
        #expect(answer.header("Cache-Control") == "no-store")
        let event = raw["event"] as? [String: Any]
        #expect(event?["root"] as? String == "pics", "\(raw)")
        #expect((event?["photo"] as? [String: Any])?["id"] as? Int != nil)
    }

    @Test func aStreamNobodyReadsHoldsUpNoOtherStreamOrRequest() throws {
        let d = try Self.daemon()
        let web = try WebGatewayProcess(d)
        let cookie = try web.signIn()
        let ready = d.home.sub("stalled")
        let stalled = Process()
        stalled.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let spec = String(decoding: try JSONSerialization.data(withJSONObject: ["port": web.port, "cookie": cookie, "ready": ready]),
                          as: UTF8.self)
        stalled.arguments = [WebGatewayProcess.script, "stall", spec]
        stalled.standardOutput = FileHandle.nullDevice
        stalled.standardError = FileHandle.nullDevice
        try stalled.run()
        defer {
            kill(stalled.processIdentifier, SIGKILL)
            stalled.waitUntilExit()
        }
        try eventually(timeout: 15, "the stalled stream to open") { Files.exists(ready) }
        #expect((try? String(contentsOfFile: ready, encoding: .utf8)) == "200")
        // Far more events than the stalled reader's buffers take.
        let folder = d.root() + "/burst"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let name = String(repeating: "n", count: 120)
        for i in 0..<3000 { Files.write(folder + "/\(name)_\(i).JPG", "x") }
        let started = Date()
        let status = try web.api("status", cookie: cookie)
        #expect(status.status == 200)
        let raw = try WebGatewayProcess.client("events", ["port": web.port, "cookie": cookie, "create": d.root() + "/AFTER.JPG",
                                                          "expect": "AFTER.JPG", "timeout": 30])
        #expect(raw["event"] != nil, "\(raw)")
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(stalled.isRunning)
        let hello = try d.client().result(["cmd": "hello"])
        #expect(hello["uid"] as? Int == Int(getuid()))
    }

    @Test func curatorctlWebPrintsTheAddressAndServesUntilStopped() throws {
        let d = try Self.daemon()
        let web = try WebGatewayProcess(d, command: [Daemon.curatorctl, "--socket", d.socket, "web"])
        #expect(try web.request("GET", "/login?token=" + web.token).status == 303)
        #expect(web.stop() == 0)
    }

    @Test func theGatewayRefusesToStartWithoutADaemon() throws {
        let dir = TestDirectory("web")
        let out = try Command.run(WebGatewayProcess.binary, ["--socket", dir.sub("none.sock")], timeout: 20)
        #expect(out.status == 1)
        #expect(out.stdout.isEmpty)
        #expect(out.stderr.contains("none.sock"), "\(out.stderr)")
    }

    /// The page (`--web`): served from memory to a signed-in browser, with the right
    /// types and the security headers; to anyone else the login page; nothing outside
    /// the folder whatever the address says.
    @Test func thePageIsServedToASignedInBrowserOnly() throws {
        let d = try Self.daemon()
        let web = try WebGatewayProcess(d, command: [WebGatewayProcess.binary, "--socket", d.socket,
                                                     "--web", Command.packageRoot + "/web"])
        let cookie = try web.signIn()
        let signedIn = ["Cookie": "curator_session=" + cookie]
        let page = try web.request("GET", "/", headers: signedIn)
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.body.contains(#"<script type="module" src="/js/main.js">"#), "\(page.body.prefix(300))")
        #expect(page.header("Content-Security-Policy")?.contains("default-src 'self'") == true)
        let script = try web.request("GET", "/js/main.js", headers: signedIn)
        #expect(script.status == 200)
        #expect(script.header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(try web.request("GET", "/app.css", headers: signedIn).header("Content-Type") == "text/css; charset=utf-8")
        #expect(try web.request("POST", "/app.css", headers: signedIn.merging(["X-Curator": "1"]) { $1 }, body: "{}").status == 405)
        for path in ["/../Package.swift", "/js/../../Package.swift", "/%2e%2e/Package.swift", "/js/%2e%2e/%2e%2e/Package.swift",
                     "/..%2fPackage.swift", "/js//main.js", "/.git/HEAD"] {
            let answer = try web.request("GET", path, headers: signedIn)
            #expect(answer.status == 404 || answer.status == 400, "\(path): \(answer.status)")
            #expect(!answer.body.contains("swift-tools-version"), "\(path) served the package")
        }
        let anonymous = try web.request("GET", "/js/main.js")
        #expect(anonymous.status == 401)
        #expect(!anonymous.body.contains("import "))
    }
}
