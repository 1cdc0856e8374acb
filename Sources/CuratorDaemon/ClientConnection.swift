// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorCore
import CuratorProtocol
import CuratorSystem
import FoundationEssentials
import Glibc
import Synchronization

/// One client on its own thread: reads request lines, answers each in order, and
/// carries pushed events. Everything written goes through one outbox, a queue sent
/// only by this thread, so responses and events never interleave mid-line.
final class ClientConnection: EventSink, WebIdentityHolder, @unchecked Sendable {
    // @unchecked: `input`, `sending`, `sent` and `piece` are touched by the
    // connection thread only; the outbox is shared and guarded by its mutex.
    let descriptor: FileDescriptor
    let peer: PeerCredentials
    let curator: Curator
    /// Seconds without a request after which a connection that is not subscribed
    /// and owes nothing is closed; 0 for never.
    let idleTimeout: Double
    private let wake: Int32
    private let outbox = Mutex<Outbox>(Outbox())
    /// What the client sent that is not answered yet.
    private var input = RequestLines()
    /// What is being sent now, taken off the outbox's queue; sent outside its lock.
    private var sending: Outbox.Outgoing?
    private var sent = 0
    /// The piece of a listing being sent.
    private var piece: ListingPieces.Piece?
    /// Set at shutdown: read no more, send what is owed, say so, close.
    private let stopping = Atomic<Bool>(false)
    /// True while received requests are being answered (a batch, a sync): a client
    /// that hung up meanwhile still holds its place until they are done.
    private let answering = Atomic<Bool>(false)
    /// True once the descriptor is closed (its number may then be another file's).
    private let descriptorClosed = Mutex<Bool>(false)
    /// Whom the requests are answered as: the peer, or after `web.attach` the web
    /// session's user (and that session's token).
    private let acting: Mutex<(credentials: PeerCredentials, token: String?)>
    /// Moves this connection's place in the server's counts from one uid to another,
    /// or says why that user may not have one more.
    private let rebind: @Sendable (_ from: UInt32, _ to: UInt32) -> ProtocolError?

    static let largeResponseBytes = 4 << 20
    static let sessionCheckMilliseconds: Int32 = 5000

    init(descriptor: FileDescriptor, peer: PeerCredentials, curator: Curator, idleTimeout: Double,
         rebind: @escaping @Sendable (_ from: UInt32, _ to: UInt32) -> ProtocolError? = { _, _ in nil }) throws(SystemError) {
        self.descriptor = descriptor
        self.peer = peer
        self.rebind = rebind
        acting = Mutex((credentials: peer, token: nil))
        self.curator = curator
        self.idleTimeout = idleTimeout
        wake = try syscall("eventfd") { SystemCalls.eventfd() }
    }

    deinit {
        _ = SystemCalls.close(wake)  // an eventfd: nothing to lose
    }

    // MARK: EventSink

    func deliver(_ line: Data) -> Bool {
        // The connection thread is woken only when the queue was empty: with lines
        // queued it is sending them already, or waiting for the socket to take more,
        // and it sends until the queue is empty (a burst of 1 000 events was 1 000
        // wake-ups of it).
        let (accepted, mustWake) = outbox.withLock { box -> (Bool, Bool) in
            let wasEmpty = box.isEmpty
            return (box.queueEvent([UInt8](line)), wasEmpty)
        }
        if accepted && mustWake {
            var one: UInt64 = 1
            _ = SystemCalls.write(wake, &one, 8)
        }
        return accepted
    }

    // MARK: WebIdentityHolder

    var attachedToken: String? { acting.withLock { $0.token } }

    /// The uid this connection counts against (the peer's, or the attached user's).
    var actingUID: UInt32 { acting.withLock { $0.credentials.uid } }

    func attach(as credentials: PeerCredentials, token: String) throws(ProtocolError) {
        if let refusal = rebind(peer.uid, credentials.uid) { throw refusal }
        acting.withLock { $0 = (credentials, token) }
    }

    // MARK: the thread

