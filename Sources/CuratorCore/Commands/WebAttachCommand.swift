// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// `web.attach`: the system gateway's connection becomes the session's user's, for
/// every request after this one. The gateway's user only.
enum WebAttachCommand: CuratorCommand {
    static func run(_ arguments: WebAttachRequest, curator: any WebScope, caller: Caller) throws(ProtocolError) -> WebAttachResult {
        try curator.web.attach(arguments.token, caller: caller, config: curator.configuration)
    }
}
