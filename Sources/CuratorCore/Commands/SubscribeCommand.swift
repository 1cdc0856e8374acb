// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// `subscribe`: the connection hears events from now on (of some roots, and the
/// changes of some of the caller's sessions); a subscriber is never idle.
enum SubscribeCommand: StateCommand {
    static func run(in state: any SubscribeScope, _ args: SubscribeRequest, caller: Caller) throws(ProtocolError) -> SubscribeResult {
        guard let sink = caller.connection else { throw ProtocolError(.internalError, "subscribe needs a connection to send events to") }
        var roots: Set<Int32>?
        if let names = args.roots {
            var ids = Set<Int32>()
            for name in names { ids.insert(try state.roots.id(named: name, argument: "roots")) }
            roots = ids
        }
        var sessions: Set<String>?
        if let names = args.sessions {
            var valid = Set<String>()
            for name in names {
                guard let checked = SessionKey.validate(name) else { throw SessionKey.invalidName(argument: "sessions") }
                valid.insert(checked)
            }
            sessions = valid
        }
        state.events.subscribe(sink, uid: caller.uid, roots: roots, sessions: sessions, thumbnails: args.thumbnails == true)
        return SubscribeResult()
    }
}
