// SPDX-License-Identifier: GPL-2.0-or-later
import CMicroHTTPD
import CWebShim
import CuratorSystem
import Glibc
import Synchronization

/// libmicrohttpd: it parses HTTP, enforces the connection limits and timeouts, and
/// calls `handle` on the thread of its pool that polls the connection. What answers
/// at once (the page's files, a photo file kept open, a refusal) is answered there;
/// what waits on the daemon is answered on a thread of `waiters` while the
/// connection is suspended, so that it holds no one else's. This file is the only
/// one that sees the library's types; the decisions are the `Router`'s.
final class HTTPServer: Sendable {
    struct Limits: Sendable {
        /// Connections at once (a page holds a few: requests and an event stream).
        var connections: UInt32 = 64
        /// Seconds a connection may go without sending or receiving anything.
        var timeoutSeconds: UInt32 = 60
        /// A connection's request line, headers and buffers, in bytes.
        var connectionMemory = 64 << 10
        /// The threads that poll the connections: one a core.
        var threads = UInt32(max(1, min(sysconf(Int32(_SC_NPROCESSORS_ONLN)), 8)))
    }

    let router: Router
    /// Answers that wait on the daemon: a thread each, up to one a connection, so a
    /// slow answer holds its own thread and no other connection waits for it.
    private let waiters: WorkerPool
    /// What an answer that would wait, or a new event stream, gets once `stop` began.
    private static var stopping: HTTPAnswer { GatewayError(503, GatewayError.daemonUnavailable, "the gateway is stopping").answer }
    /// Connections suspended while a waiter answers them, and the open event streams:
    /// the library must not be stopped while any connection is suspended.
    private let suspended = Monitor(Suspended())

    private struct Suspended: Sendable {
        var waiting = 0
        var streams: [ObjectIdentifier: EventStream] = [:]
        /// `stop` has begun: nothing is suspended any more.
        var stopping = false
    }
    /// HTTPS: the certificate and key, PEM.
    struct TLS: Sendable {
        var certificate: String
        var key: String
        /// GnuTLS priorities: TLS 1.2 and 1.3 only, the library's default ciphers (no
        /// compression: GnuTLS has none since 3.6).
        static let priorities = "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"
    }
    // Set once in `start`, before the server runs; read by its threads after.
    nonisolated(unsafe) private var tls = false
    // The daemon handle is set once in `start`, before the server runs, and read once
    // in `stop`, after it has: the library's threads never touch it.
    nonisolated(unsafe) private var daemon: OpaquePointer?

    init(router: Router, connections: UInt32 = Limits().connections) {
        self.router = router
        waiters = WorkerPool(name: "curatord-wait", threads: Int(connections), stackSize: 256 << 10, keepIdleSeconds: 10)
    }

    /// Serves `listener` (a listening socket, which the server owns from now on).
    func start(listener: FileDescriptor, limits: Limits, tls files: TLS? = nil) throws(SystemError) {
        let cLimits = curator_web_limits(connections: limits.connections, timeout_seconds: limits.timeoutSeconds,
                                         connection_memory: limits.connectionMemory, threads: limits.threads)
        let context = Unmanaged.passUnretained(self).toOpaque()
        tls = files != nil
        let started = files.map { files in
            files.certificate.withCString { certificate in
                files.key.withCString { key in
                    TLS.priorities.withCString { priorities in
                        var settings = curator_web_tls(certificate: certificate, key: key, priorities: priorities)
                        return serve(listener, cLimits, &settings, context)
                    }
                }
            }
        } ?? serve(listener, cLimits, nil, context)
        guard let started else {
            try? listener.close()  // never served: nothing to lose
            throw SystemError(tls ? "MHD_start_daemon (TLS)" : "MHD_start_daemon", errno: Errno(errno == 0 ? EINVAL : errno))
        }
        daemon = started
    }

    private func serve(_ listener: FileDescriptor, _ cLimits: curator_web_limits, _ settings: UnsafePointer<curator_web_tls>?,
                       _ context: UnsafeMutableRawPointer) -> OpaquePointer? {
        curator_web_start(listener.rawValue, cLimits, settings, { cls, connection, url, method, _, upload, size, state in
            guard let cls, let connection, let url, let method, let size, let state else { return .NO }
            let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
            return server.handle(connection, url: url, method: method, upload: upload, size: size, state: state) ? .YES : .NO
        }, context, { _, _, state, _ in
            // The request is over (answered, refused or cut off): its exchange goes.
            guard let state, let exchange = state.pointee else { return }
            Unmanaged<Exchange>.fromOpaque(exchange).release()
            state.pointee = nil
        }, nil)
    }

