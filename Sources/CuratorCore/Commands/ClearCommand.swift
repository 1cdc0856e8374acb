// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// `clear`: the selection emptied; the session stays in select mode.
enum ClearCommand: StateCommand {
    static func run(in state: any SessionScope, _ args: ClearRequest, caller: Caller) throws(ProtocolError) -> SessionResult {
        let key = try SessionKey.named(args.session, uid: caller.uid)
        let current = state.session(key)
        let update: SessionUpdate
        do {
            update = try current.apply(.clear)
        } catch {
            throw error.protocolError
        }
        try state.commit(update.state, for: key, replacing: current, origin: caller.origin)
        return state.sessionResult(key, update.state, change: update.change)
    }
}
