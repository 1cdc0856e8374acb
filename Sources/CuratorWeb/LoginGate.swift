// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// Who may use the personal gateway: whoever opened the URL with the one-time secret,
/// in the browser that opened it. Redeeming the secret spends it and mints the session
/// token the cookie carries; a second visit of the same URL (from the history, a log,
/// a shoulder) finds nothing to redeem. Sessions live as long as the gateway.
final class LoginGate: Sendable {
    private struct State {
        var secret: RandomToken?
        var sessions: [RandomToken] = []
    }

    private let state: Mutex<State>

    init(secret: RandomToken) {
        state = Mutex(State(secret: secret))
    }

    /// The new session's token when `presented` is the unspent secret; nil otherwise
    /// (wrong, malformed or already used), and the secret stays as it was.
    func redeem(_ presented: String?) throws -> RandomToken? {
        guard let presented, let candidate = RandomToken(hex: presented) else { return nil }
        let session = try RandomToken.generate()
        return state.withLock { state -> RandomToken? in
            guard let secret = state.secret, secret.matches(candidate) else { return nil }
            state.secret = nil
            state.sessions.append(session)
            return session
        }
    }

    /// Whether a cookie's value is a live session's token. Every session is compared,
    /// each in constant time.
    func isSignedIn(_ presented: String?) -> Bool {
        guard let presented, let candidate = RandomToken(hex: presented) else { return false }
        return state.withLock { state in
            var found = false
            for session in state.sessions where session.matches(candidate) { found = true }
            return found
        }
    }
}
