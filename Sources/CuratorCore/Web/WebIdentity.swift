// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// A connection that `web.attach` can bind to a web session: from then on its requests
/// are that user's (`ClientConnection` is one). Each later request checks the session
/// again (`Curator.webSessionStillLive`), so a logout or an expiry ends the binding.
public protocol WebIdentityHolder: AnyObject {
    /// The session's token, once attached.
    var attachedToken: String? { get }
    /// Binds the connection to `credentials`; throws when the daemon's limits for
    /// that user do not admit one more connection.
    func attach(as credentials: PeerCredentials, token: String) throws(ProtocolError)
}
