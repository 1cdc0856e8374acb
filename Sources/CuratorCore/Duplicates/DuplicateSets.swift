// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// One listed unit: a photo alone, or a group (RAW+JPEG and sidecars) with every
/// file of it.
struct DuplicateUnit: Hashable, Sendable {
    /// The group's id (a photo alone: its own id), as listings and selections know it.
    var groupID: Int64
    var files: [DuplicateFile]
    /// The shown photo's mtime: the keeper's first criterion.
    var mtimeNs: Int64
    /// Where the unit sorts by name: its root's place in the configuration, then
    /// the shown photo's relative path (bytes).
    var rootOrder: Int
    var path: ByteString
}

/// Why a copy is the one kept.
enum KeeperReason: String, Sendable, Hashable {
    /// Its mtime is the oldest of the set.
    case oldest
    /// Its mtime ties with another's; it comes first by root and path.
    case firstByName = "first_by_name"
}

/// Files of identical content, one or more units each: the units whose files are
/// the same inodes (hard links of a whole group) are one copy, never duplicates of
/// each other, since trashing one frees nothing.
struct DuplicateCopy: Hashable, Sendable {
    /// In name order; the first stands for the copy.
    var units: [DuplicateUnit]
}

/// A set of two or more copies of identical content, the keeper first.
struct DuplicateSet: Hashable, Sendable {
    /// The smallest group id of the set: stable while its members stay.
    var id: Int64
    /// The keeper first, then the others by the keeper order.
    var copies: [DuplicateCopy]
    var keeperReason: KeeperReason

    var keeper: DuplicateCopy { copies[0] }
    var others: ArraySlice<DuplicateCopy> { copies.dropFirst() }
}

/// Finds the duplicate sets among units. A unit is a duplicate of another only when
/// all its files are: the two have the same contents file for file (the same
/// multiset of content keys). A JPEG copied without its RAW is therefore no duplicate
/// of the pair, nor is a pair whose sidecar was edited: the search never offers a
/// choice that loses a file the other unit lacks.
enum DuplicateSets {
    /// `content`: each file's content key by photo id (nil: unknown or unique, so
    /// its unit has no duplicate). Sets sorted by their keeper's name order.
    static func find(_ units: [DuplicateUnit], content: (Int64) -> ContentKey?) -> [DuplicateSet] {
        var buckets: [[ContentKey]: [DuplicateUnit]] = [:]
        for unit in units where !unit.files.isEmpty {
            var keys: [ContentKey] = []
            keys.reserveCapacity(unit.files.count)
            for file in unit.files {
                guard let key = content(file.photoID) else { break }
                keys.append(key)
            }
            guard keys.count == unit.files.count else { continue }
            buckets[keys.sorted(), default: []].append(unit)
        }
        var sets: [DuplicateSet] = []
        for (_, bucket) in buckets where bucket.count > 1 {
            var copies: [[InodeKey]: [DuplicateUnit]] = [:]
            for unit in bucket { copies[unit.files.map(\.inodeKey).sorted(by: inodeOrder), default: []].append(unit) }
            guard copies.count > 1 else { continue }
            let ordered = copies.values.map { DuplicateCopy(units: $0.sorted(by: nameOrder)) }.sorted(by: keeperOrder)
            let tie = ordered[0].units[0].mtimeNs == ordered[1].units[0].mtimeNs
            sets.append(DuplicateSet(id: bucket.map(\.groupID).min() ?? 0, copies: ordered,
                                     keeperReason: tie ? .firstByName : .oldest))
        }
        return sets.sorted { nameOrder($0.keeper.units[0], $1.keeper.units[0]) }
    }

    /// The keeper order: the copy that comes first is kept. Ratings, when the index
    /// has them, go first here (the highest rated), with their own `KeeperReason`;
    /// then the oldest mtime (the original is usually older than its copies), then
    /// the name order, so the choice is total and the same on every run.
    static func keeperOrder(_ a: DuplicateCopy, _ b: DuplicateCopy) -> Bool {
        let (x, y) = (a.units[0], b.units[0])
        if x.mtimeNs != y.mtimeNs { return x.mtimeNs < y.mtimeNs }
        return nameOrder(x, y)
    }

    static func nameOrder(_ a: DuplicateUnit, _ b: DuplicateUnit) -> Bool {
        if a.rootOrder != b.rootOrder { return a.rootOrder < b.rootOrder }
        if a.path != b.path { return a.path < b.path }
        return a.groupID < b.groupID
    }

    private static func inodeOrder(_ a: InodeKey, _ b: InodeKey) -> Bool {
        (a.device, a.inode) < (b.device, b.inode)
    }
}
