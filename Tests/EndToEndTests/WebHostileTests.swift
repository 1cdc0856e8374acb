// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Hostile HTTP against the real gateway (issue 51): malformed requests, idle and
/// trickling connections by the thousand. Nothing crashes, memory stays bounded, and
/// a well-behaved client is served.
@Suite(.serialized)
struct WebHostileTests {
    static let tool = Command.packageRoot + "/Tests/Tools/http-hostile.py"

    static func hostile(_ mode: String, _ spec: [String: Any], timeout: Double = 120) throws -> [String: Any] {
        let argument = String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self)
        let out = try Command.run("/usr/bin/python3", [tool, mode, argument], timeout: timeout)
        guard out.status == 0, let parsed = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any] else {
            throw HarnessError("http-hostile.py \(mode) exited \(out.status): \(out.stdout) \(out.stderr)")
        }
        return parsed
    }

    /// The process's resident memory in KiB (VmRSS of /proc/PID/status).
    static func residentKiB(_ pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }

    static let memoryBoundKiB = 60 << 10

    @Test func malformedRequestsAreRefusedAndCrashNothing() throws {
        let d = try WebGatewayTests.daemon()
        let web = try WebGatewayProcess(d)
        let cookie = try web.signIn()
        let out = try Self.hostile("fuzz", ["port": web.port, "cookie": cookie])
        let answers = out["answers"] as? [[String: Any]] ?? []
        #expect(answers.count > 20, "\(out)")
        var byName: [String: [String: Any]] = [:]
        for answer in answers {
            let name = answer["name"] as? String ?? "?"
            byName[name] = answer
            #expect(answer["timeout"] == nil, "\(name) was left hanging: \(answer)")
            if let status = answer["status"] as? Int {
                #expect(status != 200 || name == "pipelined junk", "\(name) answered 200")
                #expect(status != 500, "\(name): \(answer)")
            }
        }
        for name in ["huge header", "many headers", "long line"] {
            let status = byName[name]?["status"] as? Int
            #expect(status == 431 || status == 414 || status == 400 || byName[name]?["closed"] != nil, "\(name): \(byName[name] ?? [:])")
        }
        #expect(byName["over the limit"]?["status"] as? Int == 413, "\(byName["over the limit"] ?? [:])")
        #expect([400, nil].contains(byName["bad chunk size"]?["status"] as? Int), "\(byName["bad chunk size"] ?? [:])")
        #expect(byName["no host"]?["status"] as? Int == 400)
        // Framed twice: what a proxy in front reads one way and the gateway another
        // (request smuggling). Refused by the gateway itself, with its headers.
        for name in ["two lengths", "length and chunked"] {
            #expect(byName[name]?["status"] as? Int == 400, "\(name): \(byName[name] ?? [:])")
            #expect((byName[name]?["head"] as? String)?.contains("X-Content-Type-Options: nosniff") == true, "\(name)")
        }

        // libmicrohttpd answers a request it cannot parse itself, with no hook for our
        // headers: what it sends must be its own fixed text, nothing of the request.
        for name in ["markup in line", "markup in header"] {
            let answer = try #require(byName[name])
            #expect(answer["status"] as? Int == 400 || answer["status"] as? Int == 505 || answer["closed"] != nil, "\(name): \(answer)")
            let echoed = ((answer["head"] as? String) ?? "") + ((answer["body"] as? String) ?? "")
            #expect(!echoed.lowercased().contains("script"), "\(name) came back: \(answer)")
        }

        #expect(web.process.isRunning, "the gateway survived: \(web.log)")
        #expect(try web.api("status", cookie: cookie).status == 200)
        let rss = try #require(Self.residentKiB(web.process.processIdentifier))
        #expect(rss < Self.memoryBoundKiB, "RSS \(rss) KiB")
    }

    @Test func aThousandIdleConnectionsAreShedAndAnotherClientIsServed() throws {
        let d = try WebGatewayTests.daemon()
        let web = try WebGatewayProcess(d, arguments: ["--max-connections", "64", "--timeout", "3"])
        let cookie = try web.signIn()
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let result = d.home.sub("held.json")
        _ = FileManager.default.createFile(atPath: result, contents: nil)
        let ready = d.home.sub("held.ready")
        let spec = String(decoding: try JSONSerialization.data(withJSONObject: ["port": web.port, "count": 1000, "seconds": 10,
                                                                                "ready_file": ready]),
                          as: UTF8.self)
        holder.arguments = [Self.tool, "hold", spec]
        holder.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: result))
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        defer {
            if holder.isRunning { kill(holder.processIdentifier, SIGKILL) }
            holder.waitUntilExit()
        }
        // While they are held: served once the idle ones are timed out, well before
        // the holder lets go. Counted from when all are open: opening a thousand
        // takes seconds on a loaded machine, and each one opened meanwhile takes a
        // freed slot for another idle timeout.
        try eventually(timeout: 60, "the holder's connections opened") { FileManager.default.fileExists(atPath: ready) }
        var peak = 0
        let started = Date()
        try eventually(timeout: 9, "another client to be served beside 1000 idle connections") {
            peak = max(peak, Self.residentKiB(web.process.processIdentifier) ?? 0)
            let answer = try web.request("POST", "/api/v1/hello", headers: ["Cookie": "curator_session=" + cookie, "X-Curator": "1"],
                                         body: "{}", extra: ["timeout": 2])
            return answer.status == 200
        }
        #expect(holder.isRunning && Date().timeIntervalSince(started) < 10, "served while the connections were still held")
        holder.waitUntilExit()
        let held = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: result))) as? [String: Any] ?? [:]
        let opened = held["opened"] as? Int ?? 0
        #expect(opened >= 500, "\(held)")
        #expect(held["closed_by_server"] as? Int == opened, "every idle connection shed: \(held)")
        #expect(web.process.isRunning)
        #expect(peak < Self.memoryBoundKiB, "RSS \(peak) KiB")
    }

    @Test func tricklingConnectionsHoldOnlyTheirOwnSlots() throws {
        let d = try WebGatewayTests.daemon()
        let web = try WebGatewayProcess(d, arguments: ["--max-connections", "64", "--timeout", "3"])
        let cookie = try web.signIn()
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let spec = String(decoding: try JSONSerialization.data(withJSONObject: ["port": web.port, "count": 32, "seconds": 8, "trickle": true]),
                          as: UTF8.self)
        holder.arguments = [Self.tool, "hold", spec]
        holder.standardOutput = FileHandle.nullDevice
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        defer {
            if holder.isRunning { kill(holder.processIdentifier, SIGKILL) }
            holder.waitUntilExit()
        }
        Thread.sleep(forTimeInterval: 4)  // past the timeout: the trickle keeps them open
        for _ in 0..<5 {
            let answer = try web.api("status", cookie: cookie)
            #expect(answer.status == 200, "\(answer)")
        }
        #expect(holder.isRunning && web.process.isRunning)
        #expect((Self.residentKiB(web.process.processIdentifier) ?? .max) < Self.memoryBoundKiB)
    }
}
