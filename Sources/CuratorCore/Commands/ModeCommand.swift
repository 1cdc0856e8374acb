// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// `mode`: view or select (article 000); leaving select mode clears the selection.
/// A cap bounds the selection (article 002), within `max_selection`.
enum ModeCommand: StateCommand {
    static func run(in state: any SessionScope, _ args: ModeRequest, caller: Caller) throws(ProtocolError) -> SessionResult {
        let key = try SessionKey.named(args.session, uid: caller.uid)
        let maxSelection = state.config.maxSelection
        if let cap = args.cap, cap < 1 || cap > maxSelection {
            throw ProtocolError(.invalidArgument, "A cap is a whole number from 1 to \(maxSelection) (max_selection).", argument: "cap")
        }
        let current = state.session(key)
        let update: SessionUpdate
        do {
            update = try current.setMode(args.mode, cap: args.cap, defaultCap: state.config.selectionCap)
        } catch {
            throw error.protocolError
        }
        let evicted = try state.commit(update.state, for: key, replacing: current, origin: caller.origin)
        var result = state.sessionResult(key, update.state, change: update.change)
        result.evicted = evicted
        return result
    }
}
