// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// A row whose group or role a regrouping changed, for the events that tell it.
struct GroupShift: Sendable {
    var id: Int64
    var fromGroup: Int64
    var fromRole: GroupRole
    var toGroup: Int64
    var toRole: GroupRole
}

/// Groups (issue 15) in the index: each folder's rows are grouped again
/// (`PhotoGrouping`) at the end of every transaction that put a row in or took
/// one out of it, and each row's group id and role are written through.
///
/// A group's id is what listings and selections know it by. It is the id of a
/// photo of the group, and it stays the group's as long as a photo of it does:
/// a RAW arriving beside a JPEG joins the JPEG's id (the photo keeps its id, also
/// when the root shows the RAW); when the photo whose id the group bears leaves
/// (trashed by another program), the group keeps that id while a photo remains;
/// when a group splits (a rename out of it), the photo that gave the id keeps it.
extension PhotoLibrary {
    /// Every row of a group, the shown photo among them.
    func rows(ofGroup group: Int64) -> [Int64] {
        if let rows = groupLinks[group] { return rows }
        if let row = photos.row(group), photos.groupID(of: row) == group { return [group] }
        return []
    }

    /// The files of the group `photo` shows, in the order listings give them;
    /// nil for a photo alone.
    func members(ofGroupShownBy photo: Photo) -> [Photo]? {
        GroupMembers.of(photo, links: groupLinks, table: photos)
    }

    /// The photo that stands for group `id` in listings, when the group is listed
    /// (an orphan sidecar stands for itself).
    func listed(_ id: Int64) -> Photo? {
        if let row = photos.row(id), photos.groupID(of: row) == id, row.role.isListed { return photos.photo(row) }
        for id in groupLinks[id] ?? [] {
            if let row = photos.row(id), row.role == .shown { return photos.photo(row) }
        }
        return nil
    }

    /// The root's way of grouping changed (or was never recorded, as in an index
    /// written before groups): every folder of it is grouped again.
    func setGroupSettings(_ settings: GroupSettings, root: Int32) throws {
        let recorded = try store.groupSettings(root: root)
        groupSettings[root] = settings
        guard recorded != settings.storedValue else { return }
        try batch {
            for folder in folderIDs(inRoot: root) { dirtyFolders.insert(folder) }  // whole
            try store.setGroupSettings(settings.storedValue, root: root)
        }
    }

    /// Groups one folder's rows again, from their names; called before a
    /// transaction commits, for every folder it touched. With `keys` (the bases of
    /// the names put in or taken out, `ShotKeys`), only the rows that share a base
    /// with them, and with those, and so on: an event costs its shot, not its folder.
    func regroup(folder: Int32, touching keys: Set<UInt64>?) throws {
        guard folders[folder] != nil else { return }
        // Many names changed (a scan): a pass over the whole folder is as cheap, and
        // needs no index.
        let entries: [(name: ByteString, id: Int64)]
        if let keys, keys.count * 8 < memberCount(ofFolder: folder) {
            entries = affected(by: keys, in: folder)
        } else {
            entries = ungrouped(in: folder, touching: keys)
        }
        guard !entries.isEmpty else { return }
        try regroup(folder: folder, entries: entries)
    }

