// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials
import Glibc

/// Sessions and selections (articles 000-003): requests resolve positions and
/// filters against the session's view into photo ids, apply the `SessionState`
/// rules, persist, and only then install the new state.
extension CuratorState {
    var sessionCount: Int { sessions.count }

    func loadSessions() throws {
        let decoder = JSONDecoder()
        for row in try library.storeForRoots.loadSessions() {
            do {
                let stored = try decoder.decode(StoredSession.self, from: Data(row.state))
                var state = stored.state
                // Photos that left while the daemon was down leave the selection too, and
                // so do photos a changed configuration protects now.
                let missing = state.selection.items.filter { id in library.photo(id).map(isProtected) ?? true }
                if !missing.isEmpty { state = state.removingVanished(missing).state }
                let key = SessionKey(uid: row.uid, name: row.name)
                sessions[key] = state
                sessionUse[key] = stored.used
                lastSessionUse = max(lastSessionUse, stored.used)
            } catch {
                log.warning("session \(row.name) of uid \(row.uid) could not be read and starts afresh: \(error)")
            }
        }
    }

    func sessionKey(_ name: String?, uid: UInt32) throws(ProtocolError) -> SessionKey {
        guard let valid = SessionKey.validate(name) else {
            throw ProtocolError(.invalidArgument, "A session name is 1-64 letters, digits, '-', '_' or '.'.", argument: "session")
        }
        return SessionKey(uid: uid, name: valid)
    }

    func session(_ key: SessionKey) -> SessionState {
        flushSelections()
        guard let state = sessions[key] else { return SessionState(view: defaultView) }
        lastSessionUse += 1
        sessionUse[key] = lastSessionUse
        unsavedUse.insert(key)
        return state
    }

    var defaultView: ViewSpec { ViewSpec() }

    /// A request's change to a session: persisted and installed, then, when it
    /// changed anything, told to the session's followers except the client that
    /// asked (`origin`): the answer tells that one. Returns the name of the idle
    /// session forgotten to make room, when the change created this one.
    @discardableResult
    func commit(_ state: SessionState, for key: SessionKey, replacing old: SessionState,
                origin: ObjectIdentifier?) throws(ProtocolError) -> String? {
        guard state != old else { return nil }
        let evicted = try install(state, for: key)
        sendSelectionEvent(key, state, except: origin)
        return evicted
    }

    /// Persists, then installs. A session that failed to persist keeps its old state.
    /// A new session first gets its place among its user's (`makeRoom`).
    @discardableResult
    func install(_ state: SessionState, for key: SessionKey) throws(ProtocolError) -> String? {
        let evicted = sessions[key] == nil ? try makeRoom(for: key) : nil
        lastSessionUse += 1
        do {
            let data = try JSONEncoder().encode(StoredSession(state: state, used: lastSessionUse))
            try library.storeForRoots.saveSession(uid: key.uid, name: key.name, state: Array(data))
        } catch {
            throw ProtocolError(.internalError, "The session could not be saved: \(error).")
        }
        sessions[key] = state
        sessionUse[key] = lastSessionUse
        unsavedUse.remove(key)
        return evicted
    }

    func sessionResult(_ key: SessionKey, _ state: SessionState, change: SelectionChange? = nil) -> SessionResult {
        SessionResult(session: key.name, mode: state.mode, view: state.view, cap: state.selection.cap, count: state.selection.count,
                      bytes: selectedBytes(state), hidden: hiddenSelected(state).count,
                      added: change.map { $0.added.count }, removed: change.map { $0.removed.count })
    }

    /// The selected photos the session's view does not show: a filter hides them
    /// (a filter or sort change keeps the selection), or they lie outside its
    /// folder (selected by id). They stay selected and counted, and are deleted
    /// after the photos shown. Costs the selection, not the view.
    func hiddenSelected(_ state: SessionState) -> Set<Int64> {
        guard !state.selection.isEmpty else { return [] }
        guard let view = try? ViewMembership(state.view, state: self) else { return Set(state.selection.items) }
        var hidden = Set<Int64>()
        for id in state.selection.items {
            guard let photo = library.photo(id) else { continue }
            if !view.contains(photo, folderPath: library.folders[photo.folderID]?.path ?? .empty) { hidden.insert(id) }
        }
        return hidden
    }

    func selectedBytes(_ state: SessionState) -> Int64 {
        state.selection.items.reduce(0) { $0 + (library.photo($1)?.size ?? 0) }
    }

    // MARK: commands

