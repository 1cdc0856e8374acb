// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// `selection`: the session's selected photos, numbered in the order chosen, those
/// its view hides flagged.
enum SelectionCommand: StateCommand {
    static func run(in state: any SessionScope, _ args: SelectionRequest, caller: Caller) throws(ProtocolError) -> SelectionResult {
        let key = try SessionKey.named(args.session, uid: caller.uid)
        let session = state.session(key)
        let hidden = state.hiddenSelected(session)
        let totals = state.selectedTotals(session)
        return SelectionResult(session: key.name, mode: session.mode, cap: session.selection.cap,
                               items: state.selectionItems(session, hidden: hidden, uid: key.uid), count: session.selection.count,
                               bytes: totals.bytes, hidden: hidden.count, orphans: totals.orphans)
    }
}
