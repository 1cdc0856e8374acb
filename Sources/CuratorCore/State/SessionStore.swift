// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials

/// Every user's sessions (view, mode, ordered selection), by owner uid and name;
/// when each was last used; and the photos waiting to leave the selections that
/// hold them. A session is saved before it is installed, so memory never holds
/// what the index file could not take.
///
/// Use is a sequence number (higher: later). A change saves it with the session;
/// a mere read is saved at a clean stop (`saveUse`), not by a write per read.
struct SessionStore {
    private let persistence: any SessionPersistence
    private(set) var all: [SessionKey: SessionState] = [:]
    private var use: [SessionKey: Int64] = [:]
    private var lastUse: Int64 = 0
    /// Sessions read since they were last saved.
    private var unsavedUse: Set<SessionKey> = []
    /// Photos that left the disk (or were trashed, or are protected now), still to
    /// be taken out of the selections that hold them (`settleLeavers`).
    private var leaving: Set<Int64> = []

    init(persistence: any SessionPersistence) {
        self.persistence = persistence
    }

    var count: Int { all.count }

    subscript(key: SessionKey) -> SessionState? { all[key] }

    /// Reads every stored session. Photos `isGone` names (they left while the
    /// daemon was down, or a changed configuration protects them now) leave the
    /// selections. A session that cannot be read starts afresh, with a warning.
    mutating func load(removing isGone: (Int64) -> Bool) throws {
        let decoder = JSONDecoder()
        for row in try persistence.loadSessions() {
            do {
                let stored = try decoder.decode(StoredSession.self, from: Data(row.state))
                var state = stored.state
                let missing = state.selection.items.filter(isGone)
                if !missing.isEmpty { state = state.removingVanished(missing).state }
                let key = SessionKey(uid: row.uid, name: row.name)
                all[key] = state
                use[key] = stored.used
                lastUse = max(lastUse, stored.used)
            } catch {
                log.warning("session \(row.name) of uid \(row.uid) could not be read and starts afresh: \(error)")
            }
        }
    }

    /// The session `key`, counted as used now; nil for one never changed (or forgotten).
    mutating func use(_ key: SessionKey) -> SessionState? {
        guard let state = all[key] else { return nil }
        lastUse += 1
        use[key] = lastUse
        unsavedUse.insert(key)
        return state
    }

    /// When each session was used, as far as `use` and `save` go (tests).
    func lastUse(of key: SessionKey) -> Int64? { use[key] }

    /// Saves, then installs. A session that fails to save keeps its old state. A
    /// new session first gets its place among its user's (`makeRoom`, within
    /// `maxPerUser`; `busy` are the sessions a delete plan waits on). Returns the
    /// name of the idle session forgotten to make room, if any.
    @discardableResult
    mutating func save(_ state: SessionState, for key: SessionKey, maxPerUser: Int,
                       busy: @autoclosure () -> Set<SessionKey>) throws(ProtocolError) -> String? {
        let evicted = all[key] == nil ? try makeRoom(for: key, maxPerUser: maxPerUser, busy: busy()) : nil
        lastUse += 1
        do {
            try persist(state, for: key, used: lastUse)
        } catch {
            throw ProtocolError(.internalError, "The session could not be saved: \(error).")
        }
        all[key] = state
        use[key] = lastUse
        unsavedUse.remove(key)
        return evicted
    }

