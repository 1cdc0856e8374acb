// SPDX-License-Identifier: GPL-2.0-or-later

/// The rows of each group that its photo table cannot tell alone (`PhotoLibrary`
/// keeps a group here when it is more than one row, or when its id is not its
/// only row's own), as a ring through the rows: each row kept holds the id of its
/// group's next row, the last the first's. A `[Int64: [Int64]]` of the same cost
/// a dictionary slot and a small heap array per group: 11 MB for the 97 000 groups
/// of a million photos. Here a row costs 4 bytes in one flat array by id (as
/// `SlotIndex`: ids are dense and never reused), whether it is in a group or not,
/// and nothing else is allocated per group.
///
/// A group is found from its id: the ring through the row of that id when the
/// group holds it (a bit of that row's link says so, as another group may hold
/// the row: a photo moved into another group while its former group keeps its
/// id), else `heads` (a group whose id-giving photo left, or has no row: rare).
///
/// It reads as the dictionary it replaces: `self[group]` is the group's rows (nil
/// for none), set whole. A row is in one group at most: setting a group takes
/// its rows out of any other ring first, so every ring stays a cycle and every
/// walk ends.
struct GroupLinks {
    /// By id, for ids below `SlotIndex.flatLimit`: 0 for a row in no group kept,
    /// else the next row's id with `ownsBit` set when the ring is the group whose
    /// id is this row's own; `far` when the link is in `sparse` (an id or a next
    /// row outside the flat range, which only a corrupt index could hold).
    private var flat: [UInt32] = []
    private var sparse: [Int64: Link] = [:]
    /// A row of each group kept whose ring does not hold its own id.
    private var heads: [Int64: Int64] = [:]
    /// Groups kept.
    private(set) var count = 0

    private struct Link: Equatable {
        var next: Int64
        var owns: Bool
    }

    private static let ownsBit: UInt32 = 1 << 31
    private static let far: UInt32 = ownsBit - 1

    var isEmpty: Bool { count == 0 }

    /// The bytes of the flat links (what a row costs, in or out of a group).
    var flatBytes: Int { flat.capacity * MemoryLayout<UInt32>.stride }

    /// Whether row `id` is in a group kept: one of several rows, or alone under
    /// another id. A photo in no group kept is alone under its own id.
    func isLinked(_ id: Int64) -> Bool { link(id) != nil }

    /// Whether `group` is kept (`self[group] != nil`, without building its rows).
    func keeps(_ group: Int64) -> Bool { entry(group) != nil }

    /// The rows of `group`, from the one the walk starts at: its own row when it
    /// holds it, first.
    subscript(group: Int64) -> [Int64]? {
        get {
            guard let start = entry(group) else { return nil }
            var rows: [Int64] = []
            forEachRow(inRingOf: start) { rows.append($0) }
            return rows
        }
        set {
            if let start = entry(group) {
                var rows: [Int64] = []
                forEachRow(inRingOf: start) { rows.append($0) }
                for row in rows { setLink(row, nil) }
                heads[group] = nil
                count -= 1
            }
            guard var rows = newValue, !rows.isEmpty else { return }
            assert(Set(rows).count == rows.count, "a row is in a group once")
            for row in rows where isLinked(row) {
                assertionFailure("row \(row) is in another group")
                unlinkFromItsRing(row)
            }
            if let own = rows.firstIndex(of: group) {
                rows = Array(rows[own...] + rows[..<own])
            } else {
                heads[group] = rows[0]
            }
            for (index, row) in rows.enumerated() {
                setLink(row, Link(next: rows[(index + 1) % rows.count], owns: row == group))
            }
            count += 1
        }
    }

