// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// A client whose thread cannot be started (issue 11 point 16): it is told why and
/// its descriptor is closed, not leaked with the client left hanging.
@Suite(.serialized)
struct ClientThreadTests {
    static let serviceUID: UInt32 = 4245

    static func descriptorCount(_ pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count ?? -1
    }

    /// Sets the daemon's soft RLIMIT_NPROC as its own user (root here lacks
    /// CAP_SYS_RESOURCE, and a soft limit may be moved freely below the hard one).
    static func prlimit(_ pid: Int32, nproc: String) throws {
        let set = try Tool.run("/usr/bin/setpriv", ["--reuid=\(serviceUID)", "--regid=\(serviceUID)", "--clear-groups",
                                                    "/usr/bin/prlimit", "--pid", "\(pid)", "--nproc=\(nproc):"])
        guard set.status == 0 else { throw HarnessError("prlimit: \(set.stderr)") }
    }

    /// The daemon's hard RLIMIT_NPROC, which its soft one goes back to.
    static func hardLimit(_ pid: Int32) -> String {
        let limits = (try? String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)) ?? ""
        let line = limits.split(separator: "\n").first { $0.hasPrefix("Max processes") } ?? ""
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        return fields.count >= 4 ? String(fields[3]) : "unlimited"
    }

    @Test func aClientWhoseThreadCannotStartIsToldAndItsDescriptorClosed() throws {
        // RLIMIT_NPROC binds only a process without CAP_SYS_RESOURCE: the daemon runs
        // as a user of its own, and is then allowed no new thread.
        guard getuid() == 0, Tool.exists("/usr/bin/setpriv"), Tool.exists("/usr/bin/prlimit") else {
            print("skipped: needs root, setpriv and prlimit to deny the daemon new threads")
            return
        }
        let uid = Self.serviceUID
        let d = Daemon()
        Files.write(d.root() + "/a.jpg")
        _ = try Tool.run("/bin/chown", ["-R", "\(uid):\(uid)", d.home.path])
        d.wrapper = ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"]
        try d.start()
        defer { d.stop() }
        let pid = d.pid
        try Self.prlimit(pid, nproc: "1")
        let before = Self.descriptorCount(pid)
        let tries = 20
        for _ in 0..<tries {
            let client = try d.client()
            // Told why, without an id (the connection reads nothing), then the end.
            let line = try #require(try client.readObject(timeout: 5), "no answer: the connection was left open")
            #expect(line["ok"] as? Bool == false)
            let error = line["error"] as? [String: Any] ?? [:]
            #expect(error["code"] as? String == "internal_error", "\(line)")
            #expect((error["message"] as? String ?? "").contains("thread"), "\(line)")
            #expect(throws: HarnessError.self) { _ = try client.readLine(timeout: 5) }
        }
        // Each refused client leaked its descriptor; a few may come and go meanwhile
        // (the watcher reading a folder, SQLite).
        let after = Self.descriptorCount(pid)
        #expect(after < before + tries / 4, "\(after - before) descriptors more after \(tries) refused clients")
        #expect(d.logText.contains("cannot serve a client"))

        // Threads again: served as ever.
        try Self.prlimit(pid, nproc: Self.hardLimit(pid))
        #expect(try d.client().result(["cmd": "status"])["pid"] as? Int == Int(pid))
    }
}
