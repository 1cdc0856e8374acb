// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Every photo by id, stored densely: a `[Int64: Photo]` dictionary keeps a
/// power-of-two bucket array of whole `Photo` values under a 3/4 load, which at
/// 100 000 photos is a 25 MB allocation; here the photos sit in one array of
/// 56-byte `PhotoRow`s, their names in one `NameArena`, and the slot of each id is
/// found in a plain array indexed by id (ids are handed out in sequence and never
/// reused, so it costs 4 bytes per id ever given out). Removal moves the last
/// photo into the hole.
///
/// `subscript(id)` gives and takes whole `Photo` values (a name of its own each):
/// what the library's mutations use. Hot paths (views, listings) read `rows` and
/// the names in place.
struct PhotoTable {
    private(set) var rows: ContiguousArray<PhotoRow> = []
    /// Each row's capture detail, at the row's slot: a column of its own, since
    /// the rows have no bit to spare (4 bytes a photo, where a row grown to the
    /// next stride would cost 8).
    private var details: ContiguousArray<CaptureDetail> = []
    private(set) var names = NameArena()
    /// A photo's root and device, by `PhotoRow.place`: a root has one device or a few.
    struct Place: Hashable {
        var root: Int32
        var device: UInt64
    }
    private var places: [Place] = []
    private var placeIndexes: [Place: UInt8] = [:]
    /// Places of photos whose row could not index one (255 known already), by id.
    private var overflowPlaces: [Int64: Place] = [:]
    /// Group ids too far from their photo's id for `PhotoRow.groupOffset` (24 bits), by photo id.
    private var farGroups: [Int64: Int64] = [:]
    private var slotByID = SlotIndex()

    static let overflowPlace = UInt8.max
    static let farGroup = PhotoRow.groupOffsets.lowerBound

    var count: Int { rows.count }
    var isEmpty: Bool { rows.isEmpty }

    /// Room for `n` photos, with an eighth to spare (names guessed at 16 bytes).
    mutating func reserve(_ n: Int) {
        rows.reserveCapacity(n + n / 8)
        details.reserveCapacity(n + n / 8)
        names.reserve((n + n / 8) * 16)
    }

    /// The capacity a full table of `count` rows grows to: double. Grown by an
    /// eighth, a cold scan of a million photos copied every row about eight times
    /// (a quarter of its samples under load, page faults included). The spare half
    /// costs address space, not memory: past the daemon's fixed mmap threshold
    /// (`curator_tune_malloc`) the array is a mapping of its own, and rows never
    /// appended are pages never touched, so not resident.
    static func grownCapacity(_ count: Int) -> Int { max(count * 2, 1024) }

    private mutating func reserveGrown() {
        rows.reserveCapacity(Self.grownCapacity(rows.count))
        details.reserveCapacity(Self.grownCapacity(rows.count))
    }

    /// Where photo `id` is in `rows`.
    func slot(of id: Int64) -> Int32? { slotByID[id] }

    func row(_ id: Int64) -> PhotoRow? { slotByID[id].map { rows[Int($0)] } }

    /// The sub-seconds and offset of a row's capture time.
    func captureDetail(of row: PhotoRow) -> CaptureDetail { slotByID[row.id].map { details[Int($0)] } ?? .none }

    private func place(of row: PhotoRow) -> Place {
        row.place == Self.overflowPlace ? overflowPlaces[row.id] ?? Place(root: 0, device: 0) : places[Int(row.place)]
    }

    func rootID(of row: PhotoRow) -> Int32 { place(of: row).root }

    func device(of row: PhotoRow) -> UInt64 { place(of: row).device }

    func groupID(of row: PhotoRow) -> Int64 {
        row.groupOffset == Self.farGroup ? farGroups[row.id] ?? row.id : row.id &+ Int64(row.groupOffset)
    }

    func withName<R>(of row: PhotoRow, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try names.withName(row.name, body)
    }

    func name(of row: PhotoRow) -> ByteString { withName(of: row) { ByteString(Array($0)) } }

    /// The whole photo of a row (its name copied out of the arena).
    func photo(_ row: PhotoRow) -> Photo {
        let place = place(of: row)
        return Photo(id: row.id, rootID: place.root, folderID: row.folderID, name: name(of: row),
                     identity: FileIdentity(device: place.device, inode: row.inode, size: row.size, mtimeNs: row.mtimeNs),
                     type: row.type, capture: row.capture, rank: row.rank, groupID: groupID(of: row), role: row.role,
                     captureDetail: captureDetail(of: row))
    }

    /// Every photo as a `Photo`, in slot order (tests and rare whole-library passes).
    var values: Photos { Photos(table: self) }