    /// Room for a new session of `key`'s user, who may keep `maxPerUser`. At the
    /// limit, the least recently used of the user's idle sessions (nothing
    /// selected, no delete plan waiting) is forgotten: all it held was a view, and
    /// its name starts afresh if used again. When every one holds a selection, the
    /// new session is refused (`too_many_sessions`): a selection is never dropped
    /// behind its owner's back. Returns the name forgotten, if any.
    private mutating func makeRoom(for key: SessionKey, maxPerUser limit: Int, busy: Set<SessionKey>) throws(ProtocolError) -> String? {
        var mine = all.keys.filter { $0.uid == key.uid }
        guard mine.count >= limit else { return nil }
        var evicted: [String] = []
        while mine.count >= limit {
            let idle = mine.filter { all[$0]?.selection.isEmpty == true && !busy.contains($0) }
            guard let oldest = idle.min(by: { (use[$0] ?? 0, $0.name) < (use[$1] ?? 0, $1.name) }) else {
                let names = mine.map(\.name).sorted()
                let shown = names.prefix(10).joined(separator: ", ") + (names.count > 10 ? ", ..." : "")
                throw ProtocolError(.tooManySessions, "You have \(mine.count) sessions (\(shown)), the most one user may keep "
                    + "(max_sessions_per_user \(limit)), and each holds a selection or a delete plan. Free one by leaving select "
                    + "mode in it (curatorctl --session NAME mode view), or use one of them.", argument: "session")
            }
            do {
                try persistence.deleteSession(uid: oldest.uid, name: oldest.name)
            } catch {
                log.warning("session \(oldest.name) of uid \(oldest.uid) could not be deleted from the index: \(error)")
            }
            all[oldest] = nil
            use[oldest] = nil
            unsavedUse.remove(oldest)
            mine.removeAll { $0 == oldest }
            evicted.append(oldest.name)
            log.notice("uid \(key.uid): idle session \(oldest.name) forgotten to make room for \(key.name) "
                       + "(max_sessions_per_user \(limit))")
        }
        return evicted.last
    }

    /// What the session `key` may select: the tighter of `maxSelection` and what
    /// the user's other sessions leave of `maxPerUser`.
    func selectionLimit(for key: SessionKey, maxSelection: Int, maxPerUser: Int) -> SelectionLimit {
        var others = 0
        for (other, state) in all where other.uid == key.uid && other != key { others += state.selection.count }
        return .tightest(maxSelection: maxSelection, maxPerUser: maxPerUser, others: others)
    }

    /// Saves when each session read since its last save was used, so that the
    /// order of use survives a clean stop. After a crash, the order of the last
    /// changes stands.
    mutating func saveUse() {
        for key in unsavedUse {
            guard let state = all[key], let used = use[key] else { continue }
            do {
                try persist(state, for: key, used: used)
            } catch {
                log.warning("session \(key.name) of uid \(key.uid): its last use could not be saved: \(error)")
            }
        }
        unsavedUse.removeAll()
    }

    // MARK: photos leaving selections

    /// Photos gone from disk (or trashed, or protected now) are collected here and
    /// taken out of the selections once per burst (`settleLeavers`): a batch of
    /// 10 000 photos would otherwise copy, save and re-send a 10 000-photo selection
    /// for every photo. A crash before then loses nothing: vanished ids are dropped
    /// again when sessions load.
    mutating func photosLeft(_ ids: some Sequence<Int64>) { leaving.formUnion(ids) }

    var hasLeavers: Bool { !leaving.isEmpty }

    /// Takes the photos that left out of every selection that holds them and saves
    /// each session changed (one that cannot be saved changes in memory all the
    /// same, with an error logged: the photo is gone either way). Returns those
    /// sessions, for their followers to hear.
    mutating func settleLeavers() -> [(key: SessionKey, state: SessionState)] {
        guard !leaving.isEmpty else { return [] }
        let gone = leaving
        leaving.removeAll()
        var changed: [(key: SessionKey, state: SessionState)] = []
        for (key, state) in all {
            guard let updated = remove(Array(gone.filter(state.selection.contains)), from: key) else { continue }
            changed.append((key, updated))
        }
        return changed
    }

    /// Photos its owner may no longer see leave one session's selection (a folder
    /// made unreadable to them, or gone from the disk: `settleLeavers`), saved at once.
    /// Returns the new state; nil when there is no such session or no id is given.
    mutating func remove(_ ids: [Int64], from key: SessionKey) -> SessionState? {
        guard let state = all[key], !ids.isEmpty else { return nil }
        let updated = state.removingVanished(ids).state
        lastUse += 1
        do {
            try persist(updated, for: key, used: lastUse)
            use[key] = lastUse
            unsavedUse.remove(key)
        } catch {
            log.error("session \(key.name) of uid \(key.uid) could not be saved: \(error)")
        }
        all[key] = updated
        return updated
    }

    private func persist(_ state: SessionState, for key: SessionKey, used: Int64) throws {
        let data = try JSONEncoder().encode(StoredSession(state: state, used: used))
        try persistence.saveSession(uid: key.uid, name: key.name, state: Array(data))
    }
}
