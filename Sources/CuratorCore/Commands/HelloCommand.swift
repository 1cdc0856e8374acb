// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// `hello`: the server, its versions, and the caller's uid as the daemon sees it.
enum HelloCommand: CuratorCommand {
    static func run(_ arguments: HelloRequest, curator: any ServerScope, caller: Caller) -> HelloResult {
        HelloResult(server: ProtocolInfo.serverName, version: ProtocolInfo.serverVersion,
                    protocolVersion: ProtocolInfo.version, uid: caller.uid)
    }
}
