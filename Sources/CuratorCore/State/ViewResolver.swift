// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import CuratorXMP

/// A view's photos in order: their slots in the photo table, valid while the
/// library's generation is the one the view was computed at (a listing then reads
/// photos without hashing an id each); and how many photos of each folder the
/// whole view holds (a page's section headers give them).
struct ResolvedView {
    var slots: [Int32]
    var folderTotals: [Int32: Int] = [:]
    /// Every file of the view's groups (issue 15); `count` where nothing groups.
    var files = 0

    var count: Int { slots.count }

    /// The photos' ids (their groups'), position N at N-1, read from `table` (the
    /// library's, of the view's generation) as they are asked for. Not kept: the cache
    /// holds the views listed, and 8 bytes a photo was 8 MB after listing a million.
    func ids(in table: PhotoTable) -> ViewIDs { ViewIDs(slots: slots, table: table) }
}

/// A view's ids without an array of them: a selection of three positions in a view
/// of a million reads three rows, not a million (and allocates nothing).
struct ViewIDs: RandomAccessCollection {
    let slots: [Int32]
    let table: PhotoTable

    var startIndex: Int { 0 }
    var endIndex: Int { slots.count }
    subscript(position: Int) -> Int64 { table.groupID(of: table.rows[Int(slots[position])]) }
}

extension CuratorState {
    /// The photos of a view as `uid` may see them, in its order: position N is element N-1.
    func resolve(_ spec: ViewSpec, uid: UInt32) throws(ProtocolError) -> ViewIDs {
        try resolveView(spec, uid: uid).ids(in: library.photos)
    }

    /// A view of the photos `uid` may see (`CuratorState+Visibility`): only folders
    /// they may list are in it. For root, and for a user who may list every folder
    /// of the view's root, it is everyone's view, computed and cached once.
    func resolveView(_ spec: ViewSpec, uid: UInt32) throws(ProtocolError) -> ResolvedView {
        let scope = try ViewMembership(spec, roots: roots)
        let audience: ViewAudience = listsEverything(uid: uid, root: scope.root) ? .everything : .user(uid)
        // A view of duplicates changes with the hashes too, which the library's
        // generation does not follow: made anew each time.
        if scope.filter.duplicates || scope.filter.stacks || scope.filter.collapseStacks { return try computeView(spec, scope, uid: audience == .everything ? nil : uid) }
        if let cached = viewCache.lookup(spec, for: audience, generation: library.generation,
                                         accessGeneration: access.generation) { return cached }
        let view = try computeView(spec, scope, uid: audience == .everything ? nil : uid)
        viewCache.store(spec, for: audience, view: view, accessGeneration: access.generation)
        return view
    }

    /// The folders of a view, in its order (roots in configuration order, then by
    /// path), each with its path; `uid` nil: every folder. Throws for a folder that
    /// does not exist, for `uid`.
    func viewFolders(_ scope: ViewMembership, uid: UInt32?) throws(ProtocolError) -> (ordered: [Int32], paths: [Int32: ByteString]) {
        let rootFilter = scope.root
        let folderPath = scope.folder
        let recursive = scope.recursive

        // Folders in the view, with their path, computed once.
        var folderPaths: [Int32: ByteString] = [:]
        for folder in library.folders.values {
            if let rootFilter, folder.rootID != rootFilter { continue }
            guard roots[folder.rootID] != nil else { continue }
            if let folderPath {
                if recursive ? !folder.path.isWithin(folderPath) : folder.path != folderPath { continue }
            }
            if let uid, !mayList(folderID: folder.id, root: folder.rootID, uid: uid) { continue }
            folderPaths[folder.id] = folder.path
        }
        // A folder the user may not list is answered as one that does not exist.
        if let folderPath, let rootFilter,
           library.folderID(root: rootFilter, path: folderPath) == nil
            || (uid != nil && folderPaths.isEmpty && !mayListPath(root: rootFilter, folderPath, uid: uid ?? 0)) {
            throw ProtocolError(.noSuchFolder, "There is no folder \"\(folderPath.lossyString)\" in root \"\(rootName(rootFilter))\".",
                                argument: "folder")
        }

        // Folders in path order (roots in configuration order); each brings its photos
        // by name, and a sort by anything else compares small integers first. The
        // keys are read once, not in each comparison (29 ms of 10 000 folders' sort).
        let rootRank = Dictionary(uniqueKeysWithValues: rootOrder.enumerated().map { ($1, $0) })
        var keyed: [(folder: Int32, rank: Int, path: ByteString)] = []
        keyed.reserveCapacity(folderPaths.count)
        for (folder, path) in folderPaths {
            let root = library.folders[folder]?.rootID ?? -1
            keyed.append((folder, rootRank[root] ?? 0, path))
        }
        keyed.sort { a, b in a.rank != b.rank ? a.rank < b.rank : NaturalOrder.compare(a.path, b.path) < 0 }
        return (keyed.map(\.folder), folderPaths)
    }

