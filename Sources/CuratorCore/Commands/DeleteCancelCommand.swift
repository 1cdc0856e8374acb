// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// `delete.cancel`: the one plan a token names forgotten, or without a token the
/// session's waiting plans. A token is answered as `delete.confirm` answers it: it
/// names its plan whatever session the request names, and one the caller has no
/// plan for is `token_invalid`, so that a client told the plan is cancelled never
/// finds its photos in the trash.
enum DeleteCancelCommand: StateCommand {
    static func run(in state: any PlanCancelScope, _ args: DeleteCancelRequest, caller: Caller) throws(ProtocolError) -> DeleteCancelResult {
        let key = try SessionKey.named(args.session, uid: caller.uid)
        guard let token = args.token else { return DeleteCancelResult(cancelled: state.plans.cancel(session: key)) }
        guard state.plans.cancel(token: token, uid: caller.uid) else {
            throw ProtocolError(.tokenInvalid, "This delete token is unknown, already used, cancelled, or replaced by newer plans; nothing was cancelled.",
                                argument: "token")
        }
        return DeleteCancelResult(cancelled: 1)
    }
}
