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
        for change in changes {
            switch change {
            case .added(let p):
                events.send(Event(event: .added, root: rootName(p.rootID), photo: summary(p)), root: p.rootID)
            case .changed(let p):
                events.send(Event(event: .changed, root: rootName(p.rootID), photo: summary(p)), root: p.rootID)
            case .moved(let p, let fromFolder, let fromName):
                let folderPath = library.folderPath(fromFolder) ?? .empty
                events.send(Event(event: .moved, root: rootName(p.rootID), photo: summary(p),
                                  from: wirePath(folderPath.appending(fromName))), root: p.rootID)
            case .removed(let p):
                let path = wirePath(library.relativePath(of: p))
                events.send(Event(event: .removed, root: rootName(p.rootID), photoId: p.id, from: path), root: p.rootID)
            }
        }
    }
}
