// SPDX-License-Identifier: GPL-2.0-or-later

/// What each request gets, decided in this order: a foreign `Host` nothing; `/login`
/// with the unspent secret a session cookie; without a session only the login page
/// (401); the page's own files; a photo's bytes by `GET /photo/<id>/<what>`; a
/// state-changing request without the custom header or with a foreign `Origin` 403; a
/// body over the limit 413; then the API.
struct Router: Sendable {
    let policy: HostPolicy
    let gate: LoginGate
    let forwarder: APIForwarder
    let streams: StreamSlots
    /// The page (`web/`); without it `/` says only that the browser is signed in.
    var site: StaticSite? = nil
    var photos: PhotoFetcher { PhotoFetcher(pool: forwarder.pool) }

    static let bodyLimit = 1 << 20
    static let cookieName = "curator_session"
    static let eventsPath = "/api/v1/events"

    enum Decision {
        case answer(HTTPAnswer)
        /// Read the body (at most `bodyLimit` bytes), then `finish`.
        case readBody(command: String)
        case events(EventStream)
        /// A photo's bytes, fetched once the request is whole.
        case photo(PhotoAddress, PhotoFetcher.Conditions)
    }

    func begin(_ head: RequestHead) -> Decision {
        let api = head.path.hasPrefix(APIRequestLine.prefix)
        guard policy.allowsHost(head.host) else {
            return .answer(refusal(GatewayError(403, GatewayError.forbidden, "this gateway answers to \(policy.hosts.joined(separator: " and ")) only"), api: api))
        }
        if head.path == "/login" {
            guard head.method == "GET" || head.method == "HEAD" else { return .answer(methodNotAllowed("GET")) }
            return .answer(login(head.token))
        }
        guard gate.isSignedIn(head.session) else {
            return .answer(refusal(GatewayError(401, GatewayError.unauthorized, "sign in first: open the address curatorctl web printed"), api: api))
        }
        switch head.path {
        case "/":
            guard head.method == "GET" || head.method == "HEAD" else { return .answer(methodNotAllowed("GET")) }
            return .answer(site?.answer(for: "/") ?? HTTPAnswer(status: 200, html: Pages.signedIn))
        case Self.eventsPath:
            guard head.method == "GET" else { return .answer(methodNotAllowed("GET")) }
            return events(head)
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
        guard policy.allowsChange(marker: head.marker, origin: head.origin) else {
            return .answer(GatewayError(403, GatewayError.forbidden, """
                a request that changes anything needs the header \(HostPolicy.requestHeader): 1 and, from a browser, \
                this gateway's own Origin
                """).answer)
        }
        if let length = head.contentLength, UInt64(length).map({ $0 > UInt64(Self.bodyLimit) }) ?? true {
            return .answer(Self.tooLarge)
        }
        return .readBody(command: command)
    }

    func finish(command: String, body: [UInt8]) -> HTTPAnswer {
        forwarder.answer(command: command, body: body)
    }

    static let tooLarge = GatewayError(413, .requestTooLarge, "a request's body may be at most \(bodyLimit) bytes").answer

    private func login(_ token: String?) -> HTTPAnswer {
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
        let cookie = "\(Self.cookieName)=\(session.hex); HttpOnly; SameSite=Strict; Path=/"
        return .seeOther("/", headers: [("Set-Cookie", cookie)])
    }

    private func events(_ head: RequestHead) -> Decision {
        guard streams.take() else {
            return .answer(GatewayError(429, GatewayError.tooManyStreams, "at most \(streams.capacity) event streams at once").answer)
        }
        let thumbnails = head.thumbnails == "true" || head.thumbnails == "1"
        switch EventStream.open(socketPath: forwarder.pool.socketPath, thumbnails: thumbnails, id: forwarder.pool.makeID(),
                                slots: streams) {
        case .success(let stream): return .events(stream)
        case .failure(let error): return .answer(error.answer)
        }
    }

    private func refusal(_ error: GatewayError, api: Bool) -> HTTPAnswer {
        api ? error.answer : HTTPAnswer(status: error.status, html: Pages.login(reason: error.message))
    }

    private func methodNotAllowed(_ allowed: String) -> HTTPAnswer {
        var answer = GatewayError(405, GatewayError.methodNotAllowed, "this address takes \(allowed)").answer
        answer.headers.append(("Allow", allowed))
        return answer
    }
}
