// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc

/// The real `curatord-web` binary (or `curatorctl web`, which becomes it) in front of a
/// test's daemon: started with its output in files, its address (the first line it
/// prints) read back, always stopped.
final class WebGatewayProcess {
    let process: Process
    let outputPath: String
    let logPath: String
    /// From the address it printed.
    private(set) var port = 0
    private(set) var token = ""
    /// HTTPS: `{"ca": the certificate to trust}` for every request.
    var tls: [String: Any]?

    static var binary: String { Daemon.binDirectory + "/curatord-web" }
    static var script: String { Command.packageRoot + "/Tests/Tools/http-client.py" }

    /// `curatord-web --socket SOCKET ARGUMENTS` by default; `command` replaces the
    /// program and its arguments (`curatorctl --socket S web`).
    init(_ daemon: Daemon, command: [String]? = nil, arguments: [String] = []) throws {
        let name = "web-\(UInt32.random(in: 0...UInt32.max))"
        outputPath = daemon.home.sub(name + ".out")
        logPath = daemon.home.sub(name + ".log")
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let argv = command ?? [Self.binary, "--socket", daemon.socket] + arguments
        process = Process()
        process.executableURL = URL(fileURLWithPath: argv[0])
        process.arguments = Array(argv.dropFirst())
        process.environment = daemon.environment
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try eventually(timeout: 15, "curatord-web to print its address") {
            if !process.isRunning { throw HarnessError("curatord-web exited \(process.terminationStatus): \(log)") }
            guard let address = printed.split(separator: "\n").first.map(String.init),
                  let parsed = Self.parse(address) else { return false }
            (port, token) = parsed
            return true
        }
    }

    /// The system gateway (`curatord-web --system`) as the user `user` (setpriv, with
    /// that user's groups), on 127.0.0.1:`port` (0: a free one, read from its log),
    /// serving the page in `web` when given.
    init(system daemon: Daemon, user: String, port: Int = 0, web: String? = nil) throws {
        let name = "websys-\(UInt32.random(in: 0...UInt32.max))"
        outputPath = daemon.home.sub(name + ".out")
        logPath = daemon.home.sub(name + ".log")
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        guard let entry = getpwnam(user) else { throw HarnessError("no user \(user)") }
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=\(user)", "--regid=\(entry.pointee.pw_gid)", "--init-groups", Self.binary, "--system",
                             "--socket", daemon.socket, "--port", String(port)] + (web.map { ["--web", $0] } ?? [])
        process.environment = daemon.environment
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try eventually(timeout: 15, "curatord-web --system to listen") {
            if !process.isRunning { throw HarnessError("curatord-web exited \(process.terminationStatus): \(log)") }
            guard let range = log.range(of: " on port "),
                  let port = Int(log[range.upperBound...].prefix { $0.isNumber }) else { return false }
            self.port = port
            return true
        }
    }

    deinit { stop() }

    var printed: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// `http://127.0.0.1:PORT/login?token=HEX` (or `https://`) -> (PORT, HEX).
    static func parse(_ address: String) -> (Int, String)? {
        let prefix = address.hasPrefix("https://") ? "https://127.0.0.1:" : "http://127.0.0.1:"
        guard address.hasPrefix(prefix), let range = address.range(of: "/login?token=") else { return nil }
        guard let port = Int(address[address.index(address.startIndex, offsetBy: prefix.count)..<range.lowerBound]) else { return nil }
        let token = String(address[range.upperBound...])
        guard token.count == 64, token.allSatisfy(\.isHexDigit) else { return nil }
        return (port, token)
    }

    /// SIGTERM and wait (SIGKILL after a bound); the exit status.
    @discardableResult
    func stop() -> Int32? {
        guard process.isRunning else { return process.isRunning ? nil : process.terminationStatus }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date(timeIntervalSinceNow: 10)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    // MARK: HTTP, by Python's http.client over TCP

    struct Answer {
        let status: Int
        let headers: [String: [String]]
        let body: String
        let error: String?
        /// The body's bytes: how many, and their SHA-256 (hex).
        var length = 0
        var sha256 = ""

        func header(_ name: String) -> String? { headers[name.lowercased()]?.first }
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        var result: [String: Any] { json["result"] as? [String: Any] ?? [:] }
    }

    static func client(_ mode: String, _ spec: [String: Any], timeout: Double = 60) throws -> [String: Any] {
        let argument = String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self)
        let out = try Command.run("/usr/bin/python3", [script, mode, argument], timeout: timeout)
        guard out.status == 0, let parsed = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any] else {
            throw HarnessError("http-client.py \(mode) exited \(out.status): \(out.stdout) \(out.stderr)")
        }
        return parsed
    }

    static func answer(_ raw: [String: Any]) -> Answer {
        Answer(status: raw["status"] as? Int ?? 0, headers: raw["headers"] as? [String: [String]] ?? [:],
               body: raw["body"] as? String ?? "", error: raw["error"] as? String, length: raw["length"] as? Int ?? 0,
               sha256: raw["sha256"] as? String ?? "")
    }

    func request(_ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil,
                 extra: [String: Any] = [:]) throws -> Answer {
        var spec: [String: Any] = ["port": port, "method": method, "path": path, "headers": headers]
        if let tls { spec["tls"] = tls }
        if let body { spec["body"] = body }
        for (key, value) in extra { spec[key] = value }
        return Self.answer(try Self.client("request", spec))
    }

    /// Opens the secret address; the session cookie's value.
    func signIn() throws -> String {
        let answer = try request("GET", "/login?token=" + token)
        guard answer.status == 303, let cookie = answer.header("Set-Cookie"),
              let value = cookie.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last else {
            throw HarnessError("signing in answered \(answer.status) \(answer.headers) \(answer.body)")
        }
        return String(value)
    }

    /// `POST /api/v1/login` as a page makes it: the answer, and the cookie's value when set.
    func logIn(_ user: String, _ password: String, headers: [String: String] = [:]) throws -> (answer: Answer, cookie: String?) {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["user": user, "password": password]), as: UTF8.self)
        var all = ["X-Curator": "1", "Content-Type": "application/json", "Origin": "http://127.0.0.1:\(port)"]
        for (name, value) in headers { all[name] = value }
        let answer = try request("POST", "/api/v1/login", headers: all, body: body)
        let cookie = answer.header("Set-Cookie")?.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last.map(String.init)
        return (answer, cookie)
    }

    /// An API request as the gateway's own page makes it.
    /// The cookie's name is the gateway's over HTTPS (`__Host-curator_session`) unless
    /// `cookieName` says otherwise.
    func api(_ command: String, _ arguments: String = "{}", cookie: String, cookieName: String? = nil,
             headers: [String: String] = [:]) throws -> Answer {
        let name = cookieName ?? (tls == nil ? "curator_session" : "__Host-curator_session")
        var all = ["Cookie": name + "=" + cookie, "X-Curator": "1", "Content-Type": "application/json",
                   "Origin": "http://127.0.0.1:\(port)"]
        for (name, value) in headers { all[name] = value }
        return try request("POST", "/api/v1/" + command, headers: all, body: arguments)
    }
}
