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
final class ClientConnection: EventSink, @unchecked Sendable {
    // @unchecked: `buffer`, `discarding`, `sending` and `piece` are touched by the
    // connection thread only; the outbox is shared and guarded by its mutex.
    let descriptor: FileDescriptor
    let peer: PeerCredentials
    let curator: Curator
    let reloader: ConfigReloader
    private let wake: Int32
    private let outbox = Mutex<Outbox>(Outbox())
    private var buffer: [UInt8] = []
    private var discarding = false
    private let decoder = Wire.makeDecoder()
    /// What is being sent now, taken off the outbox's queue; sent outside its lock.
    private var sending: Outgoing?
    private var sent = 0
    /// The piece of a listing being sent.
    private var piece: ListingPieces.Piece?

    /// Pushed events beyond this are dropped and the subscriber is told to re-list;
    /// a client that stops reading cannot grow our memory.
    static let maxQueuedEventBytes = 16 << 20
    static let largeResponseBytes = 4 << 20

    /// A response or events (bytes), or a listing written as it is sent.
    enum Outgoing {
        case bytes([UInt8])
        case listing(ListingPieces)
    }

    struct Outbox {
        var queue: [Outgoing] = []
        var eventBytes = 0
        var droppedEvents = false
        var closed = false

        /// Small lines (events come one at a time) join the last queued bytes; large
        /// ones (a selection of many photos) are queued as they are, not copied.
        mutating func append(_ bytes: [UInt8]) {
            let small = 64 << 10
            if bytes.count < small, case .bytes(var last)? = queue.last, last.count < small {
                queue.removeLast()  // `last` is then the only reference: appended in place
                last.append(contentsOf: bytes)
                queue.append(.bytes(last))
            } else {
                queue.append(.bytes(bytes))
            }
        }
    }

    init(descriptor: FileDescriptor, peer: PeerCredentials, curator: Curator, reloader: ConfigReloader) throws(SystemError) {
        self.descriptor = descriptor
        self.peer = peer
        self.curator = curator
        self.reloader = reloader
        wake = try syscall("eventfd") { curator_eventfd() }
    }

    deinit {
        Glibc.close(wake)
    }

    // MARK: EventSink

    func deliver(_ line: Data) -> Bool {
        // The connection thread is woken only when the queue was empty: with lines
        // queued it is sending them already, or waiting for the socket to take more,
        // and it sends until the queue is empty (a burst of 1 000 events was 1 000
        // wake-ups of it).
        let (accepted, mustWake) = outbox.withLock { box -> (Bool, Bool) in
            if box.closed { return (false, false) }
            let wasEmpty = box.queue.isEmpty
            if box.eventBytes + line.count > Self.maxQueuedEventBytes {
                if !box.droppedEvents {
                    box.droppedEvents = true
                    let notice = Wire.event(Event(event: .dropped, message: "events were dropped because this client read too slowly; list again"))
                    box.append([UInt8](notice))
                }
                return (true, wasEmpty)
            }
            box.droppedEvents = false
            box.eventBytes += line.count
            box.append([UInt8](line))
            return (true, wasEmpty)
        }
        if mustWake {
            var one: UInt64 = 1
            _ = Glibc.write(wake, &one, 8)
        }
        return accepted
    }

    // MARK: the thread

    func run() {
        defer {
            if case .listing(let pieces)? = sending { pieces.cancel() }
            outbox.withLock { $0.closed = true }
            curator.clientDisconnected(self)
            descriptor.close()
        }
        let client = peer
        var chunk = [UInt8](repeating: 0, count: 65536)
        // Set when the client has closed its side for writing (`socat`, a script's
        // `shutdown`): it may still read. What it is owed is sent first, a listing of
        // 15 MB included; then the connection ends.
        var inputClosed = false
        while true {
            let wantsWrite = sending != nil || outbox.withLock { !$0.queue.isEmpty }
            if inputClosed && !wantsWrite { return }
            var fds = [
                pollfd(fd: descriptor.rawValue, events: (inputClosed ? 0 : Int16(POLLIN)) | (wantsWrite ? Int16(POLLOUT) : 0), revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            let n = poll(&fds, 2, -1)
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 {
                var value: UInt64 = 0
                _ = Glibc.read(wake, &value, 8)
            }
            if inputClosed && fds[0].revents & Int16(POLLHUP | POLLERR) != 0 {
                return  // gone both ways: nothing more can be sent
            }
            if !inputClosed && fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
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
                    consume(chunk[0..<count], client: client)
                }
            }
            if !flush() { return }
        }
    }

