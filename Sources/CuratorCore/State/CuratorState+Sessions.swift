// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// A session as requests read and change it (articles 000-003): read after the
/// selections are settled, saved within the configured limits, its followers told,
/// and shown with what the index knows of its photos.
extension CuratorState {
    /// The session `key`, counted as used; a fresh one if it has never changed.
    /// Photos that left are taken out of every selection first, and photos its
    /// owner may no longer see out of this one.
    func session(_ key: SessionKey) -> SessionState {
        flushSelections()
        guard let state = sessions.use(key) else { return SessionState(view: ViewSpec()) }
        return withoutUnseen(state, key)
    }

    /// A request's change to a session: saved and installed, then, when it
    /// changed anything, told to the session's followers except the client that
    /// asked (`origin`): the answer tells that one. Returns the name of the idle
    /// session forgotten to make room, when the change created this one.
    @discardableResult
    func commit(_ state: SessionState, for key: SessionKey, replacing old: SessionState,
                origin: ObjectIdentifier?) throws(ProtocolError) -> String? {
        guard state != old else { return nil }
        let evicted = try sessions.save(state, for: key, maxPerUser: config.maxSessionsPerUser, busy: plans.sessionsWaiting)
        sendSelectionEvent(key, state, except: origin)
        return evicted
    }

    /// What the session `key` may select (`max_selection`, `max_selected_per_user`).
    func selectionLimit(for key: SessionKey) -> SelectionLimit {
        sessions.selectionLimit(for: key, maxSelection: config.maxSelection, maxPerUser: config.maxSelectedPerUser)
    }

    func sessionResult(_ key: SessionKey, _ state: SessionState, change: SelectionChange? = nil) -> SessionResult {
        let totals = selectedTotals(state)
        return SessionResult(session: key.name, mode: state.mode, view: state.view, cap: state.selection.cap,
                             count: state.selection.count, bytes: totals.bytes, hidden: hiddenSelected(state).count,
                             orphans: totals.orphans,
                             added: change.map { $0.added.count }, removed: change.map { $0.removed.count })
    }

    /// The selected photos the session's view does not show: a filter hides them
    /// (a filter or sort change keeps the selection), or they lie outside its
    /// folder (selected by id). They stay selected and counted, and are deleted
    /// after the photos shown. Costs the selection, not the view.
    func hiddenSelected(_ state: SessionState) -> Set<Int64> {
        guard !state.selection.isEmpty else { return [] }
        guard let view = try? ViewMembership(state.view, roots: roots) else { return Set(state.selection.items) }
        var hidden = Set<Int64>()
        for id in state.selection.items {
            guard let photo = library.listed(id) else { continue }
            if !view.contains(photo, folderPath: library.folders[photo.folderID]?.path ?? .empty, library: library, marks: marks) { hidden.insert(id) }
        }
        return hidden
    }

    /// The selection's bytes, and how many of it are orphaned sidecars (no photos), in
    /// one pass; the orphans nil when there are none, as the wire leaves them out.
    func selectedTotals(_ state: SessionState) -> (bytes: Int64, orphans: Int?) {
        var bytes: Int64 = 0
        var orphans = 0
        for id in state.selection.items {
            guard let photo = library.listed(id) else { continue }
            // A group's bytes are all of its files' (issue 15), as its delete takes them.
            bytes += library.members(ofGroupShownBy: photo).map(GroupMembers.totalSize) ?? photo.size
            if photo.role == .orphan { orphans += 1 }
        }
        return (bytes, orphans > 0 ? orphans : nil)
    }

    /// The selection as its owner `uid` is shown it: a photo they may no longer see
    /// (until the session is next read and it leaves) is not shown.
    func selectionItems(_ state: SessionState, hidden: Set<Int64>, uid: UInt32) -> [SelectionItem] {
        var items: [SelectionItem] = []
        for (index, id) in state.selection.items.enumerated() {
            guard let photo = library.listed(id), maySee(photo, uid: uid) else { continue }
            let path = wirePath(library.relativePath(of: photo))
            let members = library.members(ofGroupShownBy: photo)
            items.append(SelectionItem(number: index + 1, id: id, root: rootName(photo.rootID), path: path.path, pathRaw: path.pathRaw,
                                       size: photo.size, captureTime: photo.capture.seconds.map { CaptureTime(seconds: $0).wire },
                                       hidden: hidden.contains(id) ? true : nil, captureMs: photo.captureDetail.milliseconds,
                                       captureOffset: photo.captureDetail.offsetWire,
                                       files: members?.count, totalSize: members.map(GroupMembers.totalSize)))
        }
        return items
    }
}
