// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials

/// `GET /api/v1/events`: a `subscribe` on a daemon connection of its own, its event
/// lines passed on as Server-Sent Events (`data: <the event's JSON>`, one per line).
///
/// Nothing is read from the daemon before the browser has taken what was read before:
/// the server asks for more only once the last chunk went out. So what this stream
/// holds is at most one chunk (framed), whatever the browser does. A browser that stops
/// reading leaves the events in the daemon's queue for this connection, which the daemon
/// bounds for any client (past 16 MiB it drops them and says `dropped`), and the server
/// closes a connection that has taken nothing for its timeout. Other streams have their
/// own connections and threads, and never wait for this one.
final class EventStream: @unchecked Sendable {
    // @unchecked: the server calls `fill` on the thread of this stream's HTTP connection
    // only, one call at a time, and releases the stream once, after the last call.
    private let connection: DaemonConnection
    private let slots: StreamSlots
    private var pending: [UInt8] = []
    private var sent = 0
    private var atLineStart = true
    /// Each event's SSE `id` is `<stream>-<n>`: a browser's EventSource sends the last
    /// one back as `Last-Event-ID` when it connects again.
    private let streamID: Int64
    private var count: Int64 = 0

    /// Read from the daemon at once, at most; framing adds 8 bytes a line.
    static let chunk = 16 << 10
    /// A comment when nothing happened for this long, so that a stream whose browser
    /// went away is noticed, and a healthy idle one is not timed out by the server.
    static let keepAliveSeconds = 15.0

    private init(connection: DaemonConnection, slots: StreamSlots, streamID: Int64) {
        self.connection = connection
        self.slots = slots
        self.streamID = streamID
    }

    /// What a page that connects again is told first. Events are not kept between two
    /// streams (each is a subscription of its own, and the daemon queues events only
    /// for a live one): whatever happened while it was away is unknown, so it lists
    /// again, as after the daemon's own `dropped`.
    static let resumeNotice = Event(event: .dropped, message: """
        the event stream was interrupted, and the events sent meanwhile are not kept: list again
        """)

    deinit {
        connection.close()
        slots.giveBack()
    }

    /// Subscribes (on a connection attached to `token`'s web session in the system
    /// gateway; with the daemon's default scope: every root, every session of the
    /// user; `thumbnails` adds the thumbnail events) and returns the stream, or the
    /// daemon's refusal as an answer. `slots` must have been taken for it.
    /// `lastEventID`: the id a reconnecting browser last saw (`Last-Event-ID`), which
    /// makes the stream begin with `resumeNotice`.
    static func open(socketPath: String, token: String?, thumbnails: Bool, id: Int64, slots: StreamSlots,
                     lastEventID: String? = nil) -> Result<EventStream, GatewayError> {
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
        let stream = EventStream(connection: connection, slots: slots, streamID: id)
        do {
            try connection.send(DaemonPool.line(SubscribeRequest(thumbnails: thumbnails ? true : nil), id: id))
        } catch {
            return .failure(GatewayError(502, GatewayError.daemonUnavailable, "curatord's socket: \(error)"))
        }
        let deadline = Deadline.after(seconds: 30)
        while true {
            let line: [UInt8]?
            do {
                line = try connection.readLine(until: deadline)
            } catch {
                return .failure(error)
            }
            guard let line else {
                return .failure(GatewayError(502, GatewayError.daemonUnavailable, "curatord closed the connection"))
            }
            guard let probe = try? Wire.makeDecoder().decode(Answer.self, from: Data(line)), probe.event == nil else {
                stream.frame(line + [0x0A])  // an event before the answer
                continue
            }
            if probe.ok == true && probe.id == .number(id) {
                // The first bytes go out at once: a client learns it is subscribed.
                var first = Array(": subscribed\n\n".utf8)
                if let lastEventID, !lastEventID.isEmpty {
                    let before = stream.pending
                    stream.pending = []
                    stream.frame([UInt8](Wire.event(resumeNotice)))
                    first += stream.pending
                    stream.pending = before
                }
                stream.pending = first + stream.pending
                return .success(stream)
            }
            let code = probe.error?.code ?? .internalError
            return .failure(GatewayError(ErrorStatus.status(for: code), code, probe.error?.message ?? "subscribe failed"))
        }
    }

    private struct Answer: Decodable {
        var id: RequestID?
        var ok: Bool?
        var event: String?
        var error: ProtocolError?
    }

    /// Fills `out` with the next bytes of the stream: their count, or -1 at its end (the
    /// daemon closed the connection; the page's EventSource connects again). Blocks until
    /// there is something to send.
    func fill(_ out: UnsafeMutableRawBufferPointer) -> Int {
        while sent == pending.count {
            pending.removeAll(keepingCapacity: true)
            sent = 0
            let bytes: [UInt8]?
            do {
                bytes = try connection.readSome(limit: Self.chunk, until: .after(seconds: Self.keepAliveSeconds))
            } catch {
                return -1
            }
            guard let bytes else {
                // A comment cannot go in the middle of an event.
                if atLineStart { pending = Array(": keep-alive\n\n".utf8) }
                continue
            }
            if bytes.isEmpty { return -1 }
            frame(bytes)
        }
        let count = min(out.count, pending.count - sent)
        pending.withUnsafeBytes { source in
            guard let from = source.baseAddress, let to = out.baseAddress else { return }
            to.copyMemory(from: from + sent, byteCount: count)
        }
        sent += count
        return count
    }

    /// Each line of the daemon's becomes one event's `data:` (its JSON has no line
    /// break of its own), ended by the blank line that ends an event.
    private func frame(_ bytes: [UInt8]) {
        for byte in bytes {
            if atLineStart {
                count += 1
                pending.append(contentsOf: "id: \(streamID)-\(count)\ndata: ".utf8)
                atLineStart = false
            }
            if byte == 0x0A {
                pending.append(contentsOf: [0x0A, 0x0A])
                atLineStart = true
            } else {
                pending.append(byte)
            }
        }
    }
}