    /// `uid` nil: every folder.
    private func computeView(_ spec: ViewSpec, _ scope: ViewMembership, uid: UInt32?) throws(ProtocolError) -> ResolvedView {
        let filter = scope.filter
        let (orderedFolders, folderPaths) = try viewFolders(scope, uid: uid)

        let table = library.photos.rows
        // Name order first: it is the view for `name`, and the tie-break for the others.
        let named = inNameOrder(orderedFolders, folderPaths, filter)
        var slots = named.slots
        let sort = spec.sort ?? .name
        if sort != .name {
            var rows = ContiguousArray<ViewRow>()
            rows.reserveCapacity(slots.count)
            var rank: Int32 = 0
            for (position, slot) in slots.enumerated() {
                while position >= named.folderEnds[Int(rank)] { rank += 1 }
                let photo = table[Int(slot)]
                // A group sorts by its capture time and its whole size (issue 15).
                let members = library.groupLinks.isEmpty ? nil : library.members(ofGroupShownBy: library.photos.photo(photo))
                let key: Int64
                switch sort {
                case .custom: key = photo.rank
                // Photos without a capture time go last, by path; a burst's shots of
                // one second go by their sub-seconds.
                case .capture:
                    let source = members == nil ? photo : GroupMembers.captureSource(of: library.photos.photo(photo), members: members)
                        .flatMap { library.photos.row($0.id) }
                    key = source.flatMap { row in
                        row.capture.seconds.map { $0 &* 1000 &+ Int64(library.photos.captureDetail(of: row).milliseconds ?? 0) }
                    } ?? .max
                case .mtime: key = photo.mtimeNs
                case .rating, .flag, .label: key = Self.marksKey(marks.marks(ofGroup: library.photos.groupID(of: photo)), sort)
                case .size: key = members.map(GroupMembers.totalSize) ?? photo.size
                case .name: key = 0
                }
                rows.append(ViewRow(folder: rank, index: slot, key: key, tie: Int64(position)))
            }
            if sort == .custom {
                rows.sort { a, b in a.folder != b.folder ? a.folder < b.folder : a.key != b.key ? a.key < b.key : a.tie < b.tie }
            } else {
                rows.sort { a, b in a.key != b.key ? a.key < b.key : a.tie < b.tie }
            }
            slots = rows.map(\.index)
        }
        if spec.order == .desc { slots.reverse() }
        var folderTotals: [Int32: Int] = [:]
        var start = 0
        for (rank, folder) in orderedFolders.enumerated() {
            let end = named.folderEnds[rank]
            if end > start { folderTotals[folder] = end - start }
            start = end
        }
        let files = named.files
        var view = ResolvedView(slots: slots, folderTotals: folderTotals, files: files)
        if filter.duplicates { view = onlyDuplicates(view, uid: uid ?? 0) }
        if filter.stacks || filter.collapseStacks {
            view = stackView(view, uid: uid ?? 0, only: filter.stacks, collapse: filter.collapseStacks)
        }
        return view
    }
}

