// SPDX-License-Identifier: GPL-2.0-or-later

/// `web.passwd`: sets the asking user's web password (the user is the socket's peer).
public struct WebPasswdRequest: ProtocolRequest {
    public static let name = "web.passwd"
    public typealias Result = WebPasswdResult
    public var password: String
    public init(password: String) { self.password = password }
}

public struct WebPasswdResult: Codable, Sendable {
    public var uid: UInt32
    public var user: String
    public init(uid: UInt32, user: String) {
        self.uid = uid
        self.user = user
    }
}

/// `web.login`: the system gateway forwards a browser's user name and password, and
/// the address the browser came from (for throttling).
public struct WebLoginRequest: ProtocolRequest {
    public static let name = "web.login"
    public typealias Result = WebLoginResult
    public var user: String
    public var password: String
    public var client: String?
    public init(user: String, password: String, client: String? = nil) {
        self.user = user
        self.password = password
        self.client = client
    }
}

public struct WebLoginResult: Codable, Sendable {
    /// 64 hexadecimal digits: the session, which `web.attach` binds a connection to.
    public var token: String
    public var uid: UInt32
    public var user: String
    /// The session ends after this many seconds without a request, and after
    /// `maxSeconds` whatever is done.
    public var idleSeconds: Int
    public var maxSeconds: Int
    public init(token: String, uid: UInt32, user: String, idleSeconds: Int, maxSeconds: Int) {
        self.token = token
        self.uid = uid
        self.user = user
        self.idleSeconds = idleSeconds
        self.maxSeconds = maxSeconds
    }
}

/// `web.attach`: binds this connection to the session of a token `web.login` issued.
public struct WebAttachRequest: ProtocolRequest {
    public static let name = "web.attach"
    public typealias Result = WebAttachResult
    public var token: String
    public init(token: String) { self.token = token }
}

/// `web.logout`: ends the session of a token `web.login` issued.
public struct WebLogoutRequest: ProtocolRequest {
    public static let name = "web.logout"
    public typealias Result = WebLogoutResult
    public var token: String
    public init(token: String) { self.token = token }
}

public struct WebAttachResult: Codable, Sendable {
    public var uid: UInt32
    public var user: String
    public init(uid: UInt32, user: String) {
        self.uid = uid
        self.user = user
    }
}

public struct WebLogoutResult: Codable, Sendable {
    /// False when the token named no live session (expired, or ended already).
    public var ended: Bool
    public init(ended: Bool) { self.ended = ended }
}
