// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// What each request gets, decided in this order: a foreign `Host` nothing; `/login`
/// with the unspent secret a session cookie (personal gateway), or `POST
/// /api/v1/login` with a user's web password (system gateway); without a session only
/// the login page (401: the page's sign-in form and its files on the system gateway);
/// the page's own files; a photo's bytes by `GET
/// /photo/<id>/<what>`; a state-changing request without the custom header or with a
/// foreign `Origin` 403; a body over the limit 413; then the API.
struct Router: Sendable {
    /// Who may use this gateway: whoever redeemed its one-time secret (personal), or
    /// the users the daemon's web sessions are for (system).
    enum Access: Sendable {
        case personal(LoginGate)
        case system(SystemSessions)
    }

    let policy: HostPolicy
    let access: Access
    let forwarder: APIForwarder
    let streams: StreamSlots
    /// The page (`web/`); without it `/` says only that the browser is signed in.
    var site: StaticSite? = nil
    var proxies = TrustedProxies()
    /// Photo files the daemon passed, kept a while per daemon user (`--keep-files`).
    var files = OpenFileCache()
    /// The event streams' readers, a thread each (`streams` bounds how many).
    var readers = WorkerPool(name: "curatord-events", threads: 1024, stackSize: 256 << 10, keepIdleSeconds: 10)

    static let loginPath = "/api/v1/login"
    static let logoutPath = "/api/v1/logout"

    /// The session cookie's attributes; `Secure` when the browser speaks HTTPS (to us
    /// or to a trusted proxy in front): it is then never sent over plain HTTP.
    static func cookieAttributes(secure: Bool) -> String { "HttpOnly; SameSite=Strict; Path=/" + (secure ? "; Secure" : "") }

    static let bodyLimit = 1 << 20
    static let cookieName = "curator_session"

    /// The session cookie's name: on HTTPS with the `__Host-` prefix, which a browser
    /// accepts only from a secure origin, with `Path=/` and no `Domain`: neither a
    /// page of another host under the same domain nor one over plain HTTP can set or
    /// overwrite it. Plain HTTP (loopback) cannot have it, and keeps the bare name.
    static func cookieName(secure: Bool) -> String { secure ? "__Host-" + cookieName : cookieName }
    static let eventsPath = "/api/v1/events"

    enum Decision {
        case answer(HTTPAnswer)
        /// Read the body (at most `bodyLimit` bytes), then `finish`.
        case readBody(command: String)
        /// The system gateway's login or logout: read the body, then `finishSession`.
        case session(login: Bool)
        /// The event stream, opened (`openEvents`) once the request is whole.
        case events
        /// A photo's bytes, fetched once the request is whole.
        case photo(PhotoAddress, PhotoFetcher.Conditions)
    }

