// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// `delete.cancel`: the session's waiting plans (or the one token named) forgotten.
enum DeleteCancelCommand: StateCommand {
    static func arguments(of command: Command) -> DeleteCancelRequest? { if case .deleteCancel(let a) = command { a } else { nil } }

    static func run(in state: CuratorState, _ args: DeleteCancelRequest, caller: Caller) throws(ProtocolError) -> DeleteCancelResult {
        let key = try SessionKey.named(args.session, uid: caller.uid)
        return DeleteCancelResult(cancelled: state.plans.cancel(session: key, token: args.token))
    }
}
