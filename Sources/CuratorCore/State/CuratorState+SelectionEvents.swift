// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials

/// Selections changed by something other than a request on them (photos that left
/// the disk, were trashed, or became protected), and the `selection` events that
/// tell a session's followers of any change.
extension CuratorState {
    /// Photos gone from disk (or trashed, or protected now) leave every selection;
    /// each affected session's followers hear the new numbering.
    func photosLeft(_ ids: [Int64]) {
        // Collected here, applied to the sessions once per burst of removals
        // (`flushSelections`): a batch of 10 000 photos would otherwise copy, save and
        // re-send a 10 000-photo selection for every photo. A crash before the save
        // loses nothing: vanished ids are dropped again when sessions load.
        leftSelections.formUnion(ids)
    }

    /// Takes photos that left out of every selection, saves the sessions changed,
    /// and tells their followers the new numbering. Called at the end of each burst
    /// of file events, scan step and batch, and before any session is read.
    func flushSelections() {
        guard !leftSelections.isEmpty else { return }
        let gone = leftSelections
        leftSelections.removeAll()
        for (key, state) in sessions {
            let leaving = Array(gone.filter(state.selection.contains))
            guard !leaving.isEmpty else { continue }
            let updated = state.removingVanished(leaving).state
            do {
                try install(updated, for: key)
            } catch {
                sessions[key] = updated
                log.error("session \(key.name) of uid \(key.uid) could not be saved: \(error)")
            }
            sendSelectionEvent(key, updated)
        }
    }

    /// Selected photos that are protected now leave every selection, as photos that
    /// left the disk do: protected photos cannot be selected (article 003's
    /// non-removable sections). After a folder moved (`root`, `within` its new
    /// path) or a configuration reload (everything). Costs the photos selected,
    /// and nothing where no rule protects anything.
    func unselectProtected(root: Int32? = nil, within folder: ByteString? = nil) {
        let rules = RootFacts(self).mayProtect
        if rules.isEmpty || root.map({ !rules.contains($0) }) == true { return }
        var checked = Set<Int64>()
        var leaving: [Int64] = []
        for state in sessions.values {
            for id in state.selection.items where checked.insert(id).inserted {
                guard let photo = library.photo(id), rules.contains(photo.rootID) else { continue }
                if let root, photo.rootID != root { continue }
                if let folder, !(library.folders[photo.folderID]?.path.isWithin(folder) ?? false) { continue }
                if isProtected(photo) { leaving.append(id) }
            }
        }
        if !leaving.isEmpty { photosLeft(leaving) }
    }

    /// A session's state, to the subscribers that follow it (its owner's, for that
    /// session or all of them), except `origin`, the client whose request made it.
    /// Built only when someone will receive it.
    func sendSelectionEvent(_ key: SessionKey, _ state: SessionState, except origin: ObjectIdentifier? = nil) {
        let followers = subscribers.filter { $0.key != origin && $0.value.follows(key) }
        guard !followers.isEmpty else { return }
        let hidden = hiddenSelected(state)
        let line = Wire.event(Event(event: .selection, session: key.name, mode: state.mode, view: state.view,
                                    cap: .some(state.selection.cap), bytes: selectedBytes(state), hidden: hidden.count,
                                    items: selectionItems(state, hidden: hidden), count: state.selection.count))
        for (id, follower) in followers where !follower.sink.deliver(line) { subscribers[id] = nil }
    }
}
