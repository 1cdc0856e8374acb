// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// `web.login`: the system gateway asks for a web session for a user name and
/// password a browser sent. The gateway's user only; throttled.
enum WebLoginCommand: CuratorCommand {
    static func run(_ arguments: WebLoginRequest, curator: any WebScope, caller: Caller) throws(ProtocolError) -> WebLoginResult {
        try curator.web.login(arguments, caller: caller, config: curator.configuration)
    }
}
