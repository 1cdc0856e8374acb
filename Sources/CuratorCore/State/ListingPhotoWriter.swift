// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import CuratorXMP

/// Writes photo objects of a listing straight from the table's rows, with the keys and
/// values `CuratorState.summary` gives (sorted keys, as the Codable encoder
/// writes them). What is the same for many photos (a folder's path, a root's
/// name and facts) is escaped once and reused. It reads only what
/// it was given when the listing began, never the state: it runs outside the lock.
struct ListingPhotoWriter: Sendable {
    /// What a listing needs of a root, taken once per listing.
    struct RootPart: Sendable {
        var name: [UInt8]
        var offline: Bool
        var protectAll: Bool
        var protection: ProtectionRules
        var mayProtect: Bool { protectAll || !protection.isEmpty }
    }

    /// The fields asked for, as flags read once (each `PhotoFields` constant is a
    /// global behind a lazy-initialisation check, several per photo).
    private let wants: (captureTime: Bool, id: Bool, mtimeNs: Bool, offline: Bool, path: Bool, position: Bool,
                        protected: Bool, root: Bool, selected: Bool, size: Bool, type: Bool, members: Bool, marks: Bool)
    /// Photos whose thumbnails are ready, when `thumbnail` is asked for (a copy-on-write copy).
    private let thumbnailsReady: IDSet?
    private let selection: OrderedSelection?
    /// The groups' rows (for members) and the photo table (roots and group ids are read through it): copy-on-write copies.
    private let groupLinks: GroupLinks
    private let table: PhotoTable
    private let folders: [Int32: Folder]
    private let roots: [Int32: RootPart]
    private let rootNames: [Int32: String]
    /// In a view of duplicates: each listed group's set and whether it is the keeper.
    private let duplicates: [Int64: DuplicateMark]?
    /// In a view of stacks (or with stacks collapsed): each listed group's stack.
    private let stacks: [Int64: StackMark]?
    /// The marked groups' marks, by listed id (`PhotoMarksTable`).
    private let marks: [Int64: PhotoMarks]
    /// The rows of the group being written (its room reused for the next).
    private var members: [PhotoRow] = []
    private var folderID: Int32 = -1
    /// The folder's path with its `/`, escaped; nil when it is not valid UTF-8.
    private var folderPrefix: [UInt8]? = []
    /// The current photo's root, looked up only when it changes (most listings
    /// have one root).
    private var rootID: Int32 = -1
    private var root = RootPart(name: [], offline: false, protectAll: false, protection: ProtectionRules([]))

    /// Takes what it needs of the roots and folders (copy-on-write copies, taken
    /// under the state's lock).
    init(roots registry: RootRegistry, folders: [Int32: Folder], fields: PhotoFields, selection: OrderedSelection?,
         thumbnailsReady: IDSet = [], groupLinks: GroupLinks = GroupLinks(), table: PhotoTable,
         duplicates: [Int64: DuplicateMark]? = nil, stacks: [Int64: StackMark]? = nil, marks: [Int64: PhotoMarks] = [:]) {
        self.duplicates = duplicates
        self.stacks = stacks
        self.marks = marks
        self.thumbnailsReady = fields.contains(.thumbnail) ? thumbnailsReady : nil
        wants = (fields.contains(.captureTime), fields.contains(.id), fields.contains(.mtimeNs), fields.contains(.offline),
                 fields.contains(.path), fields.contains(.position), fields.contains(.protected), fields.contains(.root),
                 fields.contains(.selected), fields.contains(.size), fields.contains(.type), fields.contains(.members),
                 fields.contains(.marks))
        self.selection = selection
        self.groupLinks = groupLinks
        self.table = table
        self.folders = folders
        var roots: [Int32: RootPart] = [:]
        for id in Set(registry.ids).union(registry.names.keys) {
            let runtime = registry[id]
            roots[id] = RootPart(name: JSONWriter.escaped(registry.name(id).utf8), offline: !(runtime?.online ?? true),
                                 protectAll: runtime?.config.protectAll ?? false,
                                 protection: runtime?.protection ?? ProtectionRules([]))
        }
        self.roots = roots
        rootNames = registry.names
    }