    /// Adds `row` (in no group kept) to the rows of kept `group`, whose id is not
    /// its own, last: `self[group]` and `row`, set without building them (a scan
    /// adds a group's rows one by one, and the load every row of every group).
    mutating func append(_ row: Int64, to group: Int64) {
        guard row != group, link(row) == nil, let start = entry(group) else {
            self[group] = (self[group] ?? []).filter { $0 != row } + [row]
            return
        }
        var last = start
        while let next = link(last)?.next, next != start { last = next }
        guard var before = link(last) else { return }
        before.next = row
        setLink(last, before)
        setLink(row, Link(next: start, owns: false))
    }

    /// Keeps `group` (not kept, its own row in no ring) as its own row and `row` (in
    /// no ring): `self[group] = [group, row]` without the arrays (a scan pairs the
    /// rows of each group it adds so, most groups of two or more).
    mutating func pair(_ group: Int64, with row: Int64) {
        guard row != group, entry(group) == nil, link(group) == nil, link(row) == nil else {
            self[group] = (self[group] ?? [group]).filter { $0 != row } + [row]
            return
        }
        setLink(group, Link(next: row, owns: true))
        setLink(row, Link(next: group, owns: false))
        count += 1
    }

    /// Takes out a row that `append` added (and that is still not the ring's entry):
    /// its group's rows are as they were before.
    mutating func removeAppended(_ row: Int64) { unlinkFromItsRing(row) }

    /// Calls `body` with each row of the group that row `id` is in, from `id`;
    /// nothing for a row in no group kept.
    func forEachRow(inRingOf id: Int64, _ body: (Int64) -> Void) {
        guard link(id) != nil else { return }
        var row = id
        repeat {
            body(row)
            guard let next = link(row)?.next else { return }
            row = next
        } while row != id
    }

    /// The rows of the group that row `id` is in: 1 for a row in no group kept.
    func rowCount(inRingOf id: Int64) -> Int {
        var n = 0
        forEachRow(inRingOf: id) { _ in n += 1 }
        return max(n, 1)
    }

    /// Where the walk of `group`'s rows starts.
    private func entry(_ group: Int64) -> Int64? {
        if let own = link(group), own.owns { return group }
        return heads.isEmpty ? nil : heads[group]
    }

    /// Takes a row out of whatever ring holds it (a caller's mistake: the ring's
    /// group may then be left without its entry, but every ring stays a cycle).
    private mutating func unlinkFromItsRing(_ id: Int64) {
        guard let mine = link(id) else { return }
        var row = mine.next
        while row != id, let next = link(row)?.next {
            if next == id, var before = link(row) {
                before.next = mine.next
                setLink(row, before)
                break
            }
            row = next
        }
        setLink(id, nil)
    }

    private func link(_ id: Int64) -> Link? {
        guard id > 0 && id < SlotIndex.flatLimit else { return sparse[id] }
        guard id < flat.count else { return nil }
        let cell = flat[Int(id)]
        if cell == 0 { return nil }
        if cell & ~Self.ownsBit == Self.far { return sparse[id] }
        return Link(next: Int64(cell & ~Self.ownsBit), owns: cell & Self.ownsBit != 0)
    }

    private mutating func setLink(_ id: Int64, _ link: Link?) {
        guard id > 0 && id < SlotIndex.flatLimit else {
            sparse[id] = link
            return
        }
        if id >= flat.count {
            guard link != nil else { return }
            // An eighth at a time, as the photo table grows: a doubled array would
            // keep up to 4 MB of empty links at a million photos.
            flat.reserveCapacity(max(Int(id) + 1, flat.count + max(flat.count / 8, 1024)))
            flat.append(contentsOf: repeatElement(0, count: flat.capacity - flat.count))
        }
        guard let link else {
            if flat[Int(id)] & ~Self.ownsBit == Self.far { sparse[id] = nil }
            flat[Int(id)] = 0
            return
        }
        if link.next > 0 && link.next < SlotIndex.flatLimit {
            if flat[Int(id)] & ~Self.ownsBit == Self.far { sparse[id] = nil }
            flat[Int(id)] = UInt32(link.next) | (link.owns ? Self.ownsBit : 0)
        } else {
            sparse[id] = link
            flat[Int(id)] = Self.far
        }
    }
}