    struct Photos: RandomAccessCollection {
        let table: PhotoTable
        var startIndex: Int { 0 }
        var endIndex: Int { table.rows.count }
        subscript(slot: Int) -> Photo { table.photo(table.rows[slot]) }
    }

    subscript(id: Int64) -> Photo? {
        // Not `row(id).map(photo)`: the method reference copies the table into a
        // closure (a retain of each of its buffers, and a context allocated) on
        // every lookup; 2.7 % of a cold start's samples, in the capture reader.
        get {
            guard let row = row(id) else { return nil }
            return photo(row)
        }
        set {
            if let photo = newValue {
                precondition(photo.id == id, "a photo is stored under its own id")
                if let slot = slotByID[id] {
                    rows[Int(slot)] = makeRow(photo, replacing: rows[Int(slot)])
                    details[Int(slot)] = photo.captureDetail
                } else {
                    if rows.count == rows.capacity { reserveGrown() }
                    let row = makeRow(photo, replacing: nil)
                    slotByID[id] = Int32(rows.count)
                    rows.append(row)
                    details.append(photo.captureDetail)
                }
            } else if let slot = slotByID[id] {
                slotByID[id] = nil
                let gone = rows[Int(slot)]
                names.release(gone.name)
                if gone.place == Self.overflowPlace { overflowPlaces[id] = nil }
                if gone.groupOffset == Self.farGroup { farGroups[id] = nil }
                let last = rows.count - 1
                if Int(slot) != last {
                    rows[Int(slot)] = rows[last]
                    details[Int(slot)] = details[last]
                    slotByID[rows[Int(slot)].id] = slot
                }
                rows.removeLast()
                details.removeLast()
            }
            if names.wantsCompaction { compactNames() }
        }
    }

    /// A stored photo's row, appended from its columns as the index file holds them
    /// (`PhotoLoad`): the name straight from SQLite's buffer into the arena, with
    /// no `Photo` nor name array made for it. False, and nothing appended, when `id`
    /// is in the table already (a primary key is unique: never, from SQLite).
    mutating func appendStored(id: Int64, rootID: Int32, folderID: Int32, name: UnsafeBufferPointer<UInt8>, device: UInt64,
                               inode: UInt64, size: Int64, mtimeNs: Int64, type: PhotoType, captureRaw: Int64, rank: Int64,
                               groupID: Int64, role: GroupRole, captureDetail: CaptureDetail = .none) -> Bool {
        guard slotByID[id] == nil else { return false }
        if rows.count == rows.capacity { reserveGrown() }
        let whereItIs = Place(root: rootID, device: device)
        let place = placeIndex(whereItIs)
        if place == Self.overflowPlace { overflowPlaces[id] = whereItIs }
        let row = PhotoRow(id: id, inode: inode, size: size, mtimeNs: mtimeNs, captureRaw: CaptureState(raw: captureRaw).raw,
                           folderID: folderID, rankRaw: Int32(clamping: rank), groupOffset: groupOffset(id: id, group: groupID),
                           name: appendName(name), place: place, type: type, role: role)
        slotByID[id] = Int32(rows.count)
        rows.append(row)
        details.append(captureDetail)
        return true
    }

    /// Puts row `id` in `group` with `role`, in place: a regrouping changes these two
    /// fields of thousands of rows, and a whole `Photo` out and back (its name
    /// copied, compared and its place looked up) cost more than the grouping.
    mutating func setGroup(_ id: Int64, group: Int64, role: GroupRole) {
        guard let slot = slotByID[id].map(Int.init) else { return }
        if rows[slot].groupOffset == Self.farGroup { farGroups[id] = nil }
        rows[slot].groupOffset = groupOffset(id: id, group: group)
        rows[slot].role = role
    }

    /// `group - id` as a row keeps it; past its 24 bits (or the sentinel itself) the
    /// sentinel, the group id then kept by photo id.
    private mutating func groupOffset(id: Int64, group: Int64) -> Int32 {
        let distance = group.subtractingReportingOverflow(id)
        // The range's lowest value is the sentinel itself.
        if !distance.overflow, distance.partialValue > Int64(Self.farGroup),
           distance.partialValue <= Int64(PhotoRow.groupOffsets.upperBound) { return Int32(distance.partialValue) }
        farGroups[id] = group
        return Self.farGroup
    }

