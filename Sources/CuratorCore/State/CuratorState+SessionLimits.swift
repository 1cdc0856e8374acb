// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials

/// What one user's sessions may hold (`max_sessions_per_user`, `max_selection`,
/// `max_selected_per_user`), and the order of use that decides which idle session
/// makes room for a new one.
extension CuratorState {
    /// Saves when each session read since its last save was used, so that the
    /// order of use survives a clean stop. Not worth a write per read: after a
    /// crash, the order of the last changes stands.
    func saveSessionUse() {
        for key in unsavedUse {
            guard let state = sessions[key], let used = sessionUse[key] else { continue }
            do {
                let data = try JSONEncoder().encode(StoredSession(state: state, used: used))
                try library.storeForRoots.saveSession(uid: key.uid, name: key.name, state: Array(data))
            } catch {
                log.warning("session \(key.name) of uid \(key.uid): its last use could not be saved: \(error)")
            }
        }
        unsavedUse.removeAll()
    }

    /// Room for a new session of `key`'s user, who may keep `max_sessions_per_user`.
    /// At the limit, the least recently used of the user's idle sessions (nothing
    /// selected, no delete plan waiting) is forgotten: all it held was a view, and
    /// its name starts afresh if used again. When every one holds a selection, the
    /// new session is refused (`too_many_sessions`): a selection is never dropped
    /// behind its owner's back. Returns the name forgotten, if any.
    func makeRoom(for key: SessionKey) throws(ProtocolError) -> String? {
        let limit = config.maxSessionsPerUser
        var mine = sessions.keys.filter { $0.uid == key.uid }
        guard mine.count >= limit else { return nil }
        let planned = Set(plans.values.map(\.key))
        var evicted: [String] = []
        while mine.count >= limit {
            let idle = mine.filter { sessions[$0]?.selection.isEmpty == true && !planned.contains($0) }
            guard let oldest = idle.min(by: { (sessionUse[$0] ?? 0, $0.name) < (sessionUse[$1] ?? 0, $1.name) }) else {
                let names = mine.map(\.name).sorted()
                let shown = names.prefix(10).joined(separator: ", ") + (names.count > 10 ? ", ..." : "")
                throw ProtocolError(.tooManySessions, "You have \(mine.count) sessions (\(shown)), the most one user may keep "
                    + "(max_sessions_per_user \(limit)), and each holds a selection or a delete plan. Free one by leaving select "
                    + "mode in it (curatorctl --session NAME mode view), or use one of them.", argument: "session")
            }
            do {
                try library.storeForRoots.deleteSession(uid: oldest.uid, name: oldest.name)
            } catch {
                log.warning("session \(oldest.name) of uid \(oldest.uid) could not be deleted from the index: \(error)")
            }
            sessions[oldest] = nil
            sessionUse[oldest] = nil
            unsavedUse.remove(oldest)
            mine.removeAll { $0 == oldest }
            evicted.append(oldest.name)
            log.notice("uid \(key.uid): idle session \(oldest.name) forgotten to make room for \(key.name) "
                       + "(max_sessions_per_user \(limit))")
        }
        return evicted.last
    }

    /// What the session `key` may select: the tighter of `max_selection` and what
    /// the user's other sessions leave of `max_selected_per_user`.
    func selectionLimit(for key: SessionKey) -> SelectionLimit {
        var others = 0
        for (other, state) in sessions where other.uid == key.uid && other != key { others += state.selection.count }
        return .tightest(maxSelection: config.maxSelection, maxPerUser: config.maxSelectedPerUser, others: others)
    }
}
