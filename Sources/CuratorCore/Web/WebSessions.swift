// SPDX-License-Identifier: GPL-2.0-or-later
import CSodium
import CuratorProtocol

/// The system gateway's web sessions, in the daemon: a gateway restart keeps them, a
/// daemon restart ends them. A token is 256 random bits; it is kept only as its
/// BLAKE2b hash, so a lookup compares hashes an attacker cannot aim at, and a memory
/// dump of the daemon holds no usable token.
struct WebSessions {
    struct Session {
        let uid: UInt32
        let gid: UInt32
        let user: String
        let started: UInt64
        var lastUsed: UInt64
    }

    /// Sessions one user may hold (browsers, devices); a login past it ends the
    /// user's least recently used one.
    static let maxPerUser = 32
    static let maxTotal = 4096

    private var sessions: [[UInt8]: Session] = [:]

    /// 32 random bytes as 64 hexadecimal digits, and the key it is kept under.
    static func newToken() -> (token: String, key: [UInt8]) {
        var bytes = [UInt8](repeating: 0, count: 32)
        _ = PasswordHash.prepare()
        bytes.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { randombytes_buf(base, raw.count) }
        }
        let token = bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        return (token, key(token))
    }

    static func key(_ token: String) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        let bytes = Array(token.utf8)
        _ = PasswordHash.prepare()
        _ = crypto_generichash(&out, out.count, bytes, UInt64(bytes.count), nil, 0)
        return out
    }

    mutating func add(_ session: Session, key: [UInt8]) {
        let mine = sessions.filter { $0.value.uid == session.uid }
        if mine.count >= Self.maxPerUser, let oldest = mine.min(by: { $0.value.lastUsed < $1.value.lastUsed }) {
            sessions[oldest.key] = nil
        }
        if sessions.count >= Self.maxTotal, let oldest = sessions.min(by: { $0.value.lastUsed < $1.value.lastUsed }) {
            sessions[oldest.key] = nil
        }
        sessions[key] = session
    }

    /// The live session of `token`, marked used now; nil when there is none, or it
    /// has been idle or alive too long (it is ended then).
    mutating func use(_ token: String, now: UInt64, settings: WebSettings) -> Session? {
        let key = Self.key(token)
        guard var session = sessions[key] else { return nil }
        let idle = now - session.lastUsed
        let age = now - session.started
        if idle >= UInt64(settings.idleSeconds) * 1_000_000_000 || age >= UInt64(settings.maxSeconds) * 1_000_000_000 {
            sessions[key] = nil
            return nil
        }
        session.lastUsed = now
        sessions[key] = session
        return session
    }

    /// Whether `token`'s session lives, without marking it used (an open event stream
    /// is no request). One past its time is ended.
    mutating func isLive(_ token: String, now: UInt64, settings: WebSettings) -> Bool {
        let key = Self.key(token)
        guard let session = sessions[key] else { return false }
        if now - session.lastUsed >= UInt64(settings.idleSeconds) * 1_000_000_000
            || now - session.started >= UInt64(settings.maxSeconds) * 1_000_000_000 {
            sessions[key] = nil
            return false
        }
        return true
    }

    mutating func end(_ token: String) -> Bool {
        sessions.removeValue(forKey: Self.key(token)) != nil
    }

    /// Ends every session of `uid` (its web password changed).
    mutating func endAll(uid: UInt32) {
        sessions = sessions.filter { $0.value.uid != uid }
    }
}
