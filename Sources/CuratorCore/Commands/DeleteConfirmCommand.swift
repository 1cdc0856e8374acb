// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// `delete.confirm`: a plan carried out. Photos go to the trash in the plan's
/// order, each journaled first (`BatchRunner`, under the journal's own lock, never
/// the state's); each chunk leaves the index as it reaches the trash, and the
/// owner's subscribers hear every photo's outcome. A photo that changed since the
/// plan, or is protected now, is skipped and reported.
enum DeleteConfirmCommand: CuratorCommand {
    static func run(_ args: DeleteConfirmRequest, curator: Curator, caller: Caller) throws -> BatchResult {
        // Checked under the lock `beginStopping` takes: a batch is either known to a
        // stopping daemon (which waits for it to stop) or refused before anything is journaled.
        let plan = try curator.withState { (state) throws(ProtocolError) in
            if curator.isStopping { throw Curator.stoppingError }
            return try takePlan(in: state, args, uid: caller.uid)
        }
        let client = caller.credentials
        let origin = caller.origin
        var trashed: [Int64] = []
        let total = plan.items.count
        let requester = Requester.resolving(uid: client.uid, gid: client.gid)
        let ownerOnly = curator.withState { state in
            Set(state.config.roots.filter { $0.deletePolicy == .owner }.map(\.path))
        }
        let leaving = curator.withState { state in
            let rootIDs = Dictionary(state.rootOrder.map { (state.rootName($0), $0) }, uniquingKeysWith: { first, _ in first })
            return plan.items.compactMap { item in
                rootIDs[item.rootName].map { (WatchTable.Entry(rootID: $0, path: item.relativePath), item.photoID) }
            }
        }
        let entries = leaving.map(\.0)
        curator.ownMoves.outgoing.expect(entries)
        defer {
            // Moves the watcher left to the batch that the batch did not make: looked at again.
            let skipped = curator.ownMoves.outgoing.end(entries)
            if !skipped.isEmpty {
                let gone = Set(trashed)
                let again = skipped.map { leaving[$0] }.filter { !gone.contains($0.1) }.map(\.0)
                if !again.isEmpty { curator.inbox.post(.recheck(again)) }
            }
        }
        // A chunk's photos are applied to the state together, on a thread of their own
        // while the next chunk moves: one lock, one index transaction, one view
        // invalidation per chunk rather than per photo. A file is found in the plan by
        // its step (the plan's order).
        let planned = plan.items
        let reports = ChunkReports<[BatchItemResult]> { chunk in
            let gone = chunk.compactMap { (item) -> Burial? in
                guard item.outcome == .trashed, item.step >= 1, item.step <= planned.count else { return nil }
                let file = planned[item.step - 1]
                guard file.photoID == item.id else { return nil }
                return Burial(id: file.photoID, identity: file.identity, rootName: file.rootName, relativePath: file.relativePath)
            }
            curator.withState { state in
                state.photosTrashed(gone)
                for item in chunk {
                    // A group's file is told by the group's id, which clients know.
                    state.events.send(Event(event: .batch, photoId: item.group ?? item.id, state: "trashing", batch: nil,
                                            done: item.step, total: total, outcome: item.outcome),
                                      toUID: client.uid)
                }
            }
        }
        do {
            var reported: [BatchItemResult] = []
            let outcome: BatchOutcome
            do {
                defer { reports.finish() }  // every chunk applied before the batch ends, however it ends
                outcome = try curator.batches.withRunner { (runner) throws(BatchError) in
                    try runner.run(plan: BatchPlan(session: plan.key.name, items: Self.withTrash(plan.items, curator.configuration),
                                                   ownerOnlyRoots: ownerOnly),
                                   requester: requester,
                                   progress: { reported.append($0) },
                                   chunkReported: {
                                       trashed += reported.filter { $0.outcome == .trashed }.map(\.id)
                                       reports.hand(reported)
                                       reported.removeAll(keepingCapacity: true)
                                   },
                                   shouldStop: { curator.isStopping })
                }
            }
            curator.withState { state in
                state.finishBatch(plan, trashed: trashed, origin: origin)
                state.events.send(Event(event: .batch, state: outcome.result.state.rawValue, batch: outcome.result.batch,
                                        done: total, total: total), toUID: client.uid)
            }
            return outcome.result
        } catch {
            curator.withState { state in state.finishBatch(plan, trashed: trashed, origin: origin) }
            throw error
        }
    }

    /// Takes a plan for confirmation: checks owner, expiry, the selection it was
    /// made from, and that no other batch holds one of its roots; re-checks
    /// protection (a reload may have protected a folder since). Takes its roots' slots.
    static func takePlan(in state: CuratorState, _ args: DeleteConfirmRequest, uid: UInt32) throws(ProtocolError) -> DeletePlan {
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
