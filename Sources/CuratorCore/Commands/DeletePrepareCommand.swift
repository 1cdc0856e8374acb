// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Glibc

/// `delete.prepare` (the "Delete?" alert of article 000): a plan of the session's
/// selection, or of explicit ids, in trashing order (descending view position),
/// each photo's identity pinned; a token to confirm it with before it expires.
/// Any change to the selection voids it.
enum DeletePrepareCommand: StateCommand {
    static func run(in state: any PlanScope, _ args: DeletePrepareRequest, caller: Caller) throws(ProtocolError) -> DeletePlanResult {
        let library = state.library
        let config = state.config
        let key = try SessionKey.named(args.session, uid: caller.uid)
        let only = try part(args.only)
        let session = state.session(key)
        state.plans.dropExpired(now: MonotonicClock.nanoseconds())
        var ids: [Int64]
        // Each photo as listed, looked up once: the checks and the plan all need it.
        var listed: [Int64: Photo] = [:]
        if let explicit = args.ids {
            guard !explicit.isEmpty else { throw ProtocolError(.emptySelection, "No photos were named.", argument: "ids") }
            guard explicit.count <= config.maxSelection else {
                throw ProtocolError(.invalidArgument, "A plan may name at most \(config.maxSelection) photos (max_selection).",
                                    argument: "ids")
            }
            ids = explicit.firstOccurrences()
            listed.reserveCapacity(ids.count)
            // A photo (a group's id) the user may not see is one that does not exist, for them.
            var unknown: [Int64] = []
            for id in ids {
                if let photo = library.listed(id), state.maySee(photo, uid: key.uid) { listed[id] = photo } else { unknown.append(id) }
            }
            if !unknown.isEmpty {
                throw ProtocolError(.noSuchPhoto, "No photo has the id \(unknown.map(String.init).joined(separator: ", ")).", photos: unknown)
            }
        } else {
            ids = []
            for id in session.selection.items {
                guard let photo = library.listed(id) else { continue }
                listed[id] = photo
                ids.append(id)
            }
            guard !ids.isEmpty else {
                throw ProtocolError(.emptySelection, session.mode == .select ? "Nothing is selected." : "Nothing is selected: the session is in view mode.")
            }
        }
        // What the checks and the plan need of each root, read once: reading a root's
        // runtime copies a whole `RootRuntime`, three times per photo before.
        let rootFacts = state.roots.facts
        let rootParts = state.roots.mapRuntimes { (name: $0.config.name, path: $0.config.path) }
        let refused = rootFacts.mayProtect.isEmpty ? [] : ids.filter { listed[$0].map(state.isProtected) ?? false }
        if !refused.isEmpty {
            throw ProtocolError(.protected, "\(count(refused.count)) in a protected folder and cannot be deleted.", photos: refused)
        }
        let offline = ids.filter { id in
            listed[id].map { rootParts[$0.rootID] == nil || rootFacts.offline.contains($0.rootID) } ?? false
        }
        if !offline.isEmpty {
            throw ProtocolError(.rootOffline, "\(count(offline.count)) on a root that is offline (unmounted?).", photos: offline)
        }
        // A trash made for someone else must become theirs; a daemon that may not chown
        // would skip every photo at delete time: refused here, before anything is shown.
        if caller.uid != geteuid(), !FilePrivilege.current.mayChown {
            throw ProtocolError(.trashUnavailable, "curatord (uid \(geteuid())) may not make a trash that belongs to you (uid "
                                + "\(caller.uid)): it lacks CAP_CHOWN, so nothing can be trashed for you. Its start-up "
                                + "message and `curatord --check-config` say how to give it the capability.")
        }
        // Descending position in the session's view (article 000: highest index first).
        // Then the photos its filter hides (a filter keeps the selection, article 001),
        // by descending position in the same page and sort without the filter; then
        // photos outside the view's folder, newest id first.
        // Positions without the whole view where the view is by name (`ViewPositions`).
        let position = (try? state.positions(of: listed, inView: session.view, uid: key.uid)) ?? [:]
        var unfiltered: [Int64: Int] = [:]
        if position.count < listed.count && (session.view.hasFilter || session.view.recursive == false) {
            var page = session.view
            page.filter = nil
            page.recursive = nil
            unfiltered = (try? state.positions(of: listed.filter { position[$0.key] == nil }, inView: page, uid: key.uid)) ?? [:]
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
        // Each photo with every file of its group (issue 15), or the part `only` names:
        // one unit in the batch, trashed whole or left whole.
        var items: [BatchPlanItem] = []
        var shown: [PlanItem] = []
        var bytes: Int64 = 0
        for id in ids {
            guard let photo = listed[id], let root = rootParts[photo.rootID] else { continue }
            let files = state.filesToTrash(of: photo, only: only)
            guard !files.isEmpty else { continue }
            let isGroup = files.count > 1 || files.first?.id != photo.id || only != nil
            // The shown file last: an undo, which goes backwards, puts it back first,
            // and the group comes back under the id it had.
            for file in files.reversed() {
                items.append(BatchPlanItem(photoID: file.id, rootName: root.name, rootPath: root.path,
                                           relativePath: library.relativePath(of: file), identity: file.identity,
                                           unit: isGroup ? id : nil))
            }
            let size = files.reduce(0) { $0 + $1.size }
            let wire = state.wirePath(library.relativePath(of: photo))
            shown.append(PlanItem(step: shown.count + 1, id: id, root: root.name, path: wire.path, pathRaw: wire.pathRaw,
                                  size: size, position: position[id], files: isGroup ? files.map(state.planFile) : nil,
                                  orphan: photo.role == .orphan ? true : nil))
            bytes += size
        }
        guard !shown.isEmpty else {
            throw ProtocolError(.emptySelection, "No photo of the \(ids.count) named has a \(args.only ?? "") file: nothing to delete.",
                                argument: "only")
        }
        let ttl = config.planTTLSeconds
        let plan = DeletePlan(token: DeletePlan.makeToken(), key: key, generation: args.ids == nil ? session.generation : nil,
                              expiresAt: MonotonicClock.nanoseconds() + UInt64(ttl * 1e9), items: items)
        state.plans.add(plan)
        return DeletePlanResult(token: plan.token, expiresInMs: Int(ttl * 1000), items: shown, count: shown.count, bytes: bytes,
                                files: items.count, photos: shown.count)
    }

    /// `only`: the part of each group to trash.
    private static func part(_ text: String?) throws(ProtocolError) -> MemberKind? {
        guard let text else { return nil }
        switch text {
        case "raw": return .raw
        case "rendered": return .rendered
        default:
            throw ProtocolError(.invalidArgument, "only must be \"raw\" or \"rendered\", not \"\(text)\".", argument: "only")
        }
    }

    private static func count(_ n: Int) -> String { n == 1 ? "1 photo is" : "\(n) photos are" }
}

extension Array where Element: Hashable {
    /// Each element once, where it first occurs.
    fileprivate func firstOccurrences() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