    /// Ends the event streams (waking their suspended connections) and waits up to
    /// `seconds` for the answers in progress; the library is stopped only with no
    /// connection suspended (it aborts otherwise): past the wait, it is left to the
    /// process's exit.
    func stop(waitingUpTo seconds: Double = 5) {
        let streams = suspended.withLock { locked in
            locked.state.stopping = true
            return Array(locked.state.streams.values)
        }
        for stream in streams { stream.close() }
        let idle = suspended.withLock { locked in locked.wait(until: .after(seconds: seconds)) { $0.waiting == 0 } }
        // The library resumes what was woken before it closes every connection.
        if idle, let daemon { MHD_stop_daemon(daemon) }
        daemon = nil
    }

    /// One request in progress: what was decided from its head, and its body so far.
    private final class Exchange {
        /// What the head decided, when that is the answer.
        var decision: Router.Decision?
        var command: String?
        var head: RequestHead?
        /// A login or logout of the system gateway, when that is the request.
        var login: Bool?
        var body: [UInt8] = []
        /// Bytes of body received, kept or not.
        var received = 0
        var tooLarge = false
        var answered = false
        /// A waiter is making the answer; the connection is suspended meanwhile.
        var waiting = false
        /// The waiter's answer, queued when the library calls again after the resume.
        let outcome = OutcomeBox()
    }

    private final class OutcomeBox: Sendable {
        let value = Mutex<Outcome?>(nil)
    }

    /// What a waiter made.
    private enum Outcome: Sendable {
        case answer(HTTPAnswer)
        case file(FileAnswer)
        case events(EventStream)
    }

    /// A connection pointer handed to the waiter that resumes it.
    private struct Parked: StreamWaker, @unchecked Sendable {
        // @unchecked: the library allows MHD_resume_connection from any thread, once per
        // suspension; the pointer is not dereferenced here.
        let connection: OpaquePointer
        func wake() { MHD_resume_connection(connection) }
    }

