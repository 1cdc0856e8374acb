// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// `view`: what the session looks at. Another page (root or folder) resets its
/// mode and selection (article 003); another filter or sort keeps them (article 001).
enum ViewCommand: StateCommand {
    static func run(in state: any SessionScope, _ args: ViewRequest, caller: Caller) throws(ProtocolError) -> SessionResult {
        let key = try SessionKey.named(args.session, uid: caller.uid)
        try state.checkView(args.view, uid: key.uid)  // refuse an unknown root or folder before changing anything
        let current = state.session(key)
        let update = current.setView(args.view)
        let evicted = try state.commit(update.state, for: key, replacing: current, origin: caller.origin)
        var result = state.sessionResult(key, update.state, change: update.change)
        result.evicted = evicted
        return result
    }
}
