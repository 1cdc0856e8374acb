// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials
import Glibc

/// One connection to curatord's socket: request lines out, answer and event lines in.
/// The daemon knows the gateway's user by SO_PEERCRED, as it knows curatorctl's.
final class DaemonConnection: @unchecked Sendable {
    // @unchecked: a connection is used by one thread at a time. The pool hands it to
    // one borrower and takes it back when that borrower is done; an event stream owns
    // its own, touched only by its reader (and `interrupt`, a shutdown(2) of the
    // socket, from the thread that ends the stream, while the reader has it open).
    let descriptor: FileDescriptor
    private var buffer: [UInt8] = []
    /// Files the daemon passed (`photo.open`), in the order they came, not taken yet.
    private var passed: [FileDescriptor] = []
    private var closed = false

    init(socketPath: String) throws(GatewayError) {
        do {
            descriptor = try UnixSocket.connect(to: ByteString(socketPath))
        } catch {
            throw GatewayError(502, GatewayError.daemonUnavailable, "curatord does not answer on \(socketPath): \(error)")
        }
    }

    deinit { close() }

    /// A connection bound to a web session by `web.attach`: every request on it is
    /// then the session's user's. The daemon's refusal (`not_signed_in`, ...) is
    /// thrown with its code and the status that code has.
    static func attached(socketPath: String, token: String) throws(GatewayError) -> DaemonConnection {
        let connection = try DaemonConnection(socketPath: socketPath)
        do {
            try connection.send(DaemonPool.line(WebAttachRequest(token: token), id: 0))
        } catch {
            throw GatewayError(502, GatewayError.daemonUnavailable, "curatord's socket: \(error)")
        }
        guard let line = try connection.readLine(until: .after(seconds: 30)) else {
            throw GatewayError(502, GatewayError.daemonUnavailable, "curatord closed the connection before it answered")
        }
        struct Outcome: Decodable {
            var ok: Bool?
            var error: ProtocolError?
        }
        let outcome = try? Wire.makeDecoder().decode(Outcome.self, from: Data(line))
        guard outcome?.ok == true else {
            let code = outcome?.error?.code ?? .internalError
            throw GatewayError(ErrorStatus.status(for: code), code, outcome?.error?.message ?? "web.attach failed")
        }
        return connection
    }

    /// Cuts short a read in progress on another thread (the read then ends as at
    /// the end of the stream); the descriptor stays open until `close`.
    func interrupt() {
        _ = Glibc.shutdown(descriptor.rawValue, Int32(SHUT_RDWR))
    }

    func close() {
        guard !closed else { return }
        closed = true
        try? descriptor.close()  // a socket: nothing written to lose
        dropPassed()
    }

    /// The first file passed and not taken yet; the caller owns it.
    func takePassed() -> FileDescriptor? {
        passed.isEmpty ? nil : passed.removeFirst()
    }

    /// Closes files passed that nobody took (read-only: nothing to lose).
    func dropPassed() {
        for file in passed { try? file.close() }
        passed = []
    }

    func send(_ line: [UInt8]) throws(SystemError) {
        try UnixSocket.sendAll(descriptor, line)
    }

    /// A connection that has something to read while it is owed nothing was closed by
    /// the daemon (idle, restarted, stopping), which said so first: it is not reused.
    var isStale: Bool {
        guard buffer.isEmpty else { return true }
        var entry = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        return SystemCalls.poll(&entry, 1, 0) != 0
    }

    /// The next whole line (without its newline), or nil at end of stream. Waits until
    /// `deadline` at most.
    func readLine(until deadline: Deadline) throws(GatewayError) -> [UInt8]? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            guard try waitReadable(until: deadline) else {
                throw GatewayError(504, GatewayError.daemonUnavailable, "curatord did not answer in time")
            }
            guard let chunk = try receive(), !chunk.isEmpty else { return nil }
            buffer.append(contentsOf: chunk)
        }
    }

    /// Whatever the daemon has sent, up to `limit` bytes, waiting until `deadline`:
    /// nil when the deadline passed first, empty at end of stream. Buffered bytes
    /// come first.
    func readSome(limit: Int, until deadline: Deadline) throws(GatewayError) -> [UInt8]? {
        if !buffer.isEmpty {
            let taken = Array(buffer.prefix(limit))
            buffer.removeFirst(taken.count)
            return taken
        }
        guard try waitReadable(until: deadline) else { return nil }
        return try receive(limit: limit) ?? []
    }

    private func waitReadable(until deadline: Deadline) throws(GatewayError) -> Bool {
        while true {
            var entry = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
            let wait = deadline == .never ? Int32(-1) : Int32(min(max(deadline.secondsLeft, 0) * 1000, 3_600_000).rounded(.up))
            let rc = SystemCalls.poll(&entry, 1, wait)
            if rc > 0 { return true }
            if rc == 0 { return false }
            if errno != EINTR {
                throw GatewayError(502, GatewayError.daemonUnavailable, "curatord's socket: \(Errno(errno))")
            }
        }
    }

    private func receive(limit: Int = 1 << 16) throws(GatewayError) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: limit)
        var file: FileDescriptor?
        let received: Result<Int?, SystemError> = chunk.withUnsafeMutableBytes { raw in
            Result { () throws(SystemError) -> Int? in try UnixSocket.receive(descriptor, into: raw, passed: &file) }
        }
        if let file { passed.append(file) }
        let n: Int?
        switch received {
        case .success(let count):
            n = count
        case .failure(let error):
            if error.errno == Errno(ECONNRESET) { return [] }
            throw GatewayError(502, GatewayError.daemonUnavailable, "curatord's socket: \(error)")
        }
        guard let n else { return nil }
        return Array(chunk[0..<n])
    }
}
