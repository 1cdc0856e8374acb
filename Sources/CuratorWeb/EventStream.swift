// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials

/// `GET /api/v1/events`: a `subscribe` on a daemon connection of its own, its event
/// lines passed on as Server-Sent Events (`data: <the event's JSON>`, one per line).
///
/// A thread of the stream's own (`run`) reads the daemon; the server's thread takes
/// what it read (`fill`) and, when there is nothing, suspends the HTTP connection
/// until the reader has more (`StreamWaker`). Nothing is read from the daemon before
/// the browser has taken what was read before, so what this stream holds is at most
/// one chunk (framed), whatever the browser does. A browser that stops reading leaves
/// the events in the daemon's queue for this connection, which the daemon bounds for
/// any client (past 16 MiB it drops them and says `dropped`), and the server closes a
/// connection that has taken nothing for its timeout. Other streams have their own
/// readers, and never wait for this one.
final class EventStream: Sendable {
    private let connection: DaemonConnection
    private let slots: StreamSlots
    private let flow: Monitor<Flow>

    /// What the reader has read and the server not yet sent, and how the stream stands.
    private struct Flow: Sendable {
        var pending: [UInt8] = []
        var sent = 0
        /// The daemon closed the connection (or it failed): the end, once sent.
        var ended = false
        /// The HTTP side is over (or the server stops): the reader ends.
        var closed = false
        /// The suspended HTTP connection, to wake when there is something to send.
        var parked: (any StreamWaker)?
        /// The reader has ended and closed the daemon connection.
        var readerDone = false
        var drained: Bool { sent == pending.count }
    }

    /// Each line of the daemon's becomes one event (`Framer`); the reader owns it once
    /// the stream is open.
    private struct Framer: Sendable {
        /// Each event's SSE `id` is `<stream>-<n>`: a browser's EventSource sends the
        /// last one back as `Last-Event-ID` when it connects again.
        let streamID: Int64
        var count: Int64 = 0
        var atLineStart = true

        /// Each line of the daemon's becomes one event's `data:` (its JSON has no line
        /// break of its own), ended by the blank line that ends an event.
        mutating func frame(_ bytes: [UInt8], into out: inout [UInt8]) {
            for byte in bytes {
                if atLineStart {
                    count += 1
                    out.append(contentsOf: "id: \(streamID)-\(count)\ndata: ".utf8)
                    atLineStart = false
                }
                if byte == 0x0A {
                    out.append(contentsOf: [0x0A, 0x0A])
                    atLineStart = true
                } else {
                    out.append(byte)
                }
            }
        }
    }

    /// Read from the daemon at once, at most; framing adds 8 bytes a line.
    static let chunk = 16 << 10
    /// A comment when nothing happened for this long, so that a stream whose browser
    /// went away is noticed (a suspended connection is not timed out by the server).
    static let keepAliveSeconds = 15.0

    private init(connection: DaemonConnection, slots: StreamSlots, first: [UInt8]) {
        self.connection = connection
        self.slots = slots
        flow = Monitor(Flow(pending: first))
    }

    /// What a page that connects again is told first. Events are not kept between two
    /// streams (each is a subscription of its own, and the daemon queues events only
    /// for a live one): whatever happened while it was away is unknown, so it lists
    /// again, as after the daemon's own `dropped`.
    static let resumeNotice = Event(event: .dropped, message: """
        the event stream was interrupted, and the events sent meanwhile are not kept: list again
        """)

