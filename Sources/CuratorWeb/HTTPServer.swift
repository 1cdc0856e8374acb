// SPDX-License-Identifier: GPL-2.0-or-later
import CMicroHTTPD
import CWebShim
import CuratorSystem
import Glibc

/// libmicrohttpd, listening on 127.0.0.1: it parses HTTP, enforces the connection
/// limits and timeouts, and calls `handle` on the connection's own thread. This file is
/// the only one that sees the library's types; the decisions are the `Router`'s.
final class HTTPServer: Sendable {
    struct Limits: Sendable {
        /// Connections at once (a page holds a few: requests and an event stream).
        var connections: UInt32 = 64
        /// Seconds a connection may go without sending or receiving anything.
        var timeoutSeconds: UInt32 = 60
        /// A connection's request line, headers and buffers, in bytes.
        var connectionMemory = 64 << 10
    }

    let router: Router
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

    init(router: Router) {
        self.router = router
    }

    /// Serves `listener` (a listening socket, which the server owns from now on).
    func start(listener: FileDescriptor, limits: Limits, tls files: TLS? = nil) throws(SystemError) {
        let cLimits = curator_web_limits(connections: limits.connections, timeout_seconds: limits.timeoutSeconds,
                                         connection_memory: limits.connectionMemory)
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

    func stop() {
        if let daemon { MHD_stop_daemon(daemon) }
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
        guard !exchange.answered else { return true }
        exchange.answered = true
        if exchange.tooLarge { return queue(Router.tooLarge, on: connection) }
        switch exchange.decision {
        case .answer(let answer)?: return queue(answer, on: connection)
        case .events(let stream)?: return queue(stream, on: connection)
        case .photo(let address, let conditions)?:
            guard let head = exchange.head else { return true }
            switch router.fetchPhoto(address, conditions, head: head) {
            case .answer(let answer): return queue(answer, on: connection)
            case .file(let file): return queue(file, on: connection)
            }
        case .readBody, .session, nil: break
        }
        guard let head = exchange.head else { return true }
        if let login = exchange.login { return queue(router.finishSession(login: login, body: exchange.body, head: head), on: connection) }
        guard let command = exchange.command else { return true }
        return queue(router.finish(command: command, body: exchange.body, head: head), on: connection)
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

    private func queue(_ stream: EventStream, on connection: OpaquePointer) -> Bool {
        let context = Unmanaged.passRetained(stream).toOpaque()
        let response = MHD_create_response_from_callback(curator_web_size_unknown(), EventStream.chunk, { cls, _, buffer, max in
            guard let cls, let buffer else { return -2 }  // MHD_CONTENT_READER_END_WITH_ERROR
            let stream = Unmanaged<EventStream>.fromOpaque(cls).takeUnretainedValue()
            return stream.fill(UnsafeMutableRawBufferPointer(start: buffer, count: max))
        }, context, { cls in
            guard let cls else { return }
            Unmanaged<EventStream>.fromOpaque(cls).release()
        })
        guard let response else {
            Unmanaged<EventStream>.fromOpaque(context).release()
            return false
        }
        defer { MHD_destroy_response(response) }
        for (name, value) in SecurityHeaders.all + [("Content-Type", "text/event-stream")] {
            guard MHD_add_response_header(response, name, value) == .YES else { return false }
        }
        return MHD_queue_response(connection, 200, response) == .YES
    }
}
