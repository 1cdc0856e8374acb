// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import FoundationEssentials
import Synchronization

/// The system gateway's side of web sessions, which are the daemon's: a login is
/// forwarded (`web.login`, on the gateway's own connection), and each session's
/// requests go out on connections bound to it (`web.attach`), a small pool per
/// session. Nothing here decides who is signed in: a token the daemon no longer
/// knows is answered `not_signed_in` (401) by the daemon, and its pool dropped.
final class SystemSessions: Sendable {
    let socketPath: String
    /// The gateway's own connections: `web.login` and `web.logout` only.
    let own: DaemonPool
    private let pools = Mutex<[String: DaemonPool]>([:])

    /// Sessions with connections kept at once; past it an arbitrary one's are closed
    /// (its next request opens them again).
    static let maxPools = 256
    /// Connections per session: each counts against its user's `max_clients_per_user`.
    static let connectionsPerSession = 2

    init(socketPath: String) {
        self.socketPath = socketPath
        own = DaemonPool(socketPath: socketPath)
    }

    /// The pool of `token`'s session (a well-formed token: 64 hexadecimal digits).
    func pool(for token: String) -> DaemonPool {
        pools.withLock { pools in
            if let pool = pools[token] { return pool }
            if pools.count >= Self.maxPools, let victim = pools.keys.first { pools[victim] = nil }
            let pool = DaemonPool(socketPath: socketPath, capacity: Self.connectionsPerSession, attachToken: token)
            pools[token] = pool
            return pool
        }
    }

    func forget(_ token: String) {
        _ = pools.withLock { $0.removeValue(forKey: token) }
    }

    /// A session cookie's value, if it can be a token at all.
    static func token(_ cookie: String?) -> String? {
        guard let cookie, RandomToken(hex: cookie) != nil else { return nil }
        return cookie.lowercased()
    }

    private struct Credentials: Decodable {
        let user: String
        let password: String
    }

    private struct LogoutAnswer: Decodable {
        var result: WebLogoutResult?
    }

    private struct LoginAnswer: Decodable {
        var ok: Bool?
        var result: WebLoginResult?
    }

    /// `POST /api/v1/login` with `{"user": ..., "password": ...}`: the daemon's answer,
    /// without the token, which goes in the cookie (HttpOnly: no script reads it).
    func login(body: [UInt8], client: String?, cookieName: String, cookieAttributes: String) -> HTTPAnswer {
        guard let credentials = try? JSONDecoder().decode(Credentials.self, from: Data(body)) else {
            return GatewayError(400, .invalidArgument, "the body must be {\"user\": \"...\", \"password\": \"...\"}").answer
        }
        let line: [UInt8]
        do {
            line = try own.call { id in
                DaemonPool.line(WebLoginRequest(user: credentials.user, password: credentials.password, client: client), id: id)
            }
        } catch {
            return error.answer
        }
        guard let answer = try? Wire.makeDecoder().decode(LoginAnswer.self, from: Data(line)), answer.ok == true,
              let result = answer.result else {
            return HTTPAnswer(status: APIForwarder.status(of: line), json: line)
        }
        let body = #"{"ok":true,"result":{"uid":\#(result.uid),"user":"# + Self.quoted(result.user)
            + #","idle_seconds":\#(result.idleSeconds),"max_seconds":\#(result.maxSeconds)}}"#
        var reply = HTTPAnswer(status: 200, json: Array(body.utf8))
        reply.headers.append(("Set-Cookie", "\(cookieName)=\(result.token); \(cookieAttributes)"))
        return reply
    }

    /// `POST /api/v1/logout`: ends the session on the daemon and clears the cookie.
    func logout(token: String?, cookieName: String, cookieAttributes: String) -> HTTPAnswer {
        var ended = false
        if let token {
            forget(token)
            let line = try? own.call { id in DaemonPool.line(WebLogoutRequest(token: token), id: id) }
            ended = line.flatMap { try? Wire.makeDecoder().decode(LogoutAnswer.self, from: Data($0)) }?.result?.ended ?? false
        }
        var reply = HTTPAnswer(status: 200, json: Array(#"{"ok":true,"result":{"ended":\#(ended)}}"#.utf8))
        reply.headers.append(("Set-Cookie", "\(cookieName)=; Max-Age=0; \(cookieAttributes)"))
        return reply
    }

    private static func quoted(_ text: String) -> String {
        (try? Wire.makeEncoder().encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}
