// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// Changes to the index, made known: photos that left leave the selections,
/// cached views are dropped, and subscribers get one event per change.
///
/// Clients know a group by its id (issue 15): a change to any file of a group is
/// said as one event about the group. A RAW joining a JPEG is one `changed` of
/// the JPEG's group; a photo that went into a group is `removed` as a photo of
/// its own; one that comes out of a group (renamed away) is `added` under its id.
extension CuratorState {
    /// `announced`: rows added that another event tells (a scan's `scanned`).
    func publish(_ changes: [LibraryChange], announced: IDSet = []) {
        // Thumbnails are of files, whatever group they are in.
        thumbnailsNote(changes)
        let events = groupEvents(changes, announced: announced)
        guard !events.isEmpty else { return }
        var leaving: [Int64] = []
        for event in events {
            switch event {
            case .removed(let id, _, _, _): leaving.append(id)
            // Moved into a protected folder: it can no longer be selected (article 003).
            case .moved(let id, let p, _, _) where isProtected(p): leaving.append(id)
            case .added, .changed, .moved: break
            }
        }
        if !leaving.isEmpty { sessions.photosLeft(leaving) }
        send(events)
    }

    /// A full scan's step in one folder: the photos it added are told as one
    /// `scanned` event (folder and count), the rest one event each. A first scan
    /// finds every photo of the root: one event per photo made a subscribed start
    /// 85 % slower (issue 14), and a client learns as much from listing the folder.
    func publishScanned(_ changes: [LibraryChange], root: Int32, folder: ByteString) {
        publishScanned([(folder, changes)], root: root)
    }

    /// The same for the folders of one scan step, changed in one transaction: their
    /// changes are published together (the regrouping of the transaction is taken
    /// once, with every row the step's `scanned` events announce), then one
    /// `scanned` event per folder.
    func publishScanned(_ folders: [(folder: ByteString, changes: [LibraryChange])], root: Int32) {
        // A bitmap: a set hashed every row a first scan adds.
        var announced = IDSet()
        var others: [LibraryChange] = []
        var addedChanges: [LibraryChange] = []
        var counts: [(folder: ByteString, added: Int)] = []
        for (folder, changes) in folders {
            var added = 0
            for change in changes {
                if case .added(let p) = change {
                    announced.insert(p.id)
                    addedChanges.append(change)
                    // A photo that went into a group, or a sidecar, is no photo of the count.
                    if library.role(of: p.id) == .shown { added += 1 }
                } else {
                    others.append(change)
                }
            }
            if added > 0 { counts.append((folder, added)) }
        }
        publish(others, announced: announced)
        guard !counts.isEmpty else { return }
        viewCache.invalidate()
        // The thumbnailer hears of each photo, even when subscribers hear of the folder.
        thumbnailsNote(addedChanges)
        guard events.hasSubscribers else { return }
        for (folder, added) in counts {
            events.send(Event(event: .scanned, root: rootName(root), folder: wirePath(folder), count: added), root: root)
        }
    }

    /// Events for subscribers only; selections are left to the caller.
    func publishWithoutSelections(_ changes: [LibraryChange]) {
        thumbnailsNote(changes)
        send(groupEvents(changes))
    }

