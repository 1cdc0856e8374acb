// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials
import Synchronization

/// The daemon connections API requests borrow: at most `capacity` open at once, kept
/// open between requests. A small pool rather than one connection per web session:
/// a page sends requests side by side (a listing while a `select` is made), and one
/// connection would answer them in turn, each behind a `sync` or a batch that takes
/// seconds. A bound, because every connection counts against the daemon's
/// `max_clients_per_user`, which `curatorctl` in a terminal shares. In the personal
/// gateway every request is the user's own, so any connection serves any request.
final class DaemonPool: Sendable {
    let socketPath: String
    let capacity: Int
    /// How long a request may wait for the daemon's answer (a batch of many photos, a
    /// `sync` with a long timeout).
    let answerTimeout: Double
    /// In the system gateway, the web session every connection of this pool is bound
    /// to (`web.attach`); nil in the personal gateway, whose connections are the user's.
    let attachToken: String?

    private struct State: Sendable {
        var idle: [DaemonConnection] = []
        var open = 0
    }

    private let state: Monitor<State>
    private let nextID = Atomic<Int64>(1)

    init(socketPath: String, capacity: Int = 4, answerTimeout: Double = 600, attachToken: String? = nil) {
        self.socketPath = socketPath
        self.attachToken = attachToken
        self.capacity = capacity
        self.answerTimeout = answerTimeout
        state = Monitor(State())
    }

    /// A request id of the gateway's: the answer is matched to it.
    func makeID() -> Int64 { nextID.add(1, ordering: .relaxed).oldValue }

    /// `request`'s line, as every client of the protocol writes it.
    static func line<R: ProtocolRequest>(_ request: R, id: Int64) -> [UInt8] {
        Array(Wire.request(id: .number(id), command: request, encoder: encoder))
    }

    private static let encoder = Wire.makeEncoder()

    /// Sends the line `make(id)` and returns the daemon's answer line. A connection the
    /// daemon had closed while it sat idle is replaced, and the request sent again only
    /// when the daemon cannot have read it (the send failed, or it answered
    /// `idle_timeout` with no id, which it does before reading anything).
    func call(_ make: (Int64) -> [UInt8]) throws(GatewayError) -> [UInt8] {
        try exchange(make).line
    }

    /// `call`, and the file the daemon passed with its answer (`photo.open`), which the
    /// caller then owns.
    func exchange(_ make: (Int64) -> [UInt8]) throws(GatewayError) -> (line: [UInt8], passed: FileDescriptor?) {
        var attempts = 0
        while true {
            attempts += 1
            let connection = try borrow()
            let id = makeID()
            do {
                try connection.send(make(id))
            } catch {
                discard(connection)
                if attempts < 2 { continue }
                throw GatewayError(502, GatewayError.daemonUnavailable, "curatord's socket: \(error)")
            }
            let line: [UInt8]
            do {
                line = try answer(to: id, on: connection)
            } catch {
                discard(connection)
                throw error
            }
            // One request at a time on a connection: a file passed before its answer
            // was whole is that answer's.
            let passed = connection.takePassed()
            if let unsolicited = Self.unsolicitedCode(line) {
                discard(connection)
                if let passed { try? passed.close() }
                if unsolicited == .idleTimeout && attempts < 2 { continue }
                return (line, nil)
            }
            connection.dropPassed()
            giveBack(connection)
            return (line, passed)
        }
    }

    private func answer(to id: Int64, on connection: DaemonConnection) throws(GatewayError) -> [UInt8] {
        let deadline = Deadline.after(seconds: answerTimeout)
        while true {
            guard let line = try connection.readLine(until: deadline) else {
                throw GatewayError(502, GatewayError.daemonUnavailable, "curatord closed the connection before it answered")
            }
            guard let probe = try? Self.decoder.decode(Probe.self, from: Data(line)) else { continue }
            if probe.id == .number(id) || (probe.id == nil && probe.event == nil) { return line }
        }
    }

    private struct Probe: Decodable {
        var id: RequestID?
        var event: String?
        var error: ProtocolError?
    }

    private static let decoder = Wire.makeDecoder()

    /// The code of an answer that carries no id: a refusal the daemon sends before it
    /// closes a connection (`idle_timeout`, `too_many_connections`, `shutting_down`).
    private static func unsolicitedCode(_ line: [UInt8]) -> ErrorCode? {
        guard let probe = try? decoder.decode(Probe.self, from: Data(line)), probe.id == nil else { return nil }
        return probe.error?.code ?? .internalError
    }

    private func borrow() throws(GatewayError) -> DaemonConnection {
        while true {
            let reused: DaemonConnection? = state.withLock { locked in
                locked.wait { $0.open < capacity || !$0.idle.isEmpty }
                if let connection = locked.state.idle.popLast() { return connection }
                locked.state.open += 1
                return nil
            }
            if let reused {
                if reused.isStale {
                    discard(reused)
                    continue
                }
                return reused
            }
            do {
                if let attachToken { return try DaemonConnection.attached(socketPath: socketPath, token: attachToken) }
                return try DaemonConnection(socketPath: socketPath)
            } catch {
                release()
                throw error
            }
        }
    }

    private func giveBack(_ connection: DaemonConnection) {
        state.withLock { locked in
            locked.state.idle.append(connection)
            locked.broadcast()
        }
    }

    private func discard(_ connection: DaemonConnection) {
        connection.close()
        release()
    }

    private func release() {
        state.withLock { locked in
            locked.state.open -= 1
            locked.broadcast()
        }
    }
}
