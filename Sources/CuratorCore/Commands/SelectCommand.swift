// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// `select`: photos join the session's selection, numbered in the order named (article 002).
enum SelectCommand: StateCommand {
    static func run(in state: any SessionScope, _ args: SelectRequest, caller: Caller) throws(ProtocolError) -> SessionResult {
        try SelectionVerb.select.run(in: state, args, caller: caller)
    }
}
