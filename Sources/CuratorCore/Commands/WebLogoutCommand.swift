// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// `web.logout`: ends a web session; connections attached to it answer
/// `not_signed_in` from then on. The gateway's user only.
enum WebLogoutCommand: CuratorCommand {
    static func run(_ arguments: WebLogoutRequest, curator: any WebScope, caller: Caller) throws(ProtocolError) -> WebLogoutResult {
        try curator.web.logout(arguments.token, caller: caller, config: curator.configuration)
    }
}