    /// Called once with the head, then once per piece of body, then once with none.
    private func handle(_ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
                        upload: UnsafePointer<CChar>?, size: UnsafeMutablePointer<Int>,
                        state: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> Bool {
        guard let raw = state.pointee else {
            let exchange = Exchange()
            state.pointee = Unmanaged.passRetained(exchange).toOpaque()
            let (client, secure) = router.proxies.resolve(
                peer: peer(connection), tls: tls, forwardedFor: value(connection, .HEADER_KIND, "X-Forwarded-For"),
                forwardedProto: value(connection, .HEADER_KIND, "X-Forwarded-Proto"))
            var head = RequestHead(
                method: String(cString: method), path: String(cString: url),
                host: value(connection, .HEADER_KIND, "Host"), origin: value(connection, .HEADER_KIND, "Origin"),
                marker: value(connection, .HEADER_KIND, HostPolicy.requestHeader),
                session: value(connection, .COOKIE_KIND, Router.cookieName(secure: secure)),
                token: value(connection, .GET_ARGUMENT_KIND, "token"),
                contentLength: value(connection, .HEADER_KIND, "Content-Length"),
                thumbnails: value(connection, .GET_ARGUMENT_KIND, "thumbnails"),
                photo: PhotoFetcher.Conditions(
                    ifNoneMatch: value(connection, .HEADER_KIND, "If-None-Match"), range: value(connection, .HEADER_KIND, "Range"),
                    ifRange: value(connection, .HEADER_KIND, "If-Range"), version: value(connection, .GET_ARGUMENT_KIND, "v")))
            head.client = client
            head.secure = secure
            head.lastEventID = value(connection, .HEADER_KIND, "Last-Event-ID")
            // A body framed two ways (two lengths, or a length and chunks) is read one
            // way here and maybe the other by a proxy in front: the request after it
            // would be smuggled past the proxy. Refused whole.
            let lengths = curator_web_header_count(connection, "Content-Length")
            let codings = curator_web_header_count(connection, "Transfer-Encoding")
            let decision = lengths + min(codings, 1) > 1 || codings > 1
                ? Router.Decision.answer(GatewayError(400, .badRequest, "a body framed twice (Content-Length and Transfer-Encoding, or either twice)").answer)
                : router.begin(head)
            exchange.head = head
            // An answer is queued once the request is whole, so the connection can be
            // kept alive for the next; a refusal of a request whose body is still to
            // come is sent at once, and the connection closed, rather than read it.
            let bodyFollows = (head.contentLength.flatMap(UInt64.init) ?? 0) > 0
                || value(connection, .HEADER_KIND, "Transfer-Encoding") != nil
            switch decision {
            case .answer(let answer) where bodyFollows:
                exchange.answered = true
                return queue(answer, on: connection)
            case .readBody(let command):
                exchange.command = command
            case .session(let login):
                exchange.login = login
            default:
                exchange.decision = decision
            }
            return true
        }
        let exchange = Unmanaged<Exchange>.fromOpaque(raw).takeUnretainedValue()
        if size.pointee > 0 {
            let count = size.pointee
            size.pointee = 0
            exchange.received += count
            if exchange.received > Router.bodyLimit * 4 { return false }  // closes the connection
            if exchange.answered || exchange.tooLarge { return true }  // refused already: the rest is dropped
            guard exchange.received <= Router.bodyLimit, let upload else {
                // A chunked body gives no length ahead. The library lets an answer be
                // queued only before the body or after it: the rest is read and dropped,
                // up to a bound past which the connection is simply closed.
                exchange.tooLarge = true
                exchange.body = []
                return true
            }
            upload.withMemoryRebound(to: UInt8.self, capacity: count) { exchange.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count)) }
            return true
        }
        if exchange.waiting {
            // Called again after the resume: the waiter's answer goes out.
            guard let outcome = exchange.outcome.value.withLock({ $0.take() }) else { return true }
            exchange.waiting = false
            return queue(outcome, on: connection)
        }
        guard !exchange.answered else { return true }
        exchange.answered = true
        if exchange.tooLarge { return queue(Router.tooLarge, on: connection) }
        guard let head = exchange.head else { return true }
        let router = router
        switch exchange.decision {
        case .answer(let answer)?: return queue(answer, on: connection)
        case .events?:
            return answerElsewhere(connection, exchange) {
                switch router.openEvents(head) {
                case .success(let stream): .events(stream)
                case .failure(let error): .answer(error.answer)
                }
            }
        case .photo(let address, let conditions)?:
            if let kept = router.cachedPhoto(address, conditions, head: head) { return queue(Self.outcome(kept), on: connection) }
            return answerElsewhere(connection, exchange) { Self.outcome(router.fetchPhoto(address, conditions, head: head)) }
        case .readBody, .session, nil: break
        }
        let body = exchange.body
        if let login = exchange.login {
            return answerElsewhere(connection, exchange) { .answer(router.finishSession(login: login, body: body, head: head)) }
        }
        guard let command = exchange.command else { return true }
        return answerElsewhere(connection, exchange) { .answer(router.finish(command: command, body: body, head: head)) }
    }

    private static func outcome(_ fetched: PhotoFetcher.Outcome) -> Outcome {
        switch fetched {
        case .answer(let answer): .answer(answer)
        case .file(let file): .file(file)
        }
    }

    /// Suspends the connection and has a waiter make its answer and resume it. The
    /// suspension comes first: the resume must never find the connection running.
    private func answerElsewhere(_ connection: OpaquePointer, _ exchange: Exchange,
                                 _ make: @escaping @Sendable () -> Outcome) -> Bool {
        // Counted under the lock `stop` sets `stopping` under: once it waits, no
        // connection is suspended any more.
        let admitted = suspended.withLock { locked in
            guard !locked.state.stopping else { return false }
            locked.state.waiting += 1
            return true
        }
        guard admitted else {
            return queue(Self.stopping, on: connection)
        }
        exchange.waiting = true
        MHD_suspend_connection(connection)
        let parked = Parked(connection: connection)
        let outcome = exchange.outcome
        let done: @Sendable () -> Void = { [suspended] in
            parked.wake()
            suspended.withLock { locked in
                locked.state.waiting -= 1
                locked.broadcast()
            }
        }
        do {
            try waiters.submit(whenFull: .refuse) {
                let made = make()
                outcome.value.withLock { $0 = made }
                done()
            }
        } catch {
            outcome.value.withLock { $0 = .answer(GatewayError(503, GatewayError.daemonUnavailable, "the gateway is busy: \(error)").answer) }
            done()
        }
        return true
    }

    private func queue(_ outcome: Outcome, on connection: OpaquePointer) -> Bool {
        switch outcome {
        case .answer(let answer): return queue(answer, on: connection)
        case .file(let file): return queue(file, on: connection)
        case .events(let stream): return queue(stream, on: connection)
        }
    }

    private func peer(_ connection: OpaquePointer) -> String? {
        var buffer = [CChar](repeating: 0, count: 64)
        guard curator_web_client_address(connection, &buffer, buffer.count) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func value(_ connection: OpaquePointer, _ kind: MHD_ValueKind, _ key: String) -> String? {
        guard let found = MHD_lookup_connection_value(connection, kind, key) else { return nil }
        return String(validatingCString: found)
    }

    private func queue(_ answer: HTTPAnswer, on connection: OpaquePointer) -> Bool {
        let response = answer.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let response else { return false }
        defer { MHD_destroy_response(response) }
        for (name, value) in SecurityHeaders.merged(with: answer.headers) + [("Content-Type", answer.contentType)] {
            guard MHD_add_response_header(response, name, value) == .YES else { return false }
        }
        return MHD_queue_response(connection, answer.status, response) == .YES
    }

    private func queue(_ file: FileAnswer, on connection: OpaquePointer) -> Bool {
        // The response owns the descriptor from here: the library closes it with the
        // response, and reads it with sendfile where it can.
        guard let response = MHD_create_response_from_fd_at_offset64(file.length, file.descriptor.rawValue, file.offset) else {
            try? file.descriptor.close()
            return false
        }
        defer { MHD_destroy_response(response) }
        for (name, value) in SecurityHeaders.merged(with: file.headers) + [("Content-Type", file.contentType)] {
            guard MHD_add_response_header(response, name, value) == .YES else { return false }
        }
        return MHD_queue_response(connection, file.status, response) == .YES
    }

    /// An event stream's response: the stream and its connection, for `fill` to
    /// suspend and its reader to wake; registered until the response goes, so that
    /// `stop` can end it.
    private final class StreamBinding: Sendable {
        let stream: EventStream
        let parked: Parked
        let server: HTTPServer

        init(_ stream: EventStream, _ connection: OpaquePointer, _ server: HTTPServer) {
            self.stream = stream
            parked = Parked(connection: connection)
            self.server = server
        }
    }

    private func queue(_ stream: EventStream, on connection: OpaquePointer) -> Bool {
        let admitted = suspended.withLock { locked in
            guard !locked.state.stopping else { return false }
            locked.state.streams[ObjectIdentifier(stream)] = stream
            return true
        }
        guard admitted else {
            stream.close()
            return queue(Self.stopping, on: connection)
        }
        let binding = StreamBinding(stream, connection, self)
        let context = Unmanaged.passRetained(binding).toOpaque()
        let response = MHD_create_response_from_callback(curator_web_size_unknown(), EventStream.chunk, { cls, _, buffer, max in
            guard let cls, let buffer else { return -2 }  // MHD_CONTENT_READER_END_WITH_ERROR
            let binding = Unmanaged<StreamBinding>.fromOpaque(cls).takeUnretainedValue()
            return binding.stream.fill(UnsafeMutableRawBufferPointer(start: buffer, count: max),
                                       suspend: { MHD_suspend_connection(binding.parked.connection) }, waker: binding.parked)
        }, context, { cls in
            guard let cls else { return }
            let binding = Unmanaged<StreamBinding>.fromOpaque(cls).takeRetainedValue()
            binding.stream.close()
            binding.server.suspended.withLock { _ = $0.state.streams.removeValue(forKey: ObjectIdentifier(binding.stream)) }
        })
        guard let response else {
            let binding = Unmanaged<StreamBinding>.fromOpaque(context).takeRetainedValue()
            binding.stream.close()
            suspended.withLock { _ = $0.state.streams.removeValue(forKey: ObjectIdentifier(stream)) }
            return false
        }
        defer { MHD_destroy_response(response) }
        for (name, value) in SecurityHeaders.all + [("Content-Type", "text/event-stream")] {
            guard MHD_add_response_header(response, name, value) == .YES else { return false }
        }
        return MHD_queue_response(connection, 200, response) == .YES
    }
}
