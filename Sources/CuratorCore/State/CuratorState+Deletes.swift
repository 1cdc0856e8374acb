// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// Delete plans (the "Delete?" alert of article 000): prepared from a session's
/// selection or from explicit ids, ordered by descending view position, pinned to
/// each photo's identity, voided by any change to the selection, and expiring.
extension CuratorState {
    func prepareDelete(_ args: DeletePrepareRequest, uid: UInt32) throws(ProtocolError) -> DeletePlanResult {
        let key = try sessionKey(args.session, uid: uid)
        let state = session(key)
        dropExpiredPlans()
        var ids: [Int64]
        if let explicit = args.ids {
            guard !explicit.isEmpty else { throw ProtocolError(.emptySelection, "No photos were named.", argument: "ids") }
            guard explicit.count <= config.maxSelection else {
                throw ProtocolError(.invalidArgument, "A plan may name at most \(config.maxSelection) photos (max_selection).",
                                    argument: "ids")
            }
            let unknown = explicit.filter { library.photo($0) == nil }
            if !unknown.isEmpty {
                throw ProtocolError(.noSuchPhoto, "No photo has the id \(unknown.map(String.init).joined(separator: ", ")).", photos: unknown)
            }
            ids = explicit.firstOccurrences()
        } else {
            ids = state.selection.items.filter { library.photo($0) != nil }
            guard !ids.isEmpty else {
                throw ProtocolError(.emptySelection, state.mode == .select ? "Nothing is selected." : "Nothing is selected: the session is in view mode.")
            }
        }
        // What the checks and the plan need of each root, read once: reading
        // `roots[id]` copies a whole `RootRuntime`, three times per photo before.
        let rootFacts = RootFacts(self)
        let rootParts = roots.mapValues { (name: $0.config.name, path: $0.config.path) }
        let refused = rootFacts.mayProtect.isEmpty ? [] : ids.filter { library.photo($0).map(isProtected) ?? false }
        if !refused.isEmpty {
            throw ProtocolError(.protected, "\(Self.count(refused.count)) in a protected folder and cannot be deleted.", photos: refused)
        }
        let offline = ids.filter { id in
            library.photo(id).map { rootParts[$0.rootID] == nil || rootFacts.offline.contains($0.rootID) } ?? false
        }
        if !offline.isEmpty {
            throw ProtocolError(.rootOffline, "\(Self.count(offline.count)) on a root that is offline (unmounted?).", photos: offline)
        }
        // Descending position in the session's view (article 000: highest index first).
        // Then the photos its filter hides (a filter keeps the selection, article 001),
        // by descending position in the same page and sort without the filter; then
        // photos outside the view's folder, newest id first.
        let planned = Set(ids)
        var position: [Int64: Int] = [:]
        position.reserveCapacity(ids.count)
        for (index, id) in ((try? resolve(state.view)) ?? []).enumerated() where planned.contains(id) { position[id] = index + 1 }
        var unfiltered: [Int64: Int] = [:]
        if position.count < planned.count && (state.view.hasFilter || state.view.recursive == false) {
            var page = state.view
            page.filter = nil
            page.recursive = nil
            for (index, id) in ((try? resolve(page)) ?? []).enumerated() where planned.contains(id) && position[id] == nil {
                unfiltered[id] = index + 1
            }
        }
        ids.sort { a, b in
            let ka = (position[a], unfiltered[a] ?? 0)
            let kb = (position[b], unfiltered[b] ?? 0)
            switch (ka.0, kb.0) {
            case let (pa?, pb?): return pa > pb
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return ka.1 != kb.1 ? ka.1 > kb.1 : a > b
            }
        }
        var items: [BatchPlanItem] = []
        var shown: [PlanItem] = []
        var bytes: Int64 = 0
        for (index, id) in ids.enumerated() {
            guard let photo = library.photo(id), let root = rootParts[photo.rootID] else { continue }
            let relative = library.relativePath(of: photo)
            items.append(BatchPlanItem(photoID: id, rootName: root.name, rootPath: root.path, relativePath: relative,
                                       identity: photo.identity))
            let wire = wirePath(relative)
            shown.append(PlanItem(step: index + 1, id: id, root: root.name, path: wire.path, pathRaw: wire.pathRaw,
                                  size: photo.size, position: position[id]))
            bytes += photo.size
        }
        // Each plan pins its photos' paths until it is confirmed or expires: a user's
        // waiting plans are bounded, the oldest making room for a new one.
        let waiting = plans.values.filter { $0.key.uid == uid }.sorted { $0.expiresAt < $1.expiresAt }
        for old in waiting.prefix(max(0, waiting.count - (Self.maxPlansPerUser - 1))) { plans[old.token] = nil }
        let ttl = config.planTTLSeconds
        let plan = DeletePlan(token: DeletePlan.makeToken(), key: key, generation: args.ids == nil ? state.generation : nil,
                              expiresAt: MonotonicClock.nanoseconds() + UInt64(ttl * 1e9), items: items)
        plans[plan.token] = plan
        return DeletePlanResult(token: plan.token, expiresInMs: Int(ttl * 1000), items: shown, count: shown.count, bytes: bytes)
    }