    func setView(_ args: ViewRequest, uid: UInt32, origin: ObjectIdentifier? = nil) throws(ProtocolError) -> SessionResult {
        let key = try sessionKey(args.session, uid: uid)
        _ = try resolve(args.view)  // refuse an unknown root or folder before changing anything
        let current = session(key)
        let update = current.setView(args.view)
        let evicted = try commit(update.state, for: key, replacing: current, origin: origin)
        var result = sessionResult(key, update.state, change: update.change)
        result.evicted = evicted
        return result
    }

    func setMode(_ args: ModeRequest, uid: UInt32, origin: ObjectIdentifier? = nil) throws(ProtocolError) -> SessionResult {
        let key = try sessionKey(args.session, uid: uid)
        if let cap = args.cap, cap < 1 || cap > config.maxSelection {
            throw ProtocolError(.invalidArgument, "A cap is a whole number from 1 to \(config.maxSelection) (max_selection).", argument: "cap")
        }
        let current = session(key)
        let update: SessionUpdate
        do {
            update = try current.setMode(args.mode, cap: args.cap, defaultCap: config.selectionCap)
        } catch {
            throw error.protocolError
        }
        let evicted = try commit(update.state, for: key, replacing: current, origin: origin)
        var result = sessionResult(key, update.state, change: update.change)
        result.evicted = evicted
        return result
    }

    enum SelectVerb { case select, deselect, toggle }

    func changeSelection(_ verb: SelectVerb, _ args: SelectRequest, uid: UInt32,
                         origin: ObjectIdentifier? = nil) throws(ProtocolError) -> SessionResult {
        let key = try sessionKey(args.session, uid: uid)
        let current = session(key)
        guard current.mode == .select else { throw SelectionError.notInSelectMode.protocolError }
        var ids = try resolveSelector(args.selector, view: current.view)
        var skipped = 0
        if verb != .deselect {
            // Protected photos cannot be selected (article 003's non-removable sections).
            let adding = verb == .select ? ids : ids.filter { !current.selection.contains($0) }
            let refused = RootFacts(self).mayProtect.isEmpty ? [] : adding.filter { id in library.photo(id).map(isProtected) ?? false }
            if !refused.isEmpty && args.selector.namesInBulk {
                // Named in bulk, they are simply not selectable: the rest is, and the
                // answer says how many were left out.
                let left = Set(refused)
                ids.removeAll(where: left.contains)
                skipped = refused.count
            } else if !refused.isEmpty {
                let paths = refused.prefix(5).compactMap { library.photo($0) }.map { library.relativePath(of: $0).lossyString }
                throw ProtocolError(.protected, "\(refused.count == 1 ? "This photo is" : "\(refused.count) of these photos are") in a protected folder and cannot be selected: \(paths.joined(separator: ", "))\(refused.count > 5 ? ", ..." : "").",
                                    photos: refused)
            }
        }
        let operation: SelectionOperation = switch verb {
        case .select: .select(ids)
        case .deselect: .deselect(ids)
        case .toggle: .toggle(ids)
        }
        let update: SessionUpdate
        do {
            update = try current.apply(operation, limit: selectionLimit(for: key))
        } catch {
            throw error.protocolError
        }
        try commit(update.state, for: key, replacing: current, origin: origin)
        var result = sessionResult(key, update.state, change: update.change)
        if skipped > 0 { result.skippedProtected = skipped }
        return result
    }

    func clearSelection(_ args: SessionRequest, uid: UInt32, origin: ObjectIdentifier? = nil) throws(ProtocolError) -> SessionResult {
        let key = try sessionKey(args.session, uid: uid)
        let current = session(key)
        let update: SessionUpdate
        do {
            update = try current.apply(.clear)
        } catch {
            throw error.protocolError
        }
        try commit(update.state, for: key, replacing: current, origin: origin)
        return sessionResult(key, update.state, change: update.change)
    }

    func selection(_ args: SessionRequest, uid: UInt32) throws(ProtocolError) -> SelectionResult {
        let key = try sessionKey(args.session, uid: uid)
        let state = session(key)
        let hidden = hiddenSelected(state)
        return SelectionResult(session: key.name, mode: state.mode, cap: state.selection.cap, items: selectionItems(state, hidden: hidden),
                               count: state.selection.count, bytes: selectedBytes(state), hidden: hidden.count)
    }

    func selectionItems(_ state: SessionState, hidden: Set<Int64>) -> [SelectionItem] {
        var items: [SelectionItem] = []
        for (index, id) in state.selection.items.enumerated() {
            guard let photo = library.photo(id) else { continue }
            let path = wirePath(library.relativePath(of: photo))
            items.append(SelectionItem(number: index + 1, id: id, root: rootName(photo.rootID), path: path.path, pathRaw: path.pathRaw,
                                       size: photo.size, captureTime: photo.capture.seconds.map { CaptureTime(seconds: $0).wire },
                                       hidden: hidden.contains(id) ? true : nil))
        }
        return items
    }