    /// The section of a listing that a run of `count` photos of one folder opens;
    /// `total` is the folder's photos in the whole view.
    func folderSection(of photo: PhotoRow, count: Int, total: Int, firstPosition: Int) -> FolderSection {
        let path = WirePath(folders[photo.folderID]?.path ?? .empty)
        return FolderSection(root: rootNames[table.rootID(of: photo)] ?? "?", path: path.path, pathRaw: path.pathRaw,
                             count: count, total: total, firstPosition: firstPosition)
    }

    /// Whether `photo` may show a group of several files: a photo alone (most
    /// of them) is told by its link, a word read by id, without hashing.
    private func mayBeGrouped(_ photo: PhotoRow) -> Bool {
        photo.role == .shown && groupLinks.isLinked(photo.id)
    }

    /// One photo object; `name` is its name in the table's arena, `names` the
    /// whole arena (its group's files' names are read from it).
    mutating func write(_ photo: PhotoRow, name: UnsafeBufferPointer<UInt8>, names: UnsafeBufferPointer<UInt8>, position: Int,
                        to w: inout JSONWriter) {
        w.beginObject()
        defer { w.endObject() }
        let photoRoot = table.rootID(of: photo)
        if photoRoot != rootID {
            rootID = photoRoot
            root = roots[rootID] ?? RootPart(name: Array("?".utf8), offline: false, protectAll: false, protection: ProtectionRules([]))
        }
        // Only a photo of a group looks further than its own row: a walk of its
        // group's ring, which only groups of several files have.
        let grouped = (wants.members || wants.captureTime) && mayBeGrouped(photo)
            && GroupMembers.rows(of: photo, links: groupLinks, table: table, names: names, into: &members)
        if wants.captureTime, let source = grouped ? GroupMembers.captureSource(of: photo, members: members) : photo,
           let seconds = source.capture.seconds {
            // Most photos of a phone or a recent camera have these; older ones, neither.
            let detail = table.captureDetail(of: source)
            if let milliseconds = detail.milliseconds { w.key("capture_ms"); w.int(milliseconds) }
            if let offset = detail.offsetWire { w.key("capture_offset"); w.string(offset) }
            w.key("capture_time")
            w.plainString(maxCount: CaptureTime.maxWireCount) { CaptureTime(seconds: seconds).writeWire(to: $0) }
        }
        let mark = duplicates?[table.groupID(of: photo)]
        if let mark { w.key("duplicate_set"); w.int(mark.set) }
        // Most photos have none: one lookup, and nothing written.
        let photoMarks = wants.marks && !marks.isEmpty ? marks[table.groupID(of: photo)] : nil
        if let photoMarks, photoMarks.flag != .none { w.key("flag"); w.string(plain: photoMarks.flag.staticWireName) }
        if wants.id { w.key("id"); w.int(table.groupID(of: photo)) }
        if let mark { w.key("keeper"); w.bool(mark.keeper) }
        if wants.members, grouped {
            w.key("kind"); w.string(plain: MemberKind(photo.type).staticWireName)
        }
        if let label = photoMarks?.label { w.key("label"); w.string(plain: label.staticWireName) }
        if wants.members, grouped {
            writeMembers(of: photo, names: names, to: &w)
        }
        if wants.mtimeNs { w.key("mtime_ns"); w.int(photo.mtimeNs) }
        if wants.offline, root.offline { w.key("offline"); w.bool(true) }
        if wants.path { writePath(photo, name: name, to: &w) }
        if wants.position { w.key("position"); w.int(position) }
        if wants.protected, root.mayProtect, isProtected(photo, name: name) { w.key("protected"); w.bool(true) }
        if let rating = photoMarks?.rating { w.key("rating"); w.int(rating) }
        if wants.root { w.key("root"); w.string(escaped: root.name) }
        if wants.selected, let number = selection?.number(of: table.groupID(of: photo)) { w.key("selected"); w.int(number) }
        if wants.size { w.key("size"); w.int(photo.size) }
        if let stack = stacks?[table.groupID(of: photo)] {
            w.key("stack"); w.int(stack.stack)
            w.key("stack_count"); w.int(stack.count)
            w.key("stack_keeper"); w.bool(stack.keeper)
            if stack.keeper { w.key("stack_reason"); w.string(plain: stack.reason.staticWireName) }
        }
        if let thumbnailsReady, thumbnailsReady.contains(photo.id) { w.key("thumbnail"); w.bool(true) }
        if wants.members, grouped { w.key("total_size"); w.int(members.reduce(0) { $0 + $1.size }) }
        if wants.type { w.key("type"); w.string(plain: photo.type.staticWireName) }
    }

