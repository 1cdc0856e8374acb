// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// `web.passwd`: sets the asking user's web password (`curatorctl web passwd`), which
/// the system gateway's logins are checked against. On the socket itself only.
enum WebPasswdCommand: CuratorCommand {
    static func run(_ arguments: WebPasswdRequest, curator: any WebScope, caller: Caller) throws(ProtocolError) -> WebPasswdResult {
        try curator.web.setPassword(arguments.password, caller: caller, config: curator.configuration)
    }
}