    /// Turns what a client named into photo ids, in the order named.
    func resolveSelector(_ selector: PhotoSelector, view: ViewSpec) throws(ProtocolError) -> [Int64] {
        let kinds = [selector.positions != nil, selector.ids != nil, selector.all == true, selector.folder != nil,
                     selector.glob != nil, selector.from != nil || selector.to != nil].filter { $0 }.count
        guard kinds == 1 else {
            throw ProtocolError(.invalidArgument, kinds == 0
                ? "Name the photos: positions, ids, all, folder, glob, or a date range (from/to)."
                : "Name the photos one way at a time: positions, ids, all, folder, glob or from/to.")
        }
        if let ids = selector.ids {
            let unknown = ids.filter { library.photo($0) == nil || roots[library.photo($0)?.rootID ?? -1] == nil }
            if !unknown.isEmpty {
                throw ProtocolError(.noSuchPhoto, "No photo has the id \(unknown.map(String.init).joined(separator: ", ")).", photos: unknown)
            }
            return ids
        }
        let viewIDs = try resolve(view)
        if let text = selector.positions {
            do {
                return try PositionSpec(parsing: text).resolve(in: viewIDs)
            } catch {
                throw error.protocolError
            }
        }
        if selector.all == true { return viewIDs }
        var narrowed = view
        var filter = view.filter ?? ViewFilter()
        if let folder = selector.folder {
            let path = ByteString(folder).normalizedRelative
            let ids = viewIDs.filter { id in
                guard let p = library.photo(id), let f = library.folders[p.folderID] else { return false }
                return f.path.isWithin(path)
            }
            if ids.isEmpty && library.folders.values.allSatisfy({ !$0.path.isWithin(path) }) {
                throw ProtocolError(.noSuchFolder, "There is no folder \"\(folder)\" in this view.", argument: "folder")
            }
            return ids
        }
        if let glob = selector.glob { filter.glob = glob }
        if selector.from != nil { filter.from = selector.from }
        if selector.to != nil { filter.to = selector.to }
        narrowed.filter = filter
        let matching = Set(try resolve(narrowed))
        return viewIDs.filter(matching.contains)
    }

    // MARK: custom order

    func reorder(_ args: ReorderRequest, uid: UInt32) throws(ProtocolError) -> ReorderResult {
        let key = try sessionKey(args.session, uid: uid)
        let state = session(key)
        // Article 001: reordering only while no search text is active.
        if state.view.hasFilter {
            throw ProtocolError(.filterActive, "Photos can be reordered only while the view has no filter; clear the filter first.")
        }
        guard state.view.sort == .custom else {
            throw ProtocolError(.invalidArgument, "Reordering works in the custom order: set the view's sort to \"custom\" first.",
                                argument: "sort")
        }
        let ids = try resolve(state.view)
        let id: Int64
        if let given = args.photo {
            guard ids.contains(given) else {
                throw ProtocolError(.noSuchPhoto, "Photo \(given) is not in this session's view.", photos: [given])
            }
            id = given
        } else if let position = args.position {
            guard position >= 1 && position <= ids.count else {
                throw ProtocolError(.noSuchPosition, "There is no position \(position): the view has \(ids.count) photos.", positions: [position])
            }
            id = ids[position - 1]
        } else {
            throw ProtocolError(.invalidArgument, "Name the photo to move by position or id.", argument: "position")
        }
        guard args.to >= 1 && args.to <= ids.count else {
            throw ProtocolError(.noSuchPosition, "There is no position \(args.to): the view has \(ids.count) photos.", positions: [args.to])
        }
        guard let photo = library.photo(id), let from = ids.firstIndex(of: id) else {
            throw ProtocolError(.noSuchPhoto, "Photo \(id) is gone.", photos: [id])
        }
        let target = ids[args.to - 1]
        guard let targetPhoto = library.photo(target), targetPhoto.folderID == photo.folderID else {
            throw ProtocolError(.invalidArgument, "A photo keeps to its folder: position \(args.to) is in another folder.", argument: "to")
        }
        // Move it in the view, then renumber its folder in the resulting order.
        var viewOrder = ids
        viewOrder.remove(at: from)
        viewOrder.insert(id, at: args.to - 1)
        let order = viewOrder.filter { library.photo($0)?.folderID == photo.folderID }
        do {
            try library.batch {
                for (index, member) in order.enumerated() where library.photo(member)?.rank != Int64(index + 1) {
                    try library.setRank(member, Int64(index + 1))
                }
            }
        } catch {
            throw ProtocolError(.internalError, "The new order could not be saved: \(error).")
        }
        viewCache.invalidate()
        return ReorderResult(id: id, from: from + 1, to: args.to)
    }
}
