// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials
import Glibc

/// The grid's one connection to curatord, read without blocking from the event
/// loop: requests go out with an id and a continuation, responses are matched to
/// them by id, events are handed to `onEvent` in the order they came (which is the
/// order the daemon decided them in: a listing and the events after it agree).
///
/// One request is on the wire at a time; the others wait here. The daemon of this
/// base reads a second pipelined line only when more bytes come (`list` then `hello`
/// sent together leaves `hello` unanswered), and one at a time costs nothing on a
/// local socket.
final class DaemonLink {
    let descriptor: FileDescriptor
    private var buffer: [UInt8] = []
    /// How far `buffer` has been searched for a newline (a 1 MB listing comes in many reads).
    private var scanned = 0
    private var nextID: Int64 = 1
    private var waiting: [Int64: (Data) -> Void] = [:]
    /// Requests not sent yet, in order.
    private var queued: [(id: Int64, line: [UInt8])] = []
    private var inFlight: Int64?
    private let decoder = Wire.makeDecoder()
    private let encoder = Wire.makeEncoder()
    var onEvent: (Event) -> Void = { _ in }

    init(socketPath: String) throws(CullError) {
        do {
            descriptor = try UnixSocket.connect(to: ByteString(socketPath))
        } catch {
            throw CullError.connectionLost("\(socketPath): \(error)")
        }
    }

    deinit { try? descriptor.close() }  // a socket: nothing to lose

    var isWaiting: Bool { !waiting.isEmpty }

    /// Sends a request; `reply` gets the response line.
    func send(_ command: some ProtocolRequest, reply: @escaping (Data) -> Void) throws(CullError) {
        let id = nextID
        nextID += 1
        waiting[id] = reply
        queued.append((id, Array(Wire.request(id: .number(id), command: command, encoder: encoder))))
        if inFlight == nil { try sendNext() }
    }

    private func sendNext() throws(CullError) {
        guard inFlight == nil, !queued.isEmpty else { return }
        let next = queued.removeFirst()
        inFlight = next.id
        do {
            try UnixSocket.sendAll(descriptor, next.line)
        } catch {
            throw CullError.connectionLost("\(error)")
        }
    }

    /// Sends a request and hands `done` its decoded result or the daemon's error.
    func call<R: ProtocolRequest>(_ command: R, _ done: @escaping (Result<R.Result, ProtocolError>) -> Void) throws(CullError) {
        let decoder = self.decoder
        try send(command) { line in
            guard let response = try? decoder.decode(Response<R.Result>.self, from: line) else {
                done(.failure(ProtocolError(.internalError, "an answer this curatorctl does not understand")))
                return
            }
            if response.ok, let result = response.result { done(.success(result)) } else {
                done(.failure(response.error ?? ProtocolError(.internalError, "curatord gave no result")))
            }
        }
    }

    /// Waits until every request sent has its answer (used at start, before the loop runs).
    func settle() throws(CullError) {
        while isWaiting { try readAvailable(blocking: true) }
    }

    /// Sends a request and waits for its answer, handling the lines before it (used
    /// at start, before the loop runs).
    func callNow<R: ProtocolRequest>(_ command: R) throws(CullError) -> R.Result {
        var outcome: Result<R.Result, ProtocolError>?
        try call(command) { outcome = $0 }
        while outcome == nil { try readAvailable(blocking: true) }
        switch outcome {
        case .success(let result)?: return result
        case .failure(let error)?: throw CullError.daemon(error)
        case nil: throw CullError.connectionLost("no answer")
        }
    }

    /// Reads what the socket holds and dispatches every whole line.
    func readAvailable(blocking: Bool = false) throws(CullError) {
        var chunk = [UInt8](repeating: 0, count: 1 << 18)
        var readOnce = false
        while true {
            let n: Int?
            do {
                n = try chunk.withUnsafeMutableBytes { buf throws(SystemError) in
                    try UnixSocket.receive(descriptor, into: buf, blocking: blocking && !readOnce)
                }
            } catch {
                throw CullError.connectionLost("\(error)")
            }
            guard let n else { break }  // would block
            if n == 0 { throw CullError.connectionLost(farewell ?? "curatord closed the connection") }
            buffer.append(contentsOf: chunk[0..<n])
            readOnce = true
            if n < chunk.count { break }
        }
        try dispatchLines()
    }

    private func answer(_ id: Int64, _ line: Data) throws(CullError) {
        guard let reply = waiting.removeValue(forKey: id) else { return }
        if inFlight == id { inFlight = nil }
        try sendNext()
        reply(line)
    }

    private struct Probe: Decodable {
        var id: RequestID?
        var event: String?
        var error: ProtocolError?
    }

    /// What the daemon said, without an id, before it closed (`shutting_down`, `idle_timeout`).
    private var farewell: String?

    private func dispatchLines() throws(CullError) {
        var start = 0
        while let newline = buffer[max(start, scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
            scanned = newline + 1
            let bytes = buffer[start..<newline]
            start = newline + 1
            switch LineKind(bytes) {
            case .event:
                if let event = try? decoder.decode(Event.self, from: Data(bytes)) { onEvent(event) }
            case .answer(let id):
                try answer(id, Data(bytes))
            case .other:
                let line = Data(bytes)
                guard line.first == UInt8(ascii: "{"), let probe = try? decoder.decode(Probe.self, from: line) else { continue }
                if probe.id == nil, let error = probe.error {
                    farewell = error.message
                } else if probe.event != nil {
                    if let event = try? decoder.decode(Event.self, from: line) { onEvent(event) }
                } else if case .number(let id)? = probe.id {
                    try answer(id, line)
                }
            }
        }
        buffer.removeFirst(start)
        scanned = buffer.count
    }
}