    /// The row of `photo`; the name of `old` is reused when it is the same.
    private mutating func makeRow(_ photo: Photo, replacing old: PhotoRow?) -> PhotoRow {
        let name: NameRef
        if let old, withName(of: old, { Self.equal($0, photo.name) }) {
            name = old.name
        } else {
            if let old { names.release(old.name) }
            name = appendName(photo.name)
        }
        if let old, old.place == Self.overflowPlace { overflowPlaces[old.id] = nil }
        if let old, old.groupOffset == Self.farGroup { farGroups[old.id] = nil }
        let whereItIs = Place(root: photo.rootID, device: photo.identity.device)
        let place = placeIndex(whereItIs)
        if place == Self.overflowPlace { overflowPlaces[photo.id] = whereItIs }
        let offset = groupOffset(id: photo.id, group: photo.groupID)
        var row = PhotoRow(id: photo.id, inode: photo.identity.inode, size: photo.identity.size, mtimeNs: photo.identity.mtimeNs,
                           captureRaw: photo.capture.raw, folderID: photo.folderID, rankRaw: Int32(clamping: photo.rank),
                           groupOffset: offset, name: name, place: place, type: photo.type, role: photo.role)
        if let old { row.keepReadFlags(of: old) }
        return row
    }

    /// Notes that row `id`'s marks were read from the file at `size` and `mtimeNs`
    /// (and `inode`, when known): kept only when that is still the row's file.
    mutating func setMarksRead(_ id: Int64, size: Int64, mtimeNs: Int64, inode: UInt64? = nil) {
        guard let slot = slotByID[id].map(Int.init), rows[slot].size == size, rows[slot].mtimeNs == mtimeNs,
              inode.map({ $0 == rows[slot].inode }) ?? true else { return }
        rows[slot].marksRead = true
    }

    private mutating func appendName(_ name: ByteString) -> NameRef {
        name.bytes.withUnsafeBufferPointer { appendName($0) }
    }

    private mutating func appendName(_ name: UnsafeBufferPointer<UInt8>) -> NameRef {
        if let ref = names.append(name) { return ref }
        // Full of dead names: compact and try again.
        compactNames()
        let ref = names.append(name)
        // A file name is at most 255 bytes on Linux (getdents cannot carry more
        // than 65 535), and 4 GiB of live names is beyond the ids the table can
        // hold (`SlotIndex`): neither comes from a real file system.
        guard let ref else { preconditionFailure("a name of \(name.count) bytes does not fit the name arena (\(names.live) bytes live)") }
        return ref
    }

    private mutating func placeIndex(_ place: Place) -> UInt8 {
        if let last = lastPlace, last.place == place { return last.index }
        let index: UInt8
        if let known = placeIndexes[place] {
            index = known
        } else {
            guard places.count < Int(Self.overflowPlace) else { return Self.overflowPlace }
            index = UInt8(places.count)
            places.append(place)
            placeIndexes[place] = index
        }
        lastPlace = (place, index)
        return index
    }

    /// The place `placeIndex` gave last (places are only ever appended): a scan's
    /// rows come one root and device after another, and a hash of the place per row
    /// was 1.4 % of a cold start's index thread.
    private var lastPlace: (place: Place, index: UInt8)?

    /// Moves every live name into a fresh arena, in slot order.
    private mutating func compactNames() {
        var fresh = NameArena(reservingCapacity: names.live)
        for slot in rows.indices {
            guard let moved = names.move(rows[slot].name, to: &fresh) else { continue }
            rows[slot].name = moved
        }
        names = fresh
    }

    private static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: ByteString) -> Bool {
        a.count == b.count && b.bytes.withUnsafeBufferPointer { b in a.elementsEqual(b) }
    }
}

/// Slot by id in a flat array; ids are positive and dense. An id past the array
/// (or not positive) has no slot. Absurdly large ids, which only a corrupt index
/// could hold, fall back to a dictionary rather than a huge array.
struct SlotIndex {
    private var flat: [Int32] = []
    private var sparse: [Int64: Int32] = [:]
    static let flatLimit: Int64 = 1 << 26

    /// Ids the flat array has a slot for (tests: all of them are written, and resident).
    var flatCount: Int { flat.count }

    subscript(id: Int64) -> Int32? {
        get {
            if id > 0 && id < Self.flatLimit {
                guard id < flat.count else { return nil }
                let slot = flat[Int(id)]
                return slot < 0 ? nil : slot
            }
            return sparse[id]
        }
        set {
            if id > 0 && id < Self.flatLimit {
                if id >= flat.count {
                    guard newValue != nil else { return }
                    // Grow geometrically so appending ids stays amortised O(1), by an
                    // eighth: every slot is written when it grows (the rows' spare room
                    // is not), and by half up to 2 MB of them stayed resident at a
                    // million photos. Copying 4 bytes an id a few times costs little.
                    let size = max(Int(id) + 1, flat.count + flat.count / 8, 1024)
                    flat.reserveCapacity(size)  // exactly: appending would double it
                    flat.append(contentsOf: repeatElement(-1, count: size - flat.count))
                }
                flat[Int(id)] = newValue ?? -1
            } else {
                sparse[id] = newValue
            }
        }
    }
}
