// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Foundation
import Glibc

/// Users and groups made for one test, with names no real account or other
/// helper's test would have (a prefix, the pid, a random tail), and removed when
/// the value goes (`remove()`; `deinit` too). Needs root and useradd.
final class SystemUsers {
    private(set) var users: [String] = []
    private(set) var groups: [String] = []
    private let tag: String

    static var available: Bool { getuid() == 0 && Tool.exists("/usr/sbin/useradd") && Tool.exists("/usr/bin/setpriv") }

    init() {
        tag = String(UInt32.random(in: 0..<0xFFFFF), radix: 36)
    }

    /// A group named `c13<name><tag>`; returns its name.
    func group(_ name: String) throws -> String {
        let full = "c13\(name)\(tag)"
        let made = try Tool.run("/usr/sbin/groupadd", [full])
        guard made.status == 0 else { throw HarnessError("groupadd \(full): \(made.stderr)") }
        groups.append(full)
        return full
    }

    /// A user (its own primary group of the same name) in the supplementary `groups`.
    func user(_ name: String, groups extra: [String] = []) throws -> (name: String, uid: UInt32, gid: UInt32) {
        let full = "c13\(name)\(tag)"
        var args = ["-M", "-U", "-s", "/usr/sbin/nologin"]
        if !extra.isEmpty { args += ["-G", extra.joined(separator: ",")] }
        let made = try Tool.run("/usr/sbin/useradd", args + [full])
        guard made.status == 0 else { throw HarnessError("useradd \(full): \(made.stderr)") }
        users.append(full)
        guard let entry = getpwnam(full) else { throw HarnessError("no passwd entry for \(full)") }
        return (full, entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    func remove() {
        for user in users.reversed() { _ = try? Tool.run("/usr/sbin/userdel", [user]) }
        // userdel removes a user's own group; the others go here.
        for group in groups.reversed() { _ = try? Tool.run("/usr/sbin/groupdel", [group]) }
        users.removeAll()
        groups.removeAll()
    }

    deinit { remove() }
}

extension Daemon {
    /// Runs curatorctl as the user `name` with the groups the group database gives it
    /// (setpriv --init-groups), as a login would.
    func ctl(_ args: [String], asUser name: String) throws -> (status: Int32, stdout: String, stderr: String) {
        guard let entry = getpwnam(name) else { throw HarnessError("no user \(name)") }
        let gid = entry.pointee.pw_gid
        let out = try Tool.run("/usr/bin/setpriv", ["--reuid=\(name)", "--regid=\(gid)", "--init-groups", Self.curatorctl,
                                                     "--socket", socket] + args, environment: environment)
        return (out.status, out.stdout, out.stderr)
    }
}

/// A protocol client whose connection was made by another user: socat, started as
/// that user through setpriv (with the user's groups), connects to the daemon's
/// socket, so the daemon's SO_PEERCRED is that user's; the test talks to socat over
/// a socket pair, with every `Client` request, and can time each answer.
final class UserConnection {
    let client: Client
    private let relay: Process

    init(socket: String, user name: String, environment: [String: String]) throws {
        guard let entry = getpwnam(name) else { throw HarnessError("no user \(name)") }
        let gid = entry.pointee.pw_gid
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw HarnessError("socketpair: \(String(cString: strerror(errno)))")
        }
        let theirs = FileHandle(fileDescriptor: pair[1], closeOnDealloc: true)
        relay = Process()
        relay.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        relay.arguments = ["--reuid=\(name)", "--regid=\(gid)", "--init-groups",
                           "/usr/bin/socat", "STDIO", "UNIX-CONNECT:\(socket)"]
        relay.environment = environment
        relay.standardInput = theirs
        relay.standardOutput = theirs
        do {
            try relay.run()
        } catch {
            close(pair[0])
            throw error
        }
        // Only socat keeps its end: the pair closes when it exits.
        try theirs.close()
        client = Client(connected: FileDescriptor(rawValue: pair[0]))
    }

    /// SIGKILL: the test process blocks SIGTERM, which its children inherit.
    func end() {
        guard relay.isRunning else { return }
        kill(relay.processIdentifier, SIGKILL)
        relay.waitUntilExit()
    }

    deinit { end() }
}

extension Daemon {
    /// A client connected as the user `name` (see `UserConnection`).
    func client(asUser name: String) throws -> UserConnection {
        try UserConnection(socket: socket, user: name, environment: environment)
    }
}