extension CuratorState {
    /// A sort by marks (`SortKey`): stars, none as 0; reject, none, pick; the
    /// labels in their order, none last.
    static func marksKey(_ marks: PhotoMarks, _ sort: SortKey) -> Int64 {
        switch sort {
        case .flag: marks.flag == .reject ? 0 : marks.flag == .none ? 1 : 2
        case .label: Int64(marks.label?.darktableIndex ?? ColorLabel.allCases.count)
        default: Int64(marks.rating ?? 0)
        }
    }
}

/// A view's photos in name order: each folder's (in the order given) by name.
struct NameOrderedView {
    var slots: [Int32] = []
    /// `folderEnds[rank]`: where the photos of the folder at `rank` end in `slots`.
    var folderEnds: [Int] = []
    /// Every file of the listed groups.
    var files = 0
}

extension CuratorState {
    /// The view's photos by folder rank, then by name: each folder's entries, which
    /// the library keeps sorted by name, taken in folder order. Sorting 100 000 rows
    /// by name instead was most of a `delete.prepare` after a change (20 ms). Slots
    /// straight away, not sortable rows of 24 bytes: a million photos' rows were
    /// 24 MB to allocate and fault in, for a sort by name that needs none of them.
    func inNameOrder(_ folders: [Int32], _ paths: [Int32: ByteString], _ filter: CompiledFilter) -> NameOrderedView {
        let table = library.photos
        let links = library.groupLinks
        var view = NameOrderedView()
        // Room for every row of the folders (a view is cached: no million-row buffer for a folder's hundred).
        view.slots.reserveCapacity(folders.reduce(0) { $0 + library.memberCount(ofFolder: $1) })
        view.folderEnds.reserveCapacity(folders.count)
        for folder in folders {
            let path = paths[folder] ?? .empty
            let start = view.slots.count
            library.forEachPhotoID(inFolder: folder) { id in
                guard let slot = table.slot(of: id) else { return }
                let row = table.rows[Int(slot)]
                // A group is listed once, by its shown photo (issue 15); sidecars
                // whose image is gone only by the orphans filter.
                if row.role != filter.listedRole { return }
                if !filter.isEmpty, !filter.matches(table.photo(row), folderPath: path, library: library, marks: marks) { return }
                view.slots.append(slot)
                // A listed row is in its own group's ring, when it has one.
                view.files += links.isEmpty ? 1 : links.rowCount(inRingOf: row.id)
            }
            Self.sortNaturally(&view.slots, from: start, table: table)
            view.folderEnds.append(view.slots.count)
        }
        return view
    }

    /// A folder's slots, filed in byte order (what lookups need), put in the order
    /// file managers show names (`NaturalOrder`). Camera names (zero-padded, one
    /// case) are already in it: one pass checks, and only the others are sorted.
    static func sortNaturally(_ slots: inout [Int32], from start: Int, table: PhotoTable) {
        guard slots.count - start > 1 else { return }
        table.names.bytes.withUnsafeBufferPointer { arena in
            func name(_ slot: Int32) -> UnsafeBufferPointer<UInt8> {
                let ref = table.rows[Int(slot)].name
                return UnsafeBufferPointer(rebasing: arena[Int(ref.offset)..<Int(ref.offset) + Int(ref.count)])
            }
            var ordered = true
            for k in (start + 1)..<slots.count where NaturalOrder.compare(name(slots[k - 1]), name(slots[k])) > 0 {
                ordered = false
                break
            }
            if !ordered { slots[start...].sort { NaturalOrder.compare(name($0), name($1)) < 0 } }
        }
    }
}

/// One photo of a view being sorted: plain integers, so sorting copies no
/// references (a profile of `list` showed retain/release dominating).
struct ViewRow {
    var folder: Int32
    var index: Int32
    var key: Int64
    var tie: Int64
}