    /// Splits input into lines and answers each complete one.
    private func consume(_ bytes: ArraySlice<UInt8>, client: ClientContext) {
        var start = bytes.startIndex
        while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let piece = bytes[start..<newline]
            start = newline + 1
            if discarding {
                discarding = false
                buffer.removeAll(keepingCapacity: true)
                continue
            }
            if buffer.count + piece.count > ProtocolInfo.maxRequestBytes {
                buffer.removeAll(keepingCapacity: true)
                reject(.requestTooLarge)
                continue
            }
            buffer.append(contentsOf: piece)
            let line = buffer
            buffer.removeAll(keepingCapacity: true)
            answer(line, client: client)
        }
        let rest = bytes[start...]
        if rest.isEmpty || discarding { return }
        if buffer.count + rest.count > ProtocolInfo.maxRequestBytes {
            buffer.removeAll(keepingCapacity: true)
            discarding = true
            reject(.requestTooLarge)
        } else {
            buffer.append(contentsOf: rest)
        }
    }

    private func reject(_ code: ErrorCode) {
        let error = ProtocolError(code, "A request line may be at most \(ProtocolInfo.maxRequestBytes) bytes; this one was longer and was ignored.")
        enqueue(.bytes([UInt8](Wire.failure(id: nil, error: error))))
    }

    private func answer(_ line: [UInt8], client: ClientContext) {
        // Blank lines (and a trailing CR from a telnet-like client) are ignored.
        var body = line
        if body.last == UInt8(ascii: "\r") { body.removeLast() }
        if body.allSatisfy({ $0 == 32 || $0 == 9 }) { return }
        switch Wire.decodeRequest(Data(body)) {
        case .success(let request):
            // A reload is the daemon's business (its command line, systemd), not the state's:
            // answered here, on this thread, once the new configuration is in force.
            if case .reload = request.command { return enqueue(.bytes(reloader.answer(request, peer: client))) }
            curator.answer(request, client: client, sink: self) { answer in
                switch answer {
                case .line(let bytes): enqueue(.bytes(bytes))
                case .listing(let stream): enqueue(.listing(ListingPieces(stream)))
                }
            }
        case .failure(let failure):
            enqueue(.bytes([UInt8](Wire.failure(id: failure.id, error: failure.error))))
        }
    }

    private func enqueue(_ outgoing: Outgoing) {
        outbox.withLock { box in
            if case .bytes(let bytes) = outgoing { box.append(bytes) } else { box.queue.append(outgoing) }
        }
    }

    /// Writes what the socket takes now. False when the client is gone.
    private func flush() -> Bool {
        while true {
            if sending == nil {
                sending = outbox.withLock { box in box.queue.isEmpty ? nil : box.queue.removeFirst() }
                sent = 0
            }
            switch sending {
            case nil:
                return true
            case .bytes(let bytes)?:
                guard let count = bytes.withUnsafeBytes({ sendSome(UnsafeRawBufferPointer(rebasing: $0[sent...])) }) else { return false }
                sent += count
                if sent < bytes.count { return true }  // the socket is full
                sending = nil
                let idle = outbox.withLock { box in
                    box.eventBytes = max(0, box.eventBytes - bytes.count)
                    return box.queue.isEmpty
                }
                // A large answer freed at once: hand it back to the system rather
                // than keep it as resident heap.
                if bytes.count >= Self.largeResponseBytes && idle { curator_trim_heap() }
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
                guard let count = current.writer.withBytes({ sendSome(UnsafeRawBufferPointer(rebasing: $0[from...])) }) else { return false }
                sent += count
                if sent < current.writer.written { return true }  // the socket is full
                pieces.recycle(current)
                piece = nil
            }
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
