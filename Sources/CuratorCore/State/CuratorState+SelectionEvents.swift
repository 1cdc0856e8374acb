// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// Selections changed by something other than a request on them (photos that left
/// the disk, were trashed, or became protected), and the `selection` events that
/// tell a session's followers of any change: sessions, the index and the roots'
/// rules for the photos, and the subscribers that follow.
extension CuratorState {
    /// Takes photos that left out of every selection, saves the sessions changed,
    /// and tells their followers the new numbering. Called at the end of each burst
    /// of file events, scan step and batch, and before any session is read.
    func flushSelections() {
        guard sessions.hasLeavers else { return }
        for (key, state) in sessions.settleLeavers() { sendSelectionEvent(key, state) }
    }

    /// Selected photos that are protected now leave every selection, as photos that
    /// left the disk do: protected photos cannot be selected (article 003's
    /// non-removable sections). After a folder moved (`root`, `within` its new
    /// path) or a configuration reload (everything). Costs the photos selected,
    /// and nothing where no rule protects anything.
    func unselectProtected(root: Int32? = nil, within folder: ByteString? = nil) {
        let rules = roots.facts.mayProtect
        if rules.isEmpty || root.map({ !rules.contains($0) }) == true { return }
        var checked = Set<Int64>()
        var leaving: [Int64] = []
        for state in sessions.all.values {
            for id in state.selection.items where checked.insert(id).inserted {
                guard let photo = library.listed(id), rules.contains(photo.rootID) else { continue }
                if let root, photo.rootID != root { continue }
                if let folder, !(library.folders[photo.folderID]?.path.isWithin(folder) ?? false) { continue }
                if isProtected(photo) { leaving.append(id) }
            }
        }
        if !leaving.isEmpty { sessions.photosLeft(leaving) }
    }

    /// A session's state, to the subscribers that follow it (its owner's, for that
    /// session or all of them), except `origin`, the client whose request made it.
    /// Built only when someone will receive it.
    func sendSelectionEvent(_ key: SessionKey, _ state: SessionState, except origin: ObjectIdentifier? = nil) {
        guard events.hasFollowers(of: key, except: origin) else { return }
        let hidden = hiddenSelected(state)
        let totals = selectedTotals(state)
        let line = Wire.event(Event(event: .selection, session: key.name, mode: state.mode, view: state.view,
                                    cap: .some(state.selection.cap), bytes: totals.bytes, hidden: hidden.count,
                                    orphans: totals.orphans,
                                    items: selectionItems(state, hidden: hidden, uid: key.uid), count: state.selection.count))
        events.deliver(line, toFollowersOf: key, except: origin)
    }
}