    static func count(_ n: Int) -> String { n == 1 ? "1 photo is" : "\(n) photos are" }

    /// Delete plans one user may have waiting for confirmation.
    static let maxPlansPerUser = 8

    func cancelDelete(_ args: DeleteCancelRequest, uid: UInt32) throws(ProtocolError) -> DeleteCancelResult {
        let key = try sessionKey(args.session, uid: uid)
        let doomed = plans.values.filter { $0.key == key && (args.token == nil || $0.token == args.token) }.map(\.token)
        for token in doomed { plans[token] = nil }
        return DeleteCancelResult(cancelled: doomed.count)
    }

    /// Takes a plan for confirmation: checks owner, expiry, the selection it was
    /// made from, and that no other batch runs; re-checks protection (a reload may
    /// have protected a folder since).
    func takePlan(_ args: DeleteConfirmRequest, uid: UInt32) throws(ProtocolError) -> DeletePlan {
        let key = try sessionKey(args.session, uid: uid)
        guard var plan = plans[args.token], plan.key.uid == uid else {
            throw ProtocolError(.tokenInvalid, "This delete token is unknown, already used, cancelled, or replaced by newer plans; prepare the delete again.",
                                argument: "token")
        }
        if args.session != nil && plan.key != key {
            throw ProtocolError(.tokenInvalid, "This delete token belongs to another session.", argument: "token")
        }
        if MonotonicClock.nanoseconds() > plan.expiresAt {
            plans[args.token] = nil
            throw ProtocolError(.tokenExpired, "This delete plan has expired; prepare the delete again.", argument: "token")
        }
        if let generation = plan.generation, session(plan.key).generation != generation {
            plans[args.token] = nil
            throw ProtocolError(.tokenInvalid, "The selection changed since this plan was shown; prepare the delete again.",
                                argument: "token")
        }
        if batchRunning {
            throw ProtocolError(.batchRunning, "Another batch is being carried out; try again when it is done.")
        }
        plans[args.token] = nil
        for index in plan.items.indices {
            if let photo = library.photo(plan.items[index].photoID) { plan.items[index].isProtected = isProtected(photo) }
        }
        batchRunning = true
        return plan
    }

    func dropExpiredPlans() {
        let now = MonotonicClock.nanoseconds()
        for (token, plan) in plans where plan.expiresAt < now { plans[token] = nil }
    }

    /// A chunk of a running batch reached the trash (and its journal): those photos
    /// leave the index now, in one index transaction and one publication (selections
    /// are settled once, at the end of the batch). Tombstones come from the plan's
    /// pinned identities, not the index: the watcher may have seen the renames out of
    /// the root and unindexed some photos already.
    func photosTrashed(_ photos: [(id: Int64, identity: FileIdentity)]) {
        for photo in photos {
            tombstones[InodeKey(device: photo.identity.device, inode: photo.identity.inode)] = photo.id
        }
        let present = photos.filter { library.photo($0.id) != nil }
        guard !present.isEmpty else { return }
        do {
            let changes = try library.batch { () throws -> [LibraryChange] in
                try present.compactMap { try library.remove($0.id) }
            }
            publishWithoutSelections(changes)
        } catch {
            log.error("cannot unindex \(present.count) trashed photos: \(error)")
        }
    }

    /// The end of a batch: selections lose the trashed photos; the session the plan
    /// came from leaves select mode with an empty selection (article 000).
    ///
    /// The plan's own session changes here by its own request (the confirm): its
    /// followers hear it, except the confirming client (`origin`). Other sessions
    /// holding trashed photos lose them as to a deletion on disk, and all their
    /// followers hear it.
    func finishBatch(_ plan: DeletePlan, trashed: [Int64], origin: ObjectIdentifier? = nil) {
        batchRunning = false
        let current = session(plan.key)
        var update = current.removingVanished(trashed)
        if plan.generation != nil, let left = try? update.state.setMode(.view) { update.state = left.state }
        do {
            try commit(update.state, for: plan.key, replacing: current, origin: origin)
        } catch {
            log.error("cannot save session \(plan.key.name): \(error)")
        }
        if !trashed.isEmpty { photosLeft(trashed) }
    }

    /// A photo back from the trash: indexed again (with its former id: the tombstone
    /// is keyed by its inode), whichever of the watcher and the undo sees it first.
    func photoRestored(_ restored: RestoredPhoto) {
        guard let rootID = rootID(named: restored.rootName), let root = roots[rootID] else { return }
        if restored.sameInode {
            tombstones[InodeKey(device: restored.identity.device, inode: restored.identity.inode)] = restored.photoID
        }
        let absolute = root.config.path.appending(restored.relativePath)
        guard let type = NameFilter(root.config).photoType(restored.relativePath.lastComponent),
              let status = try? FileStatus.ifExists(absolute), status.isRegularFile
        else { return }
        do {
            try fileAppeared(root: rootID, directory: restored.relativePath.parent,
                             file: ScannedFile(name: restored.relativePath.lastComponent, status: status, type: type))
        } catch {
            log.error("cannot index restored photo \(absolute.lossyString): \(error)")
        }
    }
}

extension Array where Element: Hashable {
    /// Each element once, where it first occurs.
    fileprivate func firstOccurrences() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