    func run() {
        defer {
            if case .listing(let pieces)? = sending { pieces.cancel() }
            outbox.withLock { $0.closed = true }
            curator.clientDisconnected(self)
            descriptorClosed.withLock { closed in
                try? descriptor.close()  // the client's socket: nothing to lose
                closed = true
            }
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        // Set when the client has closed its side for writing (`socat`, a script's
        // `shutdown`): it may still read. What it is owed is sent first, a listing of
        // 15 MB included; then the connection ends.
        var inputClosed = false
        // Idle: nothing received, nothing owed, since then. A subscriber never is.
        var lastActivity = MonotonicClock.nanoseconds()
        var subscribed = false
        while true {
            // Requests are answered while the client is owed little; past that they
            // wait (here, then in the socket, then in the client's own writes) until it
            // reads: a client that sends and never reads cannot grow our memory.
            answerWaitingRequests()
            if !flush() { return }
            let (wantsWrite, full) = outbox.withLock { box in (sending != nil || !box.isEmpty, box.isFull) }
            if inputClosed && !wantsWrite && !input.hasLine { return }
            let closing = stopping.load(ordering: .acquiring)
            // Lines that waited behind what was owed (a listing) are answered now that
            // it is sent: the client sent them already and may send nothing more.
            if input.hasLine && !full && !closing { continue }
            if closing && !wantsWrite {
                say(Curator.stoppingNotice)
                return
            }
            if wantsWrite { lastActivity = MonotonicClock.nanoseconds() }
            let reading = !inputClosed && !full && !closing
            var fds = [
                pollfd(fd: descriptor.rawValue, events: (reading ? Int16(POLLIN) : 0) | (wantsWrite ? Int16(POLLOUT) : 0), revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            let idleAt = idleTimeout > 0 && !subscribed && !wantsWrite ? lastActivity + UInt64(idleTimeout * 1e9) : nil
            // Attached to a web session: looked at every few seconds, so that a logout or
            // an expiry also ends a subscriber, which sends no request to be refused.
            let token = attachedToken
            var wait = idleAt.map(Self.milliseconds(until:)) ?? -1
            if token != nil { wait = wait < 0 ? Self.sessionCheckMilliseconds : min(wait, Self.sessionCheckMilliseconds) }
            let n = SystemCalls.poll(&fds, 2, wait)
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            if let token, !curator.webSessionStillLive(token) {
                say(Curator.notSignedInError)
                return
            }
            if n == 0, let idleAt, MonotonicClock.nanoseconds() >= idleAt {
                if curator.isSubscribed(self) {
                    subscribed = true
                    continue
                }
                let seconds = idleTimeout == idleTimeout.rounded() ? "\(Int(idleTimeout))" : "\(idleTimeout)"
                say(ProtocolError(.idleTimeout, "curatord closed this connection after \(seconds) s without a request "
                                  + "(idle_timeout_seconds; a subscribed connection is never idle); connect again."))
                log.debug("closed an idle connection (uid \(peer.uid), pid \(peer.pid))")
                return
            }
            if fds[1].revents != 0 {
                var value: UInt64 = 0
                _ = SystemCalls.read(wake, &value, 8)
            }
            if inputClosed && fds[0].revents & Int16(POLLHUP | POLLERR) != 0 {
                return  // gone both ways: nothing more can be sent
            }
            if reading && fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let count: Int
                do {
                    guard let received = try chunk.withUnsafeMutableBytes({ buf in
                        try UnixSocket.receive(descriptor, into: buf, blocking: false)
                    }) else { continue }
                    count = received
                } catch {
                    return
                }
                if count == 0 {
                    // End of input: a request line left unfinished is dropped.
                    inputClosed = true
                } else {
                    input.append(chunk[0..<count])
                    lastActivity = MonotonicClock.nanoseconds()
                }
            }
        }
    }

    /// A poll timeout that ends at `deadline`, rounded up (0 once it has passed).
    private static func milliseconds(until deadline: UInt64) -> Int32 {
        let now = MonotonicClock.nanoseconds()
        guard deadline > now else { return 0 }
        return Int32(min((deadline - now) / 1_000_000 + 1, UInt64(Int32.max)))
    }

    /// The client has closed its socket and no request of it is being answered: the
    /// thread is about to see it and end. For the server's counts, from its thread.
    var isLeaving: Bool {
        if answering.load(ordering: .acquiring) { return false }
        return descriptorClosed.withLock { closed in
            if closed { return true }
            var fd = pollfd(fd: descriptor.rawValue, events: 0, revents: 0)
            return SystemCalls.poll(&fd, 1, 0) == 1 && fd.revents & Int16(POLLHUP) != 0
        }
    }

    /// Shutdown: the thread sends what is owed, then says so and ends.
    func stop() {
        stopping.store(true, ordering: .releasing)
        var one: UInt64 = 1
        _ = SystemCalls.write(wake, &one, 8)
    }

    /// The connection is about to be closed by us: the client is told why, with no
    /// id (it may be about to send a request, and would otherwise see the
    /// connection just end). Best effort: it owes nothing, the socket takes it.
    private func say(_ error: ProtocolError) {
        let line = [UInt8](Wire.failure(id: nil, error: error))
        _ = line.withUnsafeBytes { sendSome($0) }
    }

    /// Answers the whole request lines received, in order, until the client is owed
    /// enough (`Outbox.isFull`); the rest wait in `input`.
    private func answerWaitingRequests() {
        defer { answering.store(false, ordering: .releasing) }
        while !outbox.withLock({ $0.isFull }), let line = input.next() {
            answering.store(true, ordering: .releasing)
            switch line {
            // Read for each line: a `web.attach` changes it for the lines after it.
            case .request(let bytes): answer(bytes, client: acting.withLock { $0.credentials })
            case .tooLarge: reject(.requestTooLarge)
            }
        }
    }

    private func reject(_ code: ErrorCode) {
        let error = ProtocolError(code, "A request line may be at most \(ProtocolInfo.maxRequestBytes) bytes; this one was longer and was ignored.")
        outbox.withLock { $0.queueAnswer([UInt8](Wire.failure(id: nil, error: error))) }
    }

    private func answer(_ line: [UInt8], client: ClientContext) {
        // Blank lines (and a trailing CR from a telnet-like client) are ignored.
        var body = line
        if body.last == UInt8(ascii: "\r") { body.removeLast() }
        if body.allSatisfy({ $0 == 32 || $0 == 9 }) { return }
        switch Wire.decodeRequest(Data(body), known: CommandTable.known) {
        case .success(let request):
            // Attached to a web session: each request finds it alive, or is refused
            // (a logout, an expiry), and the connection is no one's any more.
            if let token = attachedToken, !curator.webSessionIsLive(token) {
                outbox.withLock { $0.queueAnswer([UInt8](Wire.failure(id: request.id, error: Curator.notSignedInError))) }
                return
            }
            curator.answer(request, client: client, sink: self) { answer in
                switch answer {
                case .line(let bytes): outbox.withLock { $0.queueAnswer(bytes) }
                case .passing(let bytes, let file): outbox.withLock { $0.queueAnswer(bytes, passing: file) }
                case .listing(let stream): outbox.withLock { $0.queueListing(ListingPieces(stream)) }
                }
            }
        case .failure(let failure):
            outbox.withLock { $0.queueAnswer([UInt8](Wire.failure(id: failure.id, error: failure.error))) }
        }
    }

    /// Writes what the socket takes now. False when the client is gone.
    private func flush() -> Bool {
        while true {
            if sending == nil {
                sending = outbox.withLock { $0.takeNext() }
                sent = 0
            }
            switch sending {
            case nil:
                return true
            case .bytes(let bytes, let answerBytes)?:
                guard let count = bytes.withUnsafeBytes({ sendSome(UnsafeRawBufferPointer(rebasing: $0[sent...])) }) else { return false }
                sent += count
                if sent < bytes.count { return true }  // the socket is full
                sending = nil
                let idle = outbox.withLock { box in
                    box.sent(bytes.count, answerBytes: answerBytes)
                    return box.isEmpty
                }
                // A large answer freed at once: hand it back to the system rather
                // than keep it as resident heap.
                if bytes.count >= Self.largeResponseBytes && idle { curator_trim_heap() }
            case .passing(let bytes, let file)?:
                // The file goes with the first bytes sent; the rest go plain.
                let from = sent
                let count = bytes.withUnsafeBytes { raw in
                    from == 0 ? sendSome(raw, passing: file.descriptor) : sendSome(UnsafeRawBufferPointer(rebasing: raw[from...]))
                }
                guard let count else { return false }
                sent += count
                if sent < bytes.count { return true }  // the socket is full
                sending = nil  // the file is the client's now; ours closes
                outbox.withLock { $0.sent(bytes.count, answerBytes: bytes.count) }
            case .listing(let pieces)?:
                if piece == nil {
                    piece = pieces.next()
                    sent = 0
                }
                guard let current = piece else {
                    sending = nil  // the whole line is out
                    continue
                }
                let from = sent
                guard let count = current.withBytes({ sendSome(UnsafeRawBufferPointer(rebasing: $0[from...])) }) else { return false }
                sent += count
                if sent < current.written { return true }  // the socket is full
                pieces.recycle(current)
                piece = nil
            }
        }
    }

    /// Sends what the socket takes of `bytes` now, with `passing` attached; nil when
    /// the client is gone.
    private func sendSome(_ bytes: UnsafeRawBufferPointer, passing: FileDescriptor) -> Int? {
        do {
            return try UnixSocket.sendSome(descriptor, bytes, passing: passing)
        } catch {
            return nil
        }
    }

    /// Sends what the socket takes of `bytes` now; nil when the client is gone.
    private func sendSome(_ bytes: UnsafeRawBufferPointer) -> Int? {
        do {
            return try UnixSocket.sendSome(descriptor, bytes)
        } catch {
            return nil
        }
    }
}
