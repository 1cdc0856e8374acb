// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// The system web gateway as the daemon's configuration names it: the one user whose
/// connections may log people in and act as them (`web_gateway_user`; none: no one
/// may), and how long the sessions it is issued live.
public struct WebSettings: Sendable, Hashable {
    /// A user name or a uid in decimal; resolved when a request comes, since the
    /// gateway's system user may be made after the daemon started.
    public var gatewayUser: String?
    /// A session ends after this long without a request...
    public var idleSeconds: Int
    /// ...and this long after its login, whatever is done.
    public var maxSeconds: Int

    public static let defaultIdleSeconds = 7200
    public static let defaultMaxSeconds = 86400

    public init(gatewayUser: String? = nil, idleSeconds: Int = defaultIdleSeconds, maxSeconds: Int = defaultMaxSeconds) {
        self.gatewayUser = gatewayUser
        self.idleSeconds = idleSeconds
        self.maxSeconds = maxSeconds
    }

    /// The gateway's uid, or nil when none is configured or the user does not exist.
    public var gatewayUID: UInt32? {
        guard let gatewayUser else { return nil }
        if let uid = UInt32(gatewayUser) { return uid }
        return UserAccount.userID(named: gatewayUser)
    }
}
