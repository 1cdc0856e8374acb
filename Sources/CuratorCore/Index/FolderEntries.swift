// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// The photos of one folder by file name: their ids, sorted by the names the
/// photo table holds for them. A folder holds a few hundred names, where a
/// dictionary's buckets would cost 2-3 times the memory for no faster lookup;
/// and the names are not held twice (a reference per entry was 8 MB at a
/// million photos): each comparison reads the name in the table's arena.
///
/// Every id here must be in the table, under the name it is filed by: callers
/// file a photo after putting it in the table and take it out before removing it.
struct FolderEntries {
    /// The ids, 4 bytes each: ids are handed out in sequence from 1, and
    /// `Int64`s were 9 MB at a million photos.
    private var narrow: [UInt32] = []
    /// Every id instead, while one does not fit 32 bits (only a corrupt index
    /// holds such an id); `narrow` is then empty.
    private var wide: [Int64] = []

    private var isWide: Bool { !wide.isEmpty }

    init() {}

    /// The entries of `ids` (photos of one folder, in the table), sorted once: what
    /// filing them one by one leaves, a name filed twice keeping the later id of
    /// `ids`. Loading the index filed each photo with a search and an insert.
    init(filing ids: [Int64], in table: PhotoTable) {
        var filed: [(name: NameRef, id: Int64, order: Int)] = []
        filed.reserveCapacity(ids.count)
        for (order, id) in ids.enumerated() {
            if let row = table.row(id) { filed.append((row.name, id, order)) }
        }
        table.names.bytes.withUnsafeBufferPointer { arena in
            func name(_ ref: NameRef) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: arena[Int(ref.offset)..<Int(ref.offset) + Int(ref.count)])
            }
            filed.sort { a, b in
                let order = ByteString.order(name(a.name), name(b.name))
                return order != 0 ? order < 0 : a.order < b.order
            }
            // Of a run of equal names, the last filed stays.
            var kept: [(name: NameRef, id: Int64, order: Int)] = []
            kept.reserveCapacity(filed.count)
            for entry in filed {
                if let last = kept.last, ByteString.order(name(last.name), name(entry.name)) == 0 {
                    kept[kept.count - 1] = entry
                } else {
                    kept.append(entry)
                }
            }
            filed = kept
        }
        if filed.allSatisfy({ UInt32(exactly: $0.id) != nil }) {
            narrow = filed.map { UInt32(truncatingIfNeeded: $0.id) }
        } else {
            wide = filed.map(\.id)
        }
    }

    /// The entries of `ids`, photos of one folder in the table given in name order
    /// (a folder's plan knows it: `FolderGroupPlan.byName`), checked in one pass
    /// over their names; nil where two are not in strict order (each must then be
    /// filed on its own). A search per name, where a scan's names came out of name
    /// order, was a fifth of what a tree of RAW+JPEG pairs cost the index's thread.
    init?(sortedIDs ids: [Int64], in table: PhotoTable) {
        var refs: [NameRef] = []
        refs.reserveCapacity(ids.count)
        for id in ids {
            guard let row = table.row(id) else { return nil }
            refs.append(row.name)
        }
        let ascending = table.names.bytes.withUnsafeBufferPointer { arena in
            func name(_ ref: NameRef) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: arena[Int(ref.offset)..<Int(ref.offset) + Int(ref.count)])
            }
            return zip(refs, refs.dropFirst()).allSatisfy { ByteString.order(name($0), name($1)) < 0 }
        }
        guard ascending else { return nil }
        if ids.allSatisfy({ UInt32(exactly: $0) != nil }) {
            narrow = ids.map { UInt32(truncatingIfNeeded: $0) }
        } else {
            wide = ids
        }
    }

    var isEmpty: Bool { count == 0 }
    var count: Int { isWide ? wide.count : narrow.count }
    var values: [Int64] { isWide ? wide : narrow.map { Int64($0) } }

    /// Each id in name order, without an array of them (a view of a million photos
    /// made one array a folder, 8 MB in all).
    func forEachID(_ body: (Int64) -> Void) {
        if isWide {
            for id in wide { body(id) }
        } else {
            for id in narrow { body(Int64(id)) }
        }
    }

    private func id(at index: Int) -> Int64 { isWide ? wide[index] : Int64(narrow[index]) }

    /// Where `name` is, or would go; compared as `ByteString` orders names (bytes, then length).
    /// `lastFirst`: the name is likely past every name here (names filed in order),
    /// so the last is compared first, and a name past it takes one comparison, not a search.
    private func position(of name: ByteString, in table: PhotoTable, lastFirst: Bool = false) -> (index: Int, found: Bool) {
        name.bytes.withUnsafeBufferPointer { name in
            var low = 0
            var high = count
            if lastFirst && count > 0 {
                let order = Self.compare(id(at: count - 1), name, table)
                if order < 0 { return (count, false) }
                high = count - 1
                if order == 0 { return (high, true) }
            }
            var found = false
            while low < high {
                let mid = (low + high) / 2
                let order = Self.compare(id(at: mid), name, table)
                if order < 0 {
                    low = mid + 1
                } else {
                    high = mid
                    if order == 0 { found = true }
                }
            }
            return (low, found && low < count)
        }
    }

    /// The order of photo `id`'s name against `name`: negative, zero or positive.
    /// An id the table lacks (a broken invariant) sorts first, as an empty name would.
    private static func compare(_ id: Int64, _ name: UnsafeBufferPointer<UInt8>, _ table: PhotoTable) -> Int {
        guard let row = table.row(id) else { return name.isEmpty ? 0 : -1 }
        return table.withName(of: row) { own in ByteString.order(own, name) }
    }

    /// `inOrder`: names are asked in ascending order (a folder's plan), checked against the last first.
    func id(named name: ByteString, in table: PhotoTable, inOrder: Bool = false) -> Int64? {
        let (index, found) = position(of: name, in: table, lastFirst: inOrder)
        return found ? id(at: index) : nil
    }

    /// Files `id` under `name` (replacing whatever was filed there), or with nil
    /// takes the name's entry out. Returns the id filed there before, as
    /// `id(named:in:)` would have: one search where the undo log asked first.
    /// `inOrder`: names come in ascending order (a folder's plan), checked against the last first.
    @discardableResult
    mutating func set(_ name: ByteString, _ id: Int64?, in table: PhotoTable, inOrder: Bool = false) -> Int64? {
        let (index, found) = position(of: name, in: table, lastFirst: inOrder)
        let before = found ? self.id(at: index) : nil
        if let id, !isWide, UInt32(exactly: id) == nil {
            // Every id wide from here, this one in with them.
            var all = narrow.map { Int64($0) }
            if found { all[index] = id } else { all.insert(id, at: index) }
            wide = all
            narrow = []
            return before
        }
        switch (found, id) {
        case (true, let id?):
            if isWide { wide[index] = id } else { narrow[index] = UInt32(truncatingIfNeeded: id) }
        case (true, nil):
            if isWide { wide.remove(at: index) } else { narrow.remove(at: index) }
        case (false, let id?):
            if isWide { wide.insert(id, at: index) } else { narrow.insert(UInt32(truncatingIfNeeded: id), at: index) }
        case (false, nil): break
        }
        return before
    }

    func pairs(in table: PhotoTable) -> [(name: ByteString, id: Int64)] {
        (0..<count).compactMap { index in
            let id = id(at: index)
            return table.row(id).map { (table.name(of: $0), id) }
        }
    }
}