extension ViewSpec {
    /// The folder as bytes: `folder_raw` (base64) wins over `folder`; "" and "/" mean the root itself.
    func folderPath() throws(ProtocolError) -> ByteString? {
        if let raw = folderRaw {
            guard let bytes = ByteString(base64: raw) else {
                throw ProtocolError(.invalidArgument, "folder_raw is not valid base64.", argument: "folder_raw")
            }
            return bytes.normalizedRelative
        }
        return folder.map { ByteString($0).normalizedRelative }
    }
}

extension ByteString {
    /// Without leading, trailing or doubled slashes, and without "." components.
    var normalizedRelative: ByteString {
        ByteString(components.filter { $0.bytes != [46] }.map(\.bytes).joined(separator: [47]).map { $0 })
    }
}

/// A view's filter, checked once per photo.
struct CompiledFilter {
    var glob: Glob?
    var globHasSlash = false
    var types: Set<PhotoType>?
    var from: Int64?
    var to: Int64?
    /// The role of the rows listed: groups' shown photos, or orphan sidecars.
    var listedRole = GroupRole.shown
    /// Only photos in a set of exact duplicates: applied to the whole view
    /// (`CuratorState.computeView`), since a set is no property of one photo.
    var duplicates = false
    /// Only photos in a stack; each stack as one position. Applied to the whole
    /// view too (`CuratorState.stackView`).
    var stacks = false
    var collapseStacks = false
    /// By the group's marks (`PhotoMarksTable`).
    var marks: MarksFilter?

    var isEmpty: Bool {
        glob == nil && types == nil && from == nil && to == nil && !duplicates && !stacks && !collapseStacks && marks == nil
    }

    init(_ filter: ViewFilter?) throws(ProtocolError) {
        guard let filter else { return }
        if filter.orphans == true { listedRole = .orphan }
        duplicates = filter.duplicates == true
        stacks = filter.stacks == true
        collapseStacks = filter.collapseStacks == true
        marks = try MarksFilter(filter)
        if let g = filter.glob, !g.isEmpty {
            globHasSlash = g.contains("/")
            glob = Glob(pattern: g, options: globHasSlash ? [.pathname] : [])
        }
        if let list = filter.types, !list.isEmpty {
            do {
                types = try PhotoTypeFilter(names: list).types
            } catch {
                throw ProtocolError(.invalidArgument, "\(error)", argument: "filter.types")
            }
        }
        if let f = filter.from { from = try Self.bound(f, argument: "filter.from").lowerBound.seconds }
        if let t = filter.to { to = try Self.bound(t, argument: "filter.to").upperBound.seconds }
    }

    static func bound(_ text: String, argument: String) throws(ProtocolError) -> ClosedRange<CaptureTime> {
        do {
            return try CaptureTime.parse(userInput: text)
        } catch {
            throw ProtocolError(.invalidArgument, "\(error)", argument: argument)
        }
    }

    /// A group matches when one of its files does (`*.NEF` finds the groups
    /// with a NEF), and by its capture time.
    func matches(_ photo: Photo, folderPath: ByteString, library: PhotoLibrary, marks table: PhotoMarksTable) -> Bool {
        if let marks, !marks.matches(table.marks(ofGroup: photo.groupID)) { return false }
        let members = library.groupLinks.isEmpty ? nil : library.members(ofGroupShownBy: photo)
        if let types, !(members ?? [photo]).contains(where: { types.contains($0.type) }) { return false }
        if from != nil || to != nil {
            guard let t = GroupMembers.capture(of: photo, members: members) else { return false }
            if let from, t < from { return false }
            if let to, t > to { return false }
        }
        if let glob, !(members ?? [photo]).contains(where: { glob.matches(globHasSlash ? folderPath.appending($0.name) : $0.name) }) {
            return false
        }
        return true
    }
}

extension CuratorState {
    /// Whether `uid` may list the folder at `path` of `root` (indexed or not).
    func mayListPath(root: Int32, _ path: ByteString, uid: UInt32) -> Bool {
        if uid == 0 { return true }
        guard let rootPath = roots.absolutePath(root: root, relative: .empty) else { return false }
        return access.mayList(folder: library.folderID(root: root, path: path), root: root, path: path, uid: uid, rootPath: rootPath)
    }
}
