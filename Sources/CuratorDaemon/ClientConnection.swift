// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorCore
import CuratorProtocol
import CuratorSystem
import FoundationEssentials
import Glibc
import Synchronization

/// One client on its own thread: reads request lines, answers each in order, and
/// carries pushed events. Everything written goes through one outbox, flushed only
/// by this thread, so responses and events never interleave mid-line.
final class ClientConnection: EventSink, @unchecked Sendable {
    // @unchecked: `buffer` and `discarding` are touched by the connection thread only;
    // the outbox is shared and guarded by its mutex.
    let descriptor: FileDescriptor
    let peer: PeerCredentials
    let curator: Curator
    private let wake: Int32
    private let outbox = Mutex<Outbox>(Outbox())
    private var buffer: [UInt8] = []
    private var discarding = false
    private let decoder = Wire.makeDecoder()

    /// Pushed events beyond this are dropped and the subscriber is told to re-list;
    /// a client that stops reading cannot grow our memory.
    static let maxQueuedEventBytes = 16 << 20
    static let largeResponseBytes = 4 << 20

    struct Outbox {
        var pending: [UInt8] = []
        var sent = 0
        var eventBytes = 0
        var droppedEvents = false
        var closed = false
        var trimAfter = false
        var unsent: Int { pending.count - sent }
    }

    init(descriptor: FileDescriptor, peer: PeerCredentials, curator: Curator) throws(SystemError) {
        self.descriptor = descriptor
        self.peer = peer
        self.curator = curator
        wake = try syscall("eventfd") { curator_eventfd() }
    }

    deinit {
        Glibc.close(wake)
    }

    // MARK: EventSink

    func deliver(_ line: Data) -> Bool {
        let (accepted, mustWake) = outbox.withLock { box -> (Bool, Bool) in
            if box.closed { return (false, false) }
            if box.eventBytes + line.count > Self.maxQueuedEventBytes {
                if !box.droppedEvents {
                    box.droppedEvents = true
                    let notice = Wire.event(Event(event: .dropped, message: "events were dropped because this client read too slowly; list again"))
                    box.pending.append(contentsOf: notice)
                }
                return (true, true)
            }
            box.droppedEvents = false
            box.eventBytes += line.count
            box.pending.append(contentsOf: line)
            return (true, true)
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
            outbox.withLock { $0.closed = true }
            curator.clientDisconnected(self)
            descriptor.close()
        }
        let client = peer
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let wantsWrite = outbox.withLock { $0.unsent > 0 }
            var fds = [
                pollfd(fd: descriptor.rawValue, events: Int16(POLLIN) | (wantsWrite ? Int16(POLLOUT) : 0), revents: 0),
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
            if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
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
                    // The client hung up; finish what we owe only if it can still read.
                    return
                }
                consume(chunk[0..<count], client: client)
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
        enqueue([UInt8](Wire.failure(id: nil, error: error)))
    }

    private func answer(_ line: [UInt8], client: ClientContext) {
        // Blank lines (and a trailing CR from a telnet-like client) are ignored.
        var body = line
        if body.last == UInt8(ascii: "\r") { body.removeLast() }
        if body.allSatisfy({ $0 == 32 || $0 == 9 }) { return }
        let response: [UInt8]
        switch Wire.decodeRequest(Data(body)) {
        case .success(let request):
            response = curator.handle(request, client: client, sink: self)
        case .failure(let failure):
            response = [UInt8](Wire.failure(id: failure.id, error: failure.error))
        }
        enqueue(response)
    }

    private func enqueue(_ data: [UInt8]) {
        outbox.withLock { box in
            // A listing of every photo is 15 MB: taken over, not copied, when nothing waits.
            if box.unsent == 0 && box.pending.isEmpty { box.pending = data } else { box.pending.append(contentsOf: data) }
        }
    }

    /// Writes what the socket takes now. False when the client is gone.
    private func flush() -> Bool {
        while true {
            // Sent from the outbox itself, under its lock: the socket is non-blocking,
            // so the lock is held for one copy into the kernel, and nothing is copied here.
            let result: (sent: Int, asked: Int)?
            do {
                result = try outbox.withLock { (box) throws(SystemError) -> (sent: Int, asked: Int)? in
                    guard box.unsent > 0 else { return nil }
                    let range = box.sent..<box.pending.count
                    return (try UnixSocket.sendSome(descriptor, box.pending[range]), range.count)
                }
            } catch {
                return false
            }
            guard let (sent, asked) = result else { return true }
            let done = outbox.withLock { box -> Bool in
                box.sent += sent
                box.eventBytes = max(0, box.eventBytes - sent)
                if box.sent == box.pending.count {
                    if box.pending.capacity >= Self.largeResponseBytes { box.trimAfter = true }
                    box.pending.removeAll(keepingCapacity: box.pending.count < (1 << 20))
                    box.sent = 0
                    box.eventBytes = 0
                }
                return sent < asked
            }
            if outbox.withLock({ box in defer { box.trimAfter = false }; return box.trimAfter }) {
                // A listing of every photo is tens of MB, freed at once: hand it back to
                // the system rather than keep it as resident heap.
                curator_trim_heap()
            }
            if done { return true }
        }
    }
}