    func begin(_ head: RequestHead) -> Decision {
        let api = head.path.hasPrefix(APIRequestLine.prefix)
        guard policy.allowsHost(head.host) else {
            return .answer(refusal(GatewayError(403, GatewayError.forbidden, "this gateway answers to \(policy.hosts.joined(separator: " and ")) only"), api: api))
        }
        if case .system = access, head.path == Self.loginPath || head.path == Self.logoutPath {
            guard head.method == "POST" else { return .answer(methodNotAllowed("POST")) }
            if let refusal = changeRefusal(head) { return .answer(refusal) }
            return .session(login: head.path == Self.loginPath)
        }
        if head.path == "/login" {
            guard head.method == "GET" || head.method == "HEAD" else { return .answer(methodNotAllowed("GET")) }
            switch access {
            case .personal(let gate): return .answer(login(head.token, gate: gate, secure: head.secure))
            case .system:
                return .answer(site?.answer(for: "/login.html") ?? HTTPAnswer(status: 200, html: Pages.systemLogin(reason: "Sign in with your web password.")))
            }
        }
        guard isSignedIn(head.session) else {
            if case .system = access, head.method == "GET" || head.method == "HEAD", let site, site.answer(for: "/login.html") != nil {
                if head.path == "/" { return .answer(.seeOther("/login")) }
                if let file = site.signInAnswer(for: head.path) { return .answer(file) }
            }
            let how = if case .system = access { "sign in first: POST /api/v1/login" } else { "sign in first: open the address curatorctl web printed" }
            return .answer(refusal(GatewayError(401, GatewayError.unauthorized, how), api: api))
        }
        switch head.path {
        case "/":
            guard head.method == "GET" || head.method == "HEAD" else { return .answer(methodNotAllowed("GET")) }
            return .answer(site?.answer(for: "/") ?? HTTPAnswer(status: 200, html: Pages.signedIn))
        case Self.eventsPath:
            guard head.method == "GET" else { return .answer(methodNotAllowed("GET")) }
            return .events
        default:
            if !api, let file = site?.answer(for: head.path) {
                guard head.method == "GET" || head.method == "HEAD" else { return .answer(methodNotAllowed("GET")) }
                return .answer(file)
            }
        }
        if head.path.hasPrefix(PhotoAddress.prefix) {
            guard let address = PhotoAddress(path: head.path) else {
                return .answer(GatewayError(404, GatewayError.notFound, "nothing is at this address").answer)
            }
            guard head.method == "GET" || head.method == "HEAD" else { return .answer(methodNotAllowed("GET")) }
            return .photo(address, head.photo)
        }
        guard let command = APIRequestLine.command(inPath: head.path) else {
            return .answer(refusal(GatewayError(404, GatewayError.notFound, "nothing is at this address"), api: api))
        }
        guard head.method == "POST" else { return .answer(methodNotAllowed("POST")) }
        if let refusal = changeRefusal(head) { return .answer(refusal) }
        return .readBody(command: command)
    }

    /// Why a state-changing request is refused before its body: no custom header or a
    /// foreign `Origin` (403), a body over the limit (413).
    private func changeRefusal(_ head: RequestHead) -> HTTPAnswer? {
        guard policy.allowsChange(marker: head.marker, origin: head.origin, secure: head.secure) else {
            return GatewayError(403, GatewayError.forbidden, """
                a request that changes anything needs the header \(HostPolicy.requestHeader): 1 and, from a browser, \
                this gateway's own Origin
                """).answer
        }
        if let length = head.contentLength, UInt64(length).map({ $0 > UInt64(Self.bodyLimit) }) ?? true {
            return Self.tooLarge
        }
        return nil
    }

    private func isSignedIn(_ session: String?) -> Bool {
        switch access {
        case .personal(let gate): gate.isSignedIn(session)
        // The daemon judges the token; one that cannot be a token is not sent.
        case .system: SystemSessions.token(session) != nil
        }
    }

    /// A photo's bytes when a file the daemon passed for that version is still kept:
    /// nil when the daemon must be asked (`fetchPhoto`). Never waits.
    func cachedPhoto(_ address: PhotoAddress, _ conditions: PhotoFetcher.Conditions, head: RequestHead) -> PhotoFetcher.Outcome? {
        guard case .system = access else { return PhotoFetcher(pool: forwarder.pool, cache: files).cached(address, conditions) }
        guard let token = SystemSessions.token(head.session) else { return nil }
        return PhotoFetcher(pool: forwarder.pool, cache: files, owner: token).cached(address, conditions)
    }

    /// A photo's bytes, opened by the daemon as the session's user.
    func fetchPhoto(_ address: PhotoAddress, _ conditions: PhotoFetcher.Conditions, head: RequestHead) -> PhotoFetcher.Outcome {
        guard case .system(let sessions) = access, let token = SystemSessions.token(head.session) else {
            return PhotoFetcher(pool: forwarder.pool, cache: files).fetch(address, conditions)
        }
        // A session's files are its own: kept under its token, the daemon user it is.
        let outcome = PhotoFetcher(pool: sessions.pool(for: token), cache: files, owner: token).fetch(address, conditions)
        if case .answer(let answer) = outcome, answer.status == 401 {
            sessions.forget(token)
            files.forget(owner: token)
        }
        return outcome
    }

