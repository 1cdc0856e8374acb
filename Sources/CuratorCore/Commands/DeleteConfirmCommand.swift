// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// `delete.confirm`: a plan carried out (`BatchCoordinator.delete`). Photos go to
/// the trash in the plan's order, each journaled first; each chunk leaves the index
/// as it reaches the trash, and the owner's subscribers hear every photo's outcome.
/// A photo that changed since the plan, or is protected now, is skipped and reported.
enum DeleteConfirmCommand: CuratorCommand {
    static func run(_ args: DeleteConfirmRequest, curator: any BatchScope, caller: Caller) throws -> BatchResult {
        // Checked under the lock `beginStopping` takes: a batch is either known to a
        // stopping daemon (which waits for it to stop) or refused before anything is journaled.
        let plan = try curator.withPlans { (state) throws(ProtocolError) in
            if curator.isStopping { throw Curator.stoppingError }
            return try takePlan(in: state, args, uid: caller.uid)
        }
        return try curator.batchCoordinator.delete(plan, items: Self.withTrash(plan.items, curator.configuration), caller: caller)
    }

    /// Takes a plan for confirmation: checks owner, expiry, the selection it was
    /// made from, and that no other batch holds one of its roots; re-checks
    /// protection (a reload may have protected a folder since). Takes its roots' slots.
    static func takePlan(in state: any PlanTakingScope, _ args: DeleteConfirmRequest, uid: UInt32) throws(ProtocolError) -> DeletePlan {
        let key = try SessionKey.named(args.session, uid: uid)
        guard var plan = state.plans[args.token], plan.key.uid == uid else {
            throw ProtocolError(.tokenInvalid, "This delete token is unknown, already used, cancelled, or replaced by newer plans; prepare the delete again.",
                                argument: "token")
        }
        if args.session != nil && plan.key != key {
            throw ProtocolError(.tokenInvalid, "This delete token belongs to another session.", argument: "token")
        }
        if MonotonicClock.nanoseconds() > plan.expiresAt {
            state.plans.remove(args.token)
            throw ProtocolError(.tokenExpired, "This delete plan has expired; prepare the delete again.", argument: "token")
        }
        if let generation = plan.generation, state.session(plan.key).generation != generation {
            state.plans.remove(args.token)
            throw ProtocolError(.tokenInvalid, "The selection changed since this plan was shown; prepare the delete again.",
                                argument: "token")
        }
        if let busy = state.plans.claim(plan.roots) { throw Curator.busyError(busy) }
        state.plans.remove(args.token)
        for index in plan.items.indices {
            if let photo = state.library.photo(plan.items[index].photoID) { plan.items[index].isProtected = state.isProtected(photo) }
        }
        return plan
    }

    /// The plan's photos with their roots' trash as configured now (a reload between
    /// plan and confirm counts): the kind and, for a recycle folder, its group.
    static func withTrash(_ items: [BatchPlanItem], _ config: Configuration) -> [BatchPlanItem] {
        var groups: [String: UInt32?] = [:]
        // Nearly every item is of the root the item before it was: its lookup kept.
        var last: (name: String, root: RootConfig?)?
        return items.map { item in
            var item = item
            let root: RootConfig?
            if let last, last.name == item.rootName {
                root = last.root
            } else {
                root = config.root(named: item.rootName)
                last = (item.rootName, root)
            }
            guard let root else { return item }
            item.trash = root.trash
            if let name = root.recycleGroup {
                if groups[name] == nil { groups[name] = .some(UserAccount.groupID(named: name)) }
                item.recycleGroup = groups[name] ?? nil
            }
            return item
        }
    }
}
