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
    func rows(ofGroup group: Int64) -> [Int64] { Self.rows(ofGroup: group, links: groupLinks, photos: photos) }

    /// `rows(ofGroup:)` of a library's links and table as they were (`SetInputs`).
    static func rows(ofGroup group: Int64, links: GroupLinks, photos: PhotoTable) -> [Int64] {
        if let rows = links[group] { return rows }
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

    /// The id of the row shown for group `id` (`listed(id)` when that is a shown
    /// row), without making a `Photo` of it.
    func shownRow(ofGroup id: Int64) -> Int64? {
        if let row = photos.row(id), photos.groupID(of: row) == id, row.role.isListed { return row.role == .shown ? id : nil }
        return rows(ofGroup: id).first { photos.row($0)?.role == .shown }
    }

    /// The root's way of grouping changed (or was never recorded, as in an index
    /// written before groups): every folder of it is grouped again.
    func setGroupSettings(_ settings: GroupSettings, root: Int32) throws {
        let recorded = try store.groupSettings(root: root)
        groupSettings[root] = settings
        guard recorded != settings.storedValue else { return }
        try batch {
            for folder in folderIDs(inRoot: root) { regroups.regroupWhole(folder) }
            try store.setGroupSettings(settings.storedValue, root: root)
        }
    }

    /// Whether the open transaction may add `folder`'s rows with the groups of
    /// `plan` (`upsert`'s `placed`): the folder has no row yet, and its root groups
    /// as the plan does. A row the transaction cannot add as planned (a photo
    /// renamed while the daemon was down, a share's file held) has the caller
    /// group the folder again whole (`regroupWhole`), as if there were no plan.
    func placesByPlan(_ plan: FolderGroupPlan, folder: Int32, root: Int32) -> Bool {
        memberCount(ofFolder: folder) == 0 && plan.follows(groupSettings[root])
    }

    /// Has the open transaction group `folder` again whole before it commits.
    func regroupWhole(_ folder: Int32) { regroups.regroupWhole(folder) }

    /// Groups one folder's rows again, from their names; called before a
    /// transaction commits, for every folder it touched. With `keys` (the bases of
    /// the names put in or taken out, `ShotKeys`), only the rows that share a base
    /// with them, and with those, and so on: an event costs its shot, not its folder.
    func regroup(folder: Int32, touching keys: Set<UInt64>?) throws {
        guard folders[folder] != nil else { return }
        // Many names changed (a scan): a pass over the whole folder is as cheap, and
        // needs no index.
        let ids: [Int64]
        if let keys, keys.count * 8 < memberCount(ofFolder: folder) {
            ids = affected(by: keys, in: folder).map(\.id)
        } else {
            ids = ungrouped(in: folder, touching: keys)
        }
        guard !ids.isEmpty else { return }
        try regroup(folder: folder, rows: ids)
    }

    /// Groups rows `ids` of `folder` again: every shot they are in must be whole
    /// among them. By index throughout (`GroupAssignment`): names are read in the
    /// table's arena, never copied.
    func regroup(folder: Int32, rows ids: [Int64]) throws {
        guard let root = folders[folder]?.rootID else { return }
        regroupedRows += ids.count
        var settings = groupSettings[root] ?? GroupSettings(enabled: false)
        settings.types = .all  // the index holds only the photos the root counts
        let refs = ids.map { photos.row($0)?.name ?? NameRef(offset: 0, count: 0) }
        let assignment = photos.names.bytes.withUnsafeBufferPointer { all in
            GroupAssignment(count: ids.count, settings: settings) { i in
                UnsafeBufferPointer(rebasing: all[Int(refs[i].offset)..<Int(refs[i].offset) + Int(refs[i].count)])
            }
        }
        let groupCount = assignment.groupCount
        /// Each group's id; 0 while none (ids are positive).
        var assigned = [Int64](repeating: 0, count: groupCount)
        var taken = Set<Int64>()
        func available(_ id: Int64) -> Bool {
            guard !taken.contains(id) else { return false }
            // An id whose photo is indexed is its folder's to give (rows that bear
            // it elsewhere are in folders this transaction groups again).
            if let owner = photos.row(id) { return owner.folderID == folder }
            // A departed photo's: only while no row of another folder bears it.
            return rows(ofGroup: id).allSatisfy { photos.row($0)?.folderID == folder }
        }
        /// The group ids a group's photos had (rows this transaction added had none).
        func formerIDs(_ g: Int) -> [Int64] {
            var result: [Int64] = []
            for i in assignment.photos(ofGroup: g) where !isFresh(ids[i]) {
                if let row = photos.row(ids[i]) { result.append(photos.groupID(of: row)) }
            }
            return result
        }
        func owns(_ g: Int, _ id: Int64) -> Bool { assignment.photos(ofGroup: g).contains { ids[$0] == id } }
        /// Groups in the order of their shown photos' names, where the order decides
        /// (a departed id two groups could keep; new ids handed out).
        func byShownName(_ groups: [Int]) -> [Int] {
            groups.sorted { a, b in
                let (ra, rb) = (refs[Int(assignment.shown[a])], refs[Int(assignment.shown[b])])
                return photos.names.bytes.withUnsafeBufferPointer { all in
                    all[Int(ra.offset)..<Int(ra.offset) + Int(ra.count)]
                        .lexicographicallyPrecedes(all[Int(rb.offset)..<Int(rb.offset) + Int(rb.count)])
                }
            }
        }
        // 1: a group keeps an id one of its own photos gave, the shown one's first.
        // (Its own photos are no other group's: the groups cannot compete here.)
        var keepers: [Int] = []
        for g in 0..<groupCount {
            let shown = ids[Int(assignment.shown[g])]
            // A shown photo back from the trash under its former id (an undo) takes
            // back the id it gave its group before it left, which its group's other
            // photos may have kept meanwhile under another.
            if isReturned(shown), available(shown) {
                assigned[g] = shown
                taken.insert(shown)
                continue
            }
            let former = formerIDs(g)
            guard !former.isEmpty else { continue }
            let candidates = former.filter { owns(g, $0) && available($0) }
            if candidates.contains(shown) {
                assigned[g] = shown
            } else if let id = candidates.min() {
                assigned[g] = id
            }
            if assigned[g] != 0 {
                taken.insert(assigned[g])
            } else if former.contains(where: { photos.row($0) == nil }) {
                keepers.append(g)
            }
        }
        // 2: a group whose id-giving photo left keeps that id.
        for g in byShownName(keepers) {
            if let id = formerIDs(g).filter({ photos.row($0) == nil && available($0) }).min() {
                assigned[g] = id
                taken.insert(id)
            }
        }
        // 3: a new group: its shown photo's id, or another of its own (no other
        // group takes those), else a new id.
        var newIDs: [Int] = []
        for g in 0..<groupCount where assigned[g] == 0 {
            if let i = assignment.photos(ofGroup: g).first(where: { available(ids[$0]) }) {
                assigned[g] = ids[i]
            } else {
                newIDs.append(g)
            }
        }
        for g in byShownName(newIDs) { assigned[g] = try takeID() }

        for (i, row) in ids.enumerated() {
            let g = assignment.group[i]
            let (group, role) = g >= 0 ? (assigned[Int(g)], assignment.role[i]) : (row, assignment.role[i])
            guard let photo = photos.row(row) else { continue }
            let from = photos.groupID(of: photo)
            guard from != group || photo.role != role else { continue }
            shifts.append(GroupShift(id: row, fromGroup: from, fromRole: photo.role, toGroup: group, toRole: role))
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
    func ungrouped(in folder: Int32, touching: Set<UInt64>?) -> [Int64] {
        let ids = photoIDs(inFolder: folder)
        var keys = [ShotKeys?](repeating: nil, count: ids.count)
        /// Photos under their own id and shown: alone, unless another name shares their base.
        var single = [Bool](repeating: false, count: ids.count)
        /// How many names have each base.
        var sharing: [UInt64: Int32] = Dictionary(minimumCapacity: ids.count)
        // One pass over the rows, their names read in the arena in place.
        photos.names.bytes.withUnsafeBufferPointer { names in
            for (index, id) in ids.enumerated() {
                guard let row = photos.row(id) else { continue }
                let start = Int(row.name.offset)
                guard let key = ShotKeys(UnsafeBufferPointer(rebasing: names[start..<start + Int(row.name.count)])) else { continue }
                keys[index] = key
                sharing[key.first, default: 0] += 1
                if let second = key.second { sharing[second, default: 0] += 1 }
                single[index] = key.isPhoto && key.second == nil && row.role == .shown && photos.groupID(of: row) == id
            }
        }
        var wanted = [Bool](repeating: false, count: ids.count)
        var alone = [Bool](repeating: false, count: ids.count)
        for index in ids.indices {
            if single[index], let key = keys[index], sharing[key.first] == 1 {
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
        return ids.indices.compactMap { wanted[$0] ? ids[$0] : nil }
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
    /// How the index records the settings (and rules) its groups were made with: 0
    /// off, 3 showing the rendered photo, 4 the RAW. A change of the grouping rules
    /// takes new numbers (1 and 2 are retired), so that an index grouped by other rules
    /// is grouped again once, at start.
    var storedValue: Int64 {
        guard enabled else { return 0 }
        switch shown {
        case .rendered: return 3
        case .raw: return 4
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
    static func capture(of photo: PhotoRow, members: [PhotoRow]) -> Int64? { captureSource(of: photo, members: members)?.capture.seconds }

    /// The row whose capture time is the group's (its sub-seconds and offset are too).
    static func captureSource(of photo: PhotoRow, members: [PhotoRow]) -> PhotoRow? {
        if photo.capture.seconds != nil { return photo }
        return members.first { $0.capture.seconds != nil }
    }

    /// As `captureSource(of:members:)`, for photos.
    static func captureSource(of photo: Photo, members: [Photo]?) -> Photo? {
        if photo.capture.seconds != nil { return photo }
        return members?.first { $0.capture.seconds != nil }
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