    /// `members`: each of the group's other files (the shown one is the record),
    /// `kind`, `name` (and `name_raw`), `size`, `type`, written from its row: a
    /// group is of one folder, so a name says where it is.
    /// (A kind's and a type's names are static bytes: `StaticWireNames`.)
    private mutating func writeMembers(of photo: PhotoRow, names: UnsafeBufferPointer<UInt8>, to w: inout JSONWriter) {
        w.key("members")
        w.beginArray()
        for member in members where member.id != photo.id {
            w.beginObject()
            w.key("kind"); w.string(plain: MemberKind(member.type).staticWireName)
            writeName(UnsafeBufferPointer(rebasing: names[Int(member.name.offset)..<Int(member.name.offset) + Int(member.name.count)]),
                      to: &w)
            w.key("size"); w.int(member.size)
            w.key("type"); w.string(plain: member.type.staticWireName)
            w.endObject()
        }
        w.endArray()
    }

    /// `name`, and `name_raw` when the name is not valid UTF-8 (rare: the slow way).
    private func writeName(_ name: UnsafeBufferPointer<UInt8>, to w: inout JSONWriter) {
        w.key("name")
        if UTF8Validation.isValid(name) {
            w.string(escapedPrefix: UnsafeBufferPointer(start: nil, count: 0), name)
            return
        }
        let own = WirePath(ByteString(Array(name)))
        w.string(own.path)
        if let raw = own.pathRaw { w.key("name_raw"); w.string(raw) }
    }

    /// As `RootRegistry.isProtected`, from the root's rules taken at the start.
    private func isProtected(_ photo: PhotoRow, name: UnsafeBufferPointer<UInt8>) -> Bool {
        if root.protectAll { return true }
        if root.protection.isEmpty { return false }
        return root.protection.covers(folder: folders[photo.folderID]?.path ?? .empty, name: ByteString(Array(name)))
    }

    /// `path`, and `path_raw` when the path is not valid UTF-8 (then the slow way,
    /// as `summary` does it: such names are rare).
    private mutating func writePath(_ photo: PhotoRow, name: UnsafeBufferPointer<UInt8>, to w: inout JSONWriter) {
        if photo.folderID != folderID {
            folderID = photo.folderID
            let path = folders[folderID]?.path ?? .empty
            folderPrefix = path.isEmpty ? [] : (UTF8Validation.isValid(path.bytes) ? JSONWriter.escaped(path.bytes + [UInt8(ascii: "/")]) : nil)
        }
        if let prefix = folderPrefix, UTF8Validation.isValid(name) {
            w.key("path")
            prefix.withUnsafeBufferPointer { w.string(escapedPrefix: $0, name) }
            return
        }
        let own = ByteString(Array(name))
        let path = WirePath(folders[photo.folderID].map { $0.path.appending(own) } ?? own)
        w.key("path"); w.string(path.path)
        if let raw = path.pathRaw { w.key("path_raw"); w.string(raw) }
    }
}