    /// Subscribes (on a connection attached to `token`'s web session in the system
    /// gateway; with the daemon's default scope: every root, every session of the
    /// user; `thumbnails` adds the thumbnail events) and returns the stream, or the
    /// daemon's refusal as an answer. `slots` must have been taken for it.
    /// `lastEventID`: the id a reconnecting browser last saw (`Last-Event-ID`), which
    /// makes the stream begin with `resumeNotice`.
    static func open(socketPath: String, token: String?, thumbnails: Bool, id: Int64, slots: StreamSlots,
                     readers: WorkerPool, lastEventID: String? = nil) -> Result<EventStream, GatewayError> {
        let connection: DaemonConnection
        do {
            if let token {
                connection = try DaemonConnection.attached(socketPath: socketPath, token: token)
            } else {
                connection = try DaemonConnection(socketPath: socketPath)
            }
        } catch {
            slots.giveBack()
            return .failure(error)
        }
        var framer = Framer(streamID: id)
        var early: [UInt8] = []
        func fail(_ error: GatewayError) -> Result<EventStream, GatewayError> {
            connection.close()
            slots.giveBack()
            return .failure(error)
        }
        do {
            try connection.send(DaemonPool.line(SubscribeRequest(thumbnails: thumbnails ? true : nil), id: id))
        } catch {
            return fail(GatewayError(502, GatewayError.daemonUnavailable, "curatord's socket: \(error)"))
        }
        let deadline = Deadline.after(seconds: 30)
        while true {
            let line: [UInt8]?
            do {
                line = try connection.readLine(until: deadline)
            } catch {
                return fail(error)
            }
            guard let line else {
                return fail(GatewayError(502, GatewayError.daemonUnavailable, "curatord closed the connection"))
            }
            guard let probe = try? Wire.makeDecoder().decode(Answer.self, from: Data(line)), probe.event == nil else {
                framer.frame(line + [0x0A], into: &early)  // an event before the answer
                continue
            }
            if probe.ok == true && probe.id == .number(id) {
                // The first bytes go out at once: a client learns it is subscribed.
                var first = Array(": subscribed\n\n".utf8)
                if let lastEventID, !lastEventID.isEmpty { framer.frame([UInt8](Wire.event(resumeNotice)), into: &first) }
                let stream = EventStream(connection: connection, slots: slots, first: first + early)
                do {
                    try readers.submit(whenFull: .refuse) { [framer] in stream.run(framer) }
                } catch {
                    return fail(GatewayError(503, GatewayError.tooManyStreams, "no thread for another event stream: \(error)"))
                }
                return .success(stream)
            }
            let code = probe.error?.code ?? .internalError
            return fail(GatewayError(ErrorStatus.status(for: code), code, probe.error?.message ?? "subscribe failed"))
        }
    }

    private struct Answer: Decodable {
        var id: RequestID?
        var ok: Bool?
        var event: String?
        var error: ProtocolError?
    }

    /// The reader: reads the daemon once the server has sent what it read before, and
    /// wakes the suspended HTTP connection when it has more. It owns the daemon
    /// connection and the stream's slot, and gives both back when it ends.
    private func run(_ start: Framer) {
        var framer = start
        defer {
            // Marked first: `close` interrupts the connection only while it is open.
            flow.withLock { $0.state.readerDone = true }
            connection.close()
            slots.giveBack()
        }
        while true {
            let open = flow.withLock { locked in
                _ = locked.wait { $0.closed || $0.drained }
                return !locked.state.closed
            }
            guard open else { return }
            var next: [UInt8] = []
            var ended = false
            do {
                if let bytes = try connection.readSome(limit: Self.chunk, until: .after(seconds: Self.keepAliveSeconds)) {
                    if bytes.isEmpty { ended = true } else { framer.frame(bytes, into: &next) }
                } else if framer.atLineStart {
                    // A comment cannot go in the middle of an event.
                    next = Array(": keep-alive\n\n".utf8)
                }
            } catch {
                ended = true
            }
            let stop = flow.withLock { locked in
                guard !locked.state.closed else { return true }
                if !next.isEmpty {
                    locked.state.pending = next
                    locked.state.sent = 0
                }
                locked.state.ended = ended
                if !next.isEmpty || ended, let parked = locked.state.parked {
                    locked.state.parked = nil
                    parked.wake()
                }
                return ended
            }
            if stop { return }
        }
    }

    /// Fills `out` with the next bytes of the stream: their count, or -1 at its end
    /// (the daemon closed the connection; the page's EventSource connects again), or 0
    /// when there is nothing yet: `suspend` has then been called, and `waker` is woken
    /// once there is (called under the stream's lock, so the wake never comes first).
    func fill(_ out: UnsafeMutableRawBufferPointer, suspend: () -> Void, waker: any StreamWaker) -> Int {
        flow.withLock { locked in
            if !locked.state.drained {
                let sent = locked.state.sent
                let count = min(out.count, locked.state.pending.count - sent)
                locked.state.pending.withUnsafeBytes { source in
                    guard let from = source.baseAddress, let to = out.baseAddress else { return }
                    to.copyMemory(from: from + sent, byteCount: count)
                }
                locked.state.sent += count
                if locked.state.drained { locked.broadcast() }
                return count
            }
            if locked.state.ended || locked.state.closed { return -1 }
            suspend()
            locked.state.parked = waker
            return 0
        }
    }

    /// The HTTP side is over, or the server stops: the reader ends (a read in progress
    /// is cut short), and a suspended connection is woken to find the end.
    func close() {
        flow.withLock { locked in
            locked.state.closed = true
            locked.broadcast()
            if let parked = locked.state.parked {
                locked.state.parked = nil
                parked.wake()
            }
            if !locked.state.readerDone { connection.interrupt() }
        }
    }
}

/// Wakes an HTTP connection that a stream's `fill` suspended.
protocol StreamWaker: Sendable {
    func wake()
}
