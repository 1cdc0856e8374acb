// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// Changes to the index, made known: photos that left leave the selections,
/// cached views are dropped, and subscribers get one event per change.
extension CuratorState {
    func publish(_ changes: [LibraryChange]) {
        guard !changes.isEmpty else { return }
        var leaving: [Int64] = []
        for change in changes {
            switch change {
            case .removed(let p): leaving.append(p.id)
            // Moved into a protected folder: it can no longer be selected (article 003).
            case .moved(let p, _, _) where isProtected(p): leaving.append(p.id)
            case .added, .changed, .moved: break
            }
        }
        if !leaving.isEmpty { sessions.photosLeft(leaving) }
        publishWithoutSelections(changes)
    }

    /// A full scan's step in one folder: the photos it added are told as one
    /// `scanned` event (folder and count), the rest one event each. A first scan
    /// finds every photo of the root: one event per photo made a subscribed start
    /// 85 % slower (issue 14), and a client learns as much from listing the folder.
    func publishScanned(_ changes: [LibraryChange], root: Int32, folder: ByteString) {
        var added = 0
        var others: [LibraryChange] = []
        for change in changes {
            if case .added = change { added += 1 } else { others.append(change) }
        }
        publish(others)
        guard added > 0 else { return }
        viewCache.invalidate()
        // The thumbnailer hears of each photo, even when subscribers hear of the folder.
        thumbnailsNote(changes.filter { if case .added = $0 { true } else { false } })
        guard events.hasSubscribers else { return }
        events.send(Event(event: .scanned, root: rootName(root), folder: wirePath(folder), count: added), root: root)
    }

    /// Events for subscribers only; selections are left to the caller.
    func publishWithoutSelections(_ changes: [LibraryChange]) {
        guard !changes.isEmpty else { return }
        viewCache.invalidate()
        thumbnailsNote(changes)
        guard events.hasSubscribers else { return }
        // Each subscriber hears of the photos its user may see (`+Visibility`): a
        // photo moved out of sight is removed for them, one moved into sight added.
        let uids = events.subscriberUIDs
        func seeing(_ folder: Int32, _ root: Int32) -> Set<UInt32>? {
            let allowed = uids.filter { mayList(folderID: folder, root: root, uid: $0) }
            return allowed.count == uids.count ? nil : allowed
        }
        for change in changes {
            switch change {
            case .added(let p):
                events.send(Event(event: .added, root: rootName(p.rootID), photo: summary(p)), root: p.rootID,
                            only: seeing(p.folderID, p.rootID))
            case .changed(let p):
                events.send(Event(event: .changed, root: rootName(p.rootID), photo: summary(p)), root: p.rootID,
                            only: seeing(p.folderID, p.rootID))
            case .moved(let p, let fromFolder, let fromName):
                let folderPath = library.folderPath(fromFolder) ?? .empty
                let from = wirePath(folderPath.appending(fromName))
                let before = seeing(fromFolder, p.rootID) ?? uids
                let after = seeing(p.folderID, p.rootID) ?? uids
                let both = before.intersection(after)
                events.send(Event(event: .moved, root: rootName(p.rootID), photo: summary(p), from: from), root: p.rootID,
                            only: both.count == uids.count ? nil : both)
                if before != both {
                    events.send(Event(event: .removed, root: rootName(p.rootID), photoId: p.id, from: from), root: p.rootID,
                                only: before.subtracting(both))
                }
                if after != both {
                    events.send(Event(event: .added, root: rootName(p.rootID), photo: summary(p)), root: p.rootID,
                                only: after.subtracting(both))
                }
            case .removed(let p):
                let path = wirePath(library.relativePath(of: p))
                events.send(Event(event: .removed, root: rootName(p.rootID), photoId: p.id, from: path), root: p.rootID,
                            only: seeing(p.folderID, p.rootID))
            }
        }
    }
}
