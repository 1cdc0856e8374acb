// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// `toggle`: each photo named joins the selection if it is not in it, and leaves it if it is.
enum ToggleCommand: StateCommand {
    static func run(in state: any SessionScope, _ args: ToggleRequest, caller: Caller) throws(ProtocolError) -> SessionResult {
        try SelectionVerb.toggle.run(in: state, args, caller: caller)
    }
}
