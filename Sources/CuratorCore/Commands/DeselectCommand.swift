// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// `deselect`: photos leave the selection; the numbers after them shift down.
enum DeselectCommand: StateCommand {
    static func run(in state: any SessionScope, _ args: DeselectRequest, caller: Caller) throws(ProtocolError) -> SessionResult {
        try SelectionVerb.deselect.run(in: state, args, caller: caller)
    }
}
