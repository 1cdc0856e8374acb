// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Foundation
import Glibc

/// A raw protocol client for tests: JSON objects in, JSON objects out, so tests
/// check the wire format itself rather than our own Swift types.
final class Client {
    let fd: FileDescriptor
    private var buffer: [UInt8] = []
    private var nextID = 1
    /// Events that arrived while waiting for a response.
    private(set) var events: [[String: Any]] = []

    /// Which socket this is and who was at its other end when it connected: a
    /// failure then tells a daemon that went away from a descriptor that someone
    /// else in the test process closed and whose number was reused (stop 31's CI
    /// lost a connection with ECONNRESET and could not say which).
    private let socketInode: UInt64?
    private let peerPID: Int32?

    init(_ socket: String) throws {
        fd = try UnixSocket.connect(to: ByteString(socket))
        (socketInode, peerPID) = Self.identity(of: fd)
    }

    /// A socket already connected (by a helper running as another user, whose
    /// credentials are the ones the daemon sees); the client owns it from now on.
    init(connected fd: FileDescriptor) {
        self.fd = fd
        (socketInode, peerPID) = Self.identity(of: fd)
    }

    deinit { try? fd.close() }

    private static func identity(of fd: FileDescriptor) -> (UInt64?, Int32?) {
        ((try? FileStatus.of(descriptor: fd))?.inode, (try? UnixSocket.peerCredentials(fd))?.pid)
    }

    /// What became of this connection, for a failure's message: the same socket or
    /// not, and whether the process it was connected to still runs.
    var whatBecameOfIt: String {
        let now = try? FileStatus.of(descriptor: fd)
        let socket = now == nil ? "descriptor \(fd.rawValue) is closed"
            : now?.inode == socketInode ? "descriptor \(fd.rawValue) is still this socket"
            : "descriptor \(fd.rawValue) is another file now (closed by someone else, its number reused)"
        guard let peerPID else { return socket + "; the peer's pid was not known" }
        let comm = (try? String(contentsOfFile: "/proc/\(peerPID)/comm", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return socket + "; connected to pid \(peerPID), " + (comm.map { "which runs (\($0))" } ?? "which is gone")
    }

    /// Runs `body`, adding `whatBecameOfIt` to a failure of the connection.
    private func explaining<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as SystemError {
            throw HarnessError("\(error) (\(whatBecameOfIt))")
        }
    }

    func sendLine(_ text: String) throws {
        try explaining { try UnixSocket.sendAll(fd, Array((text + "\n").utf8)) }
    }

    /// Sends a request (an `id` is added) and returns the whole response object.
    func request(_ body: [String: Any], timeout: Double = 30) throws -> [String: Any] {
        var object = body
        let id = nextID
        nextID += 1
        object["id"] = id
        let data = try JSONSerialization.data(withJSONObject: object)
        try sendLine(String(decoding: data, as: UTF8.self))
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0, let line = try readObject(timeout: remaining) else {
                throw HarnessError("no response to \(body) within \(timeout) s")
            }
            if line["event"] != nil {
                events.append(line)
                continue
            }
            return line
        }
    }

    /// The `result` of a successful request; throws with the error otherwise.
    func result(_ body: [String: Any], timeout: Double = 30) throws -> [String: Any] {
        let response = try request(body, timeout: timeout)
        guard response["ok"] as? Bool == true, let result = response["result"] as? [String: Any] else {
            throw HarnessError("request \(body) failed: \(response)")
        }
        return result
    }

    /// The error `code` of a request that must fail.
    func errorCode(_ body: [String: Any]) throws -> String? {
        let response = try request(body)
        guard response["ok"] as? Bool == false else { return nil }
        return (response["error"] as? [String: Any])?["code"] as? String
    }

    /// The next event (from the backlog first), or nil after `timeout`.
    func nextEvent(timeout: Double = 10) throws -> [String: Any]? {
        if !events.isEmpty { return events.removeFirst() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while deadline.timeIntervalSinceNow > 0 {
            guard let line = try readObject(timeout: deadline.timeIntervalSinceNow) else { return nil }
            if line["event"] != nil { return line }
        }
        return nil
    }

    /// Reads one line as a JSON object; nil on timeout.
    func readObject(timeout: Double) throws -> [String: Any]? {
        guard let line = try readLine(timeout: timeout) else { return nil }
        guard let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
            throw HarnessError("not a JSON object: \(String(decoding: line, as: UTF8.self))")
        }
        return object
    }

    func readLine(timeout: Double) throws -> [UInt8]? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return nil }
            var pfd = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(min(remaining * 1000, 1000)) + 1)
            if ready <= 0 { continue }
            let n = try explaining { try chunk.withUnsafeMutableBytes { try UnixSocket.receive(fd, into: $0, blocking: false) } }
            guard let n else { continue }
            if n == 0 { throw HarnessError("curatord closed the connection (\(whatBecameOfIt))") }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    // MARK: conveniences

    /// Read-your-writes: returns once the daemon has applied every change made so far.
    func sync() throws {
        let r = try result(["cmd": "sync"])
        guard r["synced"] as? Bool == true else { throw HarnessError("sync did not complete: \(r)") }
    }

    /// Every photo of the view (all roots by default), as (path, id) pairs.
    func photos(_ args: [String: Any] = [:]) throws -> [[String: Any]] {
        var body = args
        body["cmd"] = "list"
        return try result(body)["photos"] as? [[String: Any]] ?? []
    }

    func idsByPath(_ args: [String: Any] = [:]) throws -> [String: Int] {
        var map: [String: Int] = [:]
        for p in try photos(args) {
            if let path = p["path"] as? String, let id = p["id"] as? Int { map[path] = id }
        }
        return map
    }
}
