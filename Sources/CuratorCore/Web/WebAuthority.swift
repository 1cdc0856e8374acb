// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Glibc
import Synchronization

/// Web passwords, logins and web sessions: what the system gateway relies on. Kept
/// off the state lock: a password check takes a good part of a second on purpose.
final class WebAuthority: Sendable {
    private struct State {
        var passwords: WebPasswords?
        var sessions = WebSessions()
        var throttle = LoginThrottle()
    }

    private let state = Mutex(State())
    /// One Argon2id computation at a time: each takes 64 MiB, and a burst of logins
    /// must not take the daemon's memory with it (the throttle bounds the rate).
    private let hashing = Mutex(())

    private func passwords(_ state: inout State, _ config: Configuration) throws(ProtocolError) -> WebPasswords {
        if let loaded = state.passwords, loaded.directory == config.stateDirectory { return loaded }
        let loaded = try WebPasswords(stateDirectory: config.stateDirectory)
        state.passwords = loaded
        return loaded
    }

    func setPassword(_ password: String, caller: Caller, config: Configuration) throws(ProtocolError) -> WebPasswdResult {
        if let holder = caller.connection as? any WebIdentityHolder, holder.attachedToken != nil {
            throw ProtocolError(.permissionDenied, "A web password is set on curatord's socket (curatorctl web passwd), not through the web gateway.")
        }
        guard !password.isEmpty, password.utf8.count <= PasswordHash.maxBytes else {
            throw ProtocolError(.invalidArgument, "a web password is 1 to \(PasswordHash.maxBytes) bytes", argument: "password")
        }
        let hash = try hashing.withLock { _ throws(ProtocolError) in try PasswordHash.make(password) }
        try state.withLock { (state) throws(ProtocolError) in
            var table = try passwords(&state, config)
            try table.set(uid: caller.uid, hash: hash)
            state.passwords = table
            state.sessions.endAll(uid: caller.uid)
        }
        let name = UserAccount.userName(uid: caller.uid) ?? String(caller.uid)
        log.notice("uid \(caller.uid) set a web password")
        return WebPasswdResult(uid: caller.uid, user: name)
    }

    /// Refuses anyone but the configured gateway.
    private func requireGateway(_ caller: Caller, _ config: Configuration, _ command: String) throws(ProtocolError) {
        guard let gateway = config.web.gatewayUID else {
            throw ProtocolError(.permissionDenied, "\(command) is for curatord-web, and this curatord names no web gateway (web_gateway_user).")
        }
        guard caller.uid == gateway else {
            log.notice("refused \(command) from uid \(caller.uid), which is not the web gateway's")
            throw ProtocolError(.permissionDenied, "\(command) is for curatord-web only: only the web gateway's user (web_gateway_user, uid \(gateway)) may send it.")
        }
    }

    func login(_ request: WebLoginRequest, caller: Caller, config: Configuration) throws(ProtocolError) -> WebLoginResult {
        try requireGateway(caller, config, "web.login")
        let keys = LoginThrottle.keys(user: request.user, client: request.client)
        if let wait = state.withLock({ $0.throttle.wait(keys, now: MonotonicClock.nanoseconds()) }) {
            throw ProtocolError(.loginThrottled, "Too many failed logins for this user or from this address; try again in \(Int(wait.rounded(.up))) s.")
        }
        let uid = request.user.isEmpty ? nil : UserAccount.userID(named: request.user)
        let stored = try state.withLock { (state) throws(ProtocolError) -> String? in
            guard let uid else { return nil }
            return try passwords(&state, config).hashes[uid]
        }
        // Unknown user, no web password, wrong password, or a user who may not use the
        // socket: the same work and the same answer.
        let matches = hashing.withLock { _ in
            PasswordHash.verify(stored ?? PasswordHash.dummy, String(request.password.utf8.prefix(PasswordHash.maxBytes)) ?? "")
        }
        let allowed = matches && stored != nil && uid.map { Self.canUseSocket(uid: $0, config: config) } == true
        let now = MonotonicClock.nanoseconds()
        guard allowed, let uid else {
            state.withLock { $0.throttle.failed(keys, now: now) }
            log.notice("failed web login for \"\(request.user)\" from \(request.client ?? "an unknown address")")
            throw ProtocolError(.loginFailed, "Wrong user name or password.")
        }
        let (token, key) = WebSessions.newToken()
        let session = WebSessions.Session(uid: uid, gid: UserAccount.primaryGroup(uid: uid) ?? uid, user: request.user,
                                          started: now, lastUsed: now)
        state.withLock { state in
            state.throttle.succeeded(keys)
            state.sessions.add(session, key: key)
        }
        log.notice("web login of \(request.user) (uid \(uid)) from \(request.client ?? "an unknown address")")
        return WebLoginResult(token: token, uid: uid, user: request.user, idleSeconds: config.web.idleSeconds, maxSeconds: config.web.maxSeconds)
    }

    func attach(_ token: String, caller: Caller, config: Configuration) throws(ProtocolError) -> WebAttachResult {
        try requireGateway(caller, config, "web.attach")
        guard let holder = caller.connection as? any WebIdentityHolder, holder.attachedToken == nil else {
            throw ProtocolError(.permissionDenied, "this connection is attached to a web session already")
        }
        guard let session = use(token, config: config) else { throw Self.notSignedIn }
        try holder.attach(as: PeerCredentials(pid: caller.credentials.pid, uid: session.uid, gid: session.gid), token: token)
        return WebAttachResult(uid: session.uid, user: session.user)
    }

    func logout(_ token: String, caller: Caller, config: Configuration) throws(ProtocolError) -> WebLogoutResult {
        try requireGateway(caller, config, "web.logout")
        let ended = state.withLock { $0.sessions.end(token) }
        return WebLogoutResult(ended: ended)
    }

    /// The session of `token`, marked used; nil when it is gone.
    func use(_ token: String, config: Configuration) -> WebSessions.Session? {
        state.withLock { $0.sessions.use(token, now: MonotonicClock.nanoseconds(), settings: config.web) }
    }

    func isLive(_ token: String, config: Configuration) -> Bool {
        state.withLock { $0.sessions.isLive(token, now: MonotonicClock.nanoseconds(), settings: config.web) }
    }

    static let notSignedIn = ProtocolError(.notSignedIn, "The web session is unknown, expired or ended: log in again.")

    /// Whether `uid` could connect to the daemon's socket itself: its owner, a member
    /// of its group when the group may write, anyone when others may. A web login
    /// gives no one more than the socket would.
    static func canUseSocket(uid: UInt32, config: Configuration) -> Bool {
        var info = stat()
        guard config.socketPath.withCString({ SystemCalls.stat($0, &info) }) == 0 else { return false }
        if uid == info.st_uid || uid == 0 { return true }
        let mode = info.st_mode
        if mode & 0o006 == 0o006 { return true }
        guard mode & 0o060 == 0o060, let gid = UserAccount.primaryGroup(uid: uid) else { return false }
        return UserAccount.groups(uid: uid, gid: gid).contains(info.st_gid)
    }
}