    private func send(_ changes: [GroupEvent]) {
        guard !changes.isEmpty else { return }
        viewCache.invalidate()
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
            case .moved(let id, let p, let fromFolder, let fromPath):
                let from = wirePath(fromPath)
                let before = seeing(fromFolder, p.rootID) ?? uids
                let after = seeing(p.folderID, p.rootID) ?? uids
                let both = before.intersection(after)
                events.send(Event(event: .moved, root: rootName(p.rootID), photo: summary(p), from: from), root: p.rootID,
                            only: both.count == uids.count ? nil : both)
                if before != both {
                    events.send(Event(event: .removed, root: rootName(p.rootID), photoId: id, from: from), root: p.rootID,
                                only: before.subtracting(both))
                }
                if after != both {
                    events.send(Event(event: .added, root: rootName(p.rootID), photo: summary(p)), root: p.rootID,
                                only: after.subtracting(both))
                }
            case .removed(let id, let root, let folder, let path):
                events.send(Event(event: .removed, root: rootName(root), photoId: id, from: wirePath(path)), root: root,
                            only: seeing(folder, root))
            }
        }
    }

    /// The library's changes (and the regrouping they caused) as clients see them:
    /// one event per listed id.
    func groupEvents(_ changes: [LibraryChange], announced: IDSet = []) -> [GroupEvent] {
        let shifts = library.takeShifts()
        var result: [GroupEvent] = []
        /// Rows that changed; what each was (its group and role) before.
        var before: [Int64: (group: Int64, role: GroupRole, root: Int32, folder: Int32, path: ByteString)] = [:]
        var movedFrom: [Int64: (folder: Int32, path: ByteString)] = [:]
        var touchedGroups: [Int64] = []
        func touch(_ group: Int64) { touchedGroups.append(group) }
        for change in changes {
            switch change {
            case .added(let p):
                // A photo alone, in no group before or after: said as it always was.
                if shifts.isEmpty, p.role == .shown, p.groupID == p.id, !library.groupLinks.keeps(p.id) {
                    result.append(.added(p))
                    continue
                }
                if let now = library.photo(p.id) { touch(now.groupID) }
            case .changed(let p):
                if shifts.isEmpty, p.role == .shown, p.groupID == p.id, !library.groupLinks.keeps(p.id) {
                    result.append(.changed(p))
                    continue
                }
                if before[p.id] == nil { before[p.id] = (p.groupID, p.role, p.rootID, p.folderID, library.relativePath(of: p)) }
                touch(p.groupID)
            case .moved(let p, let fromFolder, let fromName):
                let from = (library.folderPath(fromFolder) ?? .empty).appending(fromName)
                if shifts.isEmpty, p.role == .shown, p.groupID == p.id, !library.groupLinks.keeps(p.id) {
                    result.append(.moved(p.id, p, fromFolder: fromFolder, from: from))
                    continue
                }
                if before[p.id] == nil { before[p.id] = (p.groupID, p.role, p.rootID, fromFolder, from) }
                movedFrom[p.id] = (fromFolder, from)
                touch(p.groupID)
            case .removed(let p):
                if shifts.isEmpty, p.role == .shown, p.groupID == p.id, !library.groupLinks.keeps(p.id) {
                    result.append(.removed(p.id, root: p.rootID, folder: p.folderID, path: library.relativePath(of: p)))
                    continue
                }
                if before[p.id] == nil { before[p.id] = (p.groupID, p.role, p.rootID, p.folderID, library.relativePath(of: p)) }
                touch(p.groupID)
            }
        }
        // Rows added by these changes or announced (not one set of both: that copied
        // every row a scan step announced).
        let addedHere = Set(changes.compactMap { if case .added(let p) = $0 { p.id } else { nil } })
        let added = { (id: Int64) in addedHere.contains(id) || announced.contains(id) }
        for shift in shifts {
            // A row added alone under its own id was never listed as that group: if
            // any row is in that group now, its own shift names it.
            if shift.fromGroup != shift.id || !added(shift.id) { touch(shift.fromGroup) }
            touch(shift.toGroup)
            // A row added in this change was never listed under its first group.
            guard !added(shift.id), before[shift.id] == nil, let photo = library.photo(shift.id) else { continue }
            before[shift.id] = (shift.fromGroup, shift.fromRole, photo.rootID, photo.folderID, library.relativePath(of: photo))
        }
        var said = Set<Int64>()
        for group in touchedGroups where said.insert(group).inserted {
            // No row listed before changed (a first scan's groups, each of rows it
            // announces): only a group now shown by a row not announced is told.
            if before.isEmpty {
                guard let shown = library.shownRow(ofGroup: group), !announced.contains(shown) else { continue }
            }
            let now = library.listed(group).flatMap { $0.role == .shown ? $0 : nil }
            // Listed before: its shown row then was untouched (and so is still
            // shown), or one of the changed rows was.
            let shownBefore: (root: Int32, folder: Int32, path: ByteString)? = {
                if let now, before[now.id] == nil, !added(now.id) { return (now.rootID, now.folderID, library.relativePath(of: now)) }
                for (_, was) in before where was.group == group && was.role == .shown { return (was.root, was.folder, was.path) }
                return nil
            }()
            switch (shownBefore, now) {
            case (nil, let now?):
                // A group a first scan formed of rows it announces is in its `scanned` count.
                if !announced.contains(now.id) { result.append(.added(now)) }
            case (let was?, nil):
                result.append(.removed(group, root: was.root, folder: was.folder, path: was.path))
            case (_?, let now?):
                if let from = movedFrom[now.id], before[now.id]?.role == .shown, before[now.id]?.group == group {
                    result.append(.moved(group, now, fromFolder: from.folder, from: from.path))
                } else {
                    result.append(.changed(now))
                }
            case (nil, nil):
                break
            }
        }
        return result
    }
}

/// A change as clients are told it: about a listed id (a group's, or a photo's alone).
enum GroupEvent {
    /// The photo shown for a group (its `groupID` is the id said).
    case added(Photo)
    case changed(Photo)
    /// The group's id, its shown photo now, and where it was (folder id and relative path).
    case moved(Int64, Photo, fromFolder: Int32, from: ByteString)
    /// The group's id and where its shown photo was (for the events' paths and who may see them).
    case removed(Int64, root: Int32, folder: Int32, path: ByteString)
}