    /// Groups `entries` (rows of `folder`, by name) again: every shot they are in
    /// must be whole among them.
    func regroup(folder: Int32, entries: [(name: ByteString, id: Int64)]) throws {
        guard let root = folders[folder]?.rootID else { return }
        var settings = groupSettings[root] ?? GroupSettings(enabled: false)
        settings.types = .all  // the index holds only the photos the root counts
        let idOf = Dictionary(entries.map { ($0.name, $0.id) }, uniquingKeysWith: { a, _ in a })
        let grouping = PhotoGrouping.group(names: entries.map(\.name), settings: settings)

        var wanted: [Int64: (group: Int64, role: GroupRole)] = Dictionary(minimumCapacity: entries.count)
        var taken = Set<Int64>()
        let groups = grouping.groups
        var assigned = [Int64?](repeating: nil, count: groups.count)
        // The photos of each group (not its sidecars), the shown one first.
        let photosOf = groups.map { group in group.members.filter { $0.kind != .sidecar }.compactMap { idOf[$0.name] } }
        func available(_ id: Int64) -> Bool {
            guard !taken.contains(id) else { return false }
            // An id whose photo is indexed is its folder's to give (rows that bear
            // it elsewhere are in folders this transaction groups again).
            if let owner = photos.row(id) { return owner.folderID == folder }
            // A departed photo's: only while no row of another folder bears it.
            return rows(ofGroup: id).allSatisfy { photos.row($0)?.folderID == folder }
        }
        func formerIDs(_ index: Int) -> [Int64] {
            photosOf[index].filter { !freshIDs.contains($0) }.compactMap { photos.row($0).map(photos.groupID(of:)) }
        }
        // 1: a group keeps an id one of its own photos gave, the shown one's first.
        for index in groups.indices {
            let own = Set(photosOf[index])
            let candidates = formerIDs(index).filter { own.contains($0) && available($0) }
            if let shown = photosOf[index].first, candidates.contains(shown) {
                assigned[index] = shown
            } else if let id = candidates.min() {
                assigned[index] = id
            }
            if let id = assigned[index] { taken.insert(id) }
        }
        // 2: a group whose id-giving photo left keeps that id.
        for index in groups.indices where assigned[index] == nil {
            if let id = formerIDs(index).filter({ photos.row($0) == nil && available($0) }).min() {
                assigned[index] = id
                taken.insert(id)
            }
        }
        // 3: a new group: its shown photo's id, or another of its own.
        for index in groups.indices where assigned[index] == nil {
            if let id = photosOf[index].first(where: available) {
                assigned[index] = id
            } else {
                assigned[index] = try takeID()
            }
            if let id = assigned[index] { taken.insert(id) }
        }
        for (index, group) in groups.enumerated() {
            guard let id = assigned[index] else { continue }
            for member in group.members {
                guard let row = idOf[member.name] else { continue }
                let role: GroupRole = member.kind == .sidecar ? .sidecar : member.name == group.shown.name ? .shown : .member
                wanted[row] = (id, role)
            }
        }
        for name in grouping.orphans { if let row = idOf[name] { wanted[row] = (row, .orphan) } }
        for row in entries.map(\.id) where wanted[row] == nil {
            // Undecided sidecars, and every sidecar where the root does not group.
            wanted[row] = (row, .undecided)
        }
        for row in entries.map(\.id) {
            guard let photo = photos.row(row), let (group, role) = wanted[row],
                  photos.groupID(of: photo) != group || photo.role != role else { continue }
            shifts.append(GroupShift(id: row, fromGroup: photos.groupID(of: photo), fromRole: photo.role, toGroup: group, toRole: role))
            try setGroup(row, group: group, role: role)
        }
    }
}

extension PhotoLibrary {
    /// The rows of a folder that grouping can change, read from their names in
    /// place (`ShotKeys`): every row but the photos whose base no other name
    /// shares and which already stand alone under their own id (most of a folder,
    /// whose grouping would leave them as they are); with `touching` (bases), only
    /// the rows that have one of them, and those that share a base with those, and
    /// so on. By name.
    func ungrouped(in folder: Int32, touching: Set<UInt64>?) -> [(name: ByteString, id: Int64)] {
        let ids = photoIDs(inFolder: folder)
        let table = photos  // one copy of the table's references, not one a row
        var keys: [ShotKeys?] = []
        keys.reserveCapacity(ids.count)
        /// How many names have each base.
        var sharing: [UInt64: Int32] = Dictionary(minimumCapacity: ids.count)
        for id in ids {
            let key = table.row(id).flatMap { row in table.withName(of: row) { ShotKeys($0) } }
            keys.append(key)
            if let key {
                sharing[key.first, default: 0] += 1
                if let second = key.second { sharing[second, default: 0] += 1 }
            }
        }
        var wanted = [Bool](repeating: false, count: ids.count)
        var alone = [Bool](repeating: false, count: ids.count)
        for (index, id) in ids.enumerated() {
            if let key = keys[index], key.isPhoto, key.second == nil, sharing[key.first] == 1, let row = table.row(id),
               table.groupID(of: row) == id, row.role == .shown {
                alone[index] = true
            } else {
                // A name that is no photo nor sidecar is left undecided by any grouping.
                wanted[index] = touching == nil || keys[index] == nil
            }
        }
        if var bases = touching {
            // The closure of the bases of the names changed (those here and those gone).
            var grew = true
            while grew {
                grew = false
                for index in ids.indices where !wanted[index] && !alone[index] {
                    guard let key = keys[index], bases.contains(key.first) || key.second.map(bases.contains) == true else { continue }
                    wanted[index] = true
                    for digest in key.digests where bases.insert(digest).inserted { grew = true }
                }
            }
        }
        var result: [(name: ByteString, id: Int64)] = []
        for (index, id) in ids.enumerated() where wanted[index] {
            if let row = table.row(id) { result.append((table.name(of: row), id)) }
        }
        return result
    }