    func finish(command: String, body: [UInt8], head: RequestHead) -> HTTPAnswer {
        guard case .system(let sessions) = access, let token = SystemSessions.token(head.session) else {
            return forwarder.answer(command: command, body: body)
        }
        var answer = APIForwarder(pool: sessions.pool(for: token)).answer(command: command, body: body)
        if answer.status == 401 {
            // The session is over: its cookie goes too, so that the page's next load is the sign-in form.
            sessions.forget(token)
            files.forget(owner: token)
            answer.headers.append(("Set-Cookie", "\(Self.cookieName(secure: head.secure))=; Max-Age=0; \(Self.cookieAttributes(secure: head.secure))"))
        }
        return answer
    }

    func finishSession(login: Bool, body: [UInt8], head: RequestHead) -> HTTPAnswer {
        guard case .system(let sessions) = access else { return GatewayError(404, GatewayError.notFound, "nothing is at this address").answer }
        let name = Self.cookieName(secure: head.secure)
        let attributes = Self.cookieAttributes(secure: head.secure)
        if login { return sessions.login(body: body, client: head.client, cookieName: name, cookieAttributes: attributes) }
        if let token = SystemSessions.token(head.session) { files.forget(owner: token) }
        return sessions.logout(token: SystemSessions.token(head.session), cookieName: name, cookieAttributes: attributes)
    }

    static let tooLarge = GatewayError(413, .requestTooLarge, "a request's body may be at most \(bodyLimit) bytes").answer

    private func login(_ token: String?, gate: LoginGate, secure: Bool) -> HTTPAnswer {
        let session: RandomToken?
        do {
            session = try gate.redeem(token)
        } catch {
            return GatewayError(500, .internalError, "no random bytes for a session: \(error)").answer
        }
        guard let session else {
            return HTTPAnswer(status: 403, html: Pages.login(reason: "This address is not valid, or it was used already."))
        }
        // The secret leaves the address bar: the browser shows `/`, and a reload or the
        // history holds no secret (it was spent anyway).
        let cookie = "\(Self.cookieName(secure: secure))=\(session.hex); \(Self.cookieAttributes(secure: secure))"
        return .seeOther("/", headers: [("Set-Cookie", cookie)])
    }

    /// Subscribes for the page: the stream, or why not. Waits on the daemon.
    func openEvents(_ head: RequestHead) -> Result<EventStream, GatewayError> {
        guard streams.take() else {
            return .failure(GatewayError(429, GatewayError.tooManyStreams, "at most \(streams.capacity) event streams at once"))
        }
        let thumbnails = head.thumbnails == "true" || head.thumbnails == "1"
        var token: String?
        if case .system = access { token = SystemSessions.token(head.session) }
        return EventStream.open(socketPath: forwarder.pool.socketPath, token: token, thumbnails: thumbnails,
                                id: forwarder.pool.makeID(), slots: streams, readers: readers, lastEventID: head.lastEventID)
    }

    private func refusal(_ error: GatewayError, api: Bool) -> HTTPAnswer {
        if api { return error.answer }
        if case .system = access {
            // The page's own form, when there is a page: whatever was asked, it is asked again once signed in.
            if error.status == 401, var form = site?.answer(for: "/login.html") {
                form.status = 401
                return form
            }
            return HTTPAnswer(status: error.status, html: Pages.systemLogin(reason: error.message))
        }
        return HTTPAnswer(status: error.status, html: Pages.login(reason: error.message))
    }

    private func methodNotAllowed(_ allowed: String) -> HTTPAnswer {
        var answer = GatewayError(405, GatewayError.methodNotAllowed, "this address takes \(allowed)").answer
        answer.headers.append(("Allow", allowed))
        return answer
    }
}