    /// The rows whose groups names of bases `keys` can change: the closure of the
    /// names that share a base with them (`ShotKeys`), from the folder's index.
    private func affected(by keys: Set<UInt64>, in folder: Int32) -> [(name: ByteString, id: Int64)] {
        if groupKeys[folder] == nil {
            var index: [UInt64: Set<ByteString>] = [:]
            for entry in members(ofFolder: folder) {
                for key in ShotKeys(entry.name)?.digests ?? [] { index[key, default: []].insert(entry.name) }
            }
            groupKeys[folder] = index
        }
        let index = groupKeys[folder] ?? [:]
        var keys = keys
        var pending = Array(keys)
        var found = Set<ByteString>()
        while let key = pending.popLast() {
            for name in index[key] ?? [] where found.insert(name).inserted {
                for next in ShotKeys(name)?.digests ?? [] where keys.insert(next).inserted { pending.append(next) }
            }
        }
        return found.sorted().compactMap { name in photoID(folder: folder, name: name).map { (name, $0) } }
    }
}

extension GroupSettings {
    /// How the index records the settings its groups were made with: 0 off, 1
    /// showing the rendered photo, 2 the RAW.
    var storedValue: Int64 {
        guard enabled else { return 0 }
        switch shown {
        case .rendered: return 1
        case .raw: return 2
        }
    }
}

/// A group's files from copies of the index's tables (a listing reads them
/// outside the state's lock).
enum GroupMembers {
    static func of(_ photo: Photo, links: GroupLinks, table: PhotoTable) -> [Photo]? {
        guard photo.role == .shown, let ids = links[photo.groupID], ids.count > 1 else { return nil }
        return ids.compactMap { table[$0] }.sorted { a, b in
            let (ra, rb) = (rank(a), rank(b))
            return ra != rb ? ra < rb : a.name < b.name
        }
    }

    /// As `of`, as the table's rows in the same order, with no name copied out
    /// of the arena (`names`, the table's): into `members` (emptied first, its
    /// room kept for the next group); false for a photo alone. A listing writes
    /// ten thousand groups, and a `Photo` per file (a name allocated each) was a
    /// third of its time.
    static func rows(of photo: PhotoRow, links: GroupLinks, table: PhotoTable, names: UnsafeBufferPointer<UInt8>,
                     into members: inout [PhotoRow]) -> Bool {
        // The ring through a shown photo's row is its group's (a row is in its own group's ring).
        guard photo.role == .shown, links.isLinked(photo.id) else { return false }
        members.removeAll(keepingCapacity: true)
        var ids = 0
        links.forEachRow(inRingOf: photo.id) { id in
            ids += 1
            if let row = table.row(id) { members.append(row) }
        }
        guard ids > 1 else { return false }
        members.sort { a, b in
            let (ra, rb) = (rank(role: a.role, type: a.type), rank(role: b.role, type: b.type))
            if ra != rb { return ra < rb }
            let nameA = names[Int(a.name.offset)..<Int(a.name.offset) + Int(a.name.count)]
            let nameB = names[Int(b.name.offset)..<Int(b.name.offset) + Int(b.name.count)]
            return nameA.lexicographicallyPrecedes(nameB)
        }
        return true
    }

    /// As `capture(of:members:)`, for rows.
    static func capture(of photo: PhotoRow, members: [PhotoRow]) -> Int64? {
        if let seconds = photo.capture.seconds { return seconds }
        return members.lazy.compactMap(\.capture.seconds).first
    }

    /// The shown photo, the other photos (rendered, RAW, video), the sidecars.
    private static func rank(_ photo: Photo) -> Int { rank(role: photo.role, type: photo.type) }

    /// As `rank(_:)`, for a table's row (listings read rows, not `Photo`s).
    static func rank(role: GroupRole, type: PhotoType) -> Int {
        switch role {
        case .shown: 0
        case .member:
            switch MemberKind(type) {
            case .rendered: 1
            case .raw: 2
            default: 3
            }
        default: 4
        }
    }

    /// The group's capture time: its shown photo's, else the first of its other
    /// photos that has one (a RAW's EXIF beside a PNG's none).
    static func capture(of photo: Photo, members: [Photo]?) -> Int64? {
        if let seconds = photo.capture.seconds { return seconds }
        return members?.lazy.compactMap(\.capture.seconds).first
    }

    static func totalSize(_ members: [Photo]) -> Int64 { members.reduce(0) { $0 + $1.size } }
}
