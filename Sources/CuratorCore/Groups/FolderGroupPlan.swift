// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// A new folder's groups, worked out from the names a scan listed, so that the
/// index can give each row its group and role as it adds it. A first scan adds
/// every folder whole to an index that has none of its rows; grouping them
/// afterwards (`PhotoLibrary.regroup`: a pass over the names, the grouping, then
/// each grouped row set again) was a sixth of the cold index's work under the
/// state's lock. The walker makes the plan beside it, on its own thread.
///
/// It is what `regroup` gives a folder whose rows are all new: the same
/// `GroupAssignment` over the same names (every type: the scan kept only the
/// root's photos and sidecars), each group bearing its shown photo's id, each
/// name in no group its own.
struct FolderGroupPlan: Sendable {
    /// The grouping the plan follows (`types` all): the index must group its root so.
    let settings: GroupSettings
    /// Per file of the folder: the index of the file whose id its group bears
    /// (the group's shown photo), or -1 where that is its own id.
    let leader: [Int32]
    /// Per file: its role.
    let role: [GroupRole]
    /// The files in the order their rows are added: the photos in name order, each
    /// group's other photos right after its shown one (they find its id), then
    /// the sidecars in name order. So a folder's rows lie in the table, and their
    /// ids run, as the listing's default order reads them, and a group's photos
    /// lie together: a listing reads them in sequence, where in the scan's order
    /// (the directory's hash order) each photo's row and its group's other rows
    /// were a cache miss each. The sidecars come last so that the photos' ids run
    /// unbroken: the capture-time and thumbnail queues keep a run of ids as one
    /// word (`IDStack`), and a sidecar after each group broke a folder's run into
    /// one a group (0.8 MB more at a million photos, held until they are done).
    let order: [Int32]
    /// The files in name order (`ByteString`'s), where no two share a name (a
    /// folder's listing); nil where some do (only a caller's list may repeat one).
    /// The index files a new folder's rows under their names in this order, in one
    /// pass (`PhotoLibrary.file(folder:ids:)`).
    let byName: [Int32]?

    var count: Int { leader.count }

    /// The plan of the folder of `names` (in the order of the files it is for).
    init(names: [ByteString], settings: GroupSettings) {
        // The names one after another, read in place.
        var bytes: [UInt8] = []
        var starts: [Int] = [0]
        for name in names {
            bytes.append(contentsOf: name.bytes)
            starts.append(bytes.count)
        }
        self = bytes.withUnsafeBufferPointer { all in
            FolderGroupPlan(count: names.count, settings: settings) { UnsafeBufferPointer(rebasing: all[starts[$0]..<starts[$0 + 1]]) }
        }
    }

    /// The plan of a folder of `count` files, file `i` named `name(i)`: a scan's
    /// names are read where its listing holds them (`DirectoryListing`).
    init(count: Int, settings: GroupSettings, name: (Int) -> UnsafeBufferPointer<UInt8>) {
        self.settings = Self.overEveryType(settings)
        let assignment = GroupAssignment(count: count, settings: self.settings, name: name)
        var leader = [Int32](repeating: -1, count: count)
        for i in 0..<count {
            let g = assignment.group[i]
            if g >= 0, assignment.shown[Int(g)] != Int32(i) { leader[i] = assignment.shown[Int(g)] }
        }
        self.leader = leader
        role = assignment.role
        let sidecar = (0..<count).map { assignment.types[$0].isSidecar }
        let byName = Self.nameOrder(count: count, name: name)
        order = Self.order(leader: leader, sidecar: sidecar, byName: byName)
        self.byName = Self.distinct(byName, name: name) ? byName.map { Int32($0) } : nil
    }

    /// The plan of a folder of `count` photos none of which can group with another
    /// (`PhotoGrouping.noneCanGroup`: all of one kind, no sidecar): each its own group,
    /// shown, the files in name order. What the grouping gives such a folder, without
    /// running it: a phone's folder of JPEGs is the common case, and the grouping was
    /// most of a plan's instructions (~600 a name).
    init(singles count: Int, settings: GroupSettings, name: (Int) -> UnsafeBufferPointer<UInt8>) {
        self.settings = Self.overEveryType(settings)
        leader = [Int32](repeating: -1, count: count)
        role = [GroupRole](repeating: .shown, count: count)
        let byName = Self.nameOrder(count: count, name: name)
        order = byName.map { Int32($0) }
        self.byName = Self.distinct(byName, name: name) ? order : nil
    }

    /// Whether no two neighbours of a name order share a name.
    private static func distinct(_ byName: [Int], name: (Int) -> UnsafeBufferPointer<UInt8>) -> Bool {
        zip(byName, byName.dropFirst()).allSatisfy { ByteString.order(name($0), name($1)) != 0 }
    }

    /// Name order (`ByteString`'s: bytes, then length), each photo that bears
    /// another's id right after that one, the sidecars after all the photos.
    private static func order(leader: [Int32], sidecar: [Bool], byName: [Int]) -> [Int32] {
        // Each leader's photo followers as a list through `next`, in name order (pushed from the last).
        var head = [Int32](repeating: -1, count: leader.count)
        var next = [Int32](repeating: -1, count: leader.count)
        for i in byName.reversed() where leader[i] >= 0 && !sidecar[i] {
            next[i] = head[Int(leader[i])]
            head[Int(leader[i])] = Int32(i)
        }
        var order: [Int32] = []
        order.reserveCapacity(leader.count)
        for i in byName where leader[i] < 0 && !sidecar[i] {
            order.append(Int32(i))
            var follower = head[i]
            while follower >= 0 {
                order.append(follower)
                follower = next[Int(follower)]
            }
        }
        for i in byName where sidecar[i] { order.append(Int32(i)) }
        return order
    }

    /// The indices of `count` names in name order (`ByteString`'s: bytes, then
    /// length). A folder's names mostly share their first bytes (`IMG_0`): each is
    /// keyed by the 6 bytes after what they all share (zeros past its end: a name
    /// holds no NUL), its index in the low 16 bits, and the keys sorted as plain
    /// integers; names tied on those 6 bytes are keyed again by the 6 after what
    /// they share, and so on (`sortRun`). Sorting by the first 8 bytes with a
    /// comparison closure, the bytes compared on every tie (a camera's names tie on
    /// all 8), was a quarter of the plans' time in a cold start; ties compared by
    /// their bytes in a closure were a third of this order's instructions.
    static func nameOrder(count: Int, name: (Int) -> UnsafeBufferPointer<UInt8>) -> [Int] {
        guard count > 1 else { return Array(0..<count) }
        guard count <= 1 << 16 else {
            return (0..<count).sorted { ByteString.order(name($0), name($1)) < 0 }
        }
        var order = Array(0..<count)
        var keys = [UInt64](repeating: 0, count: count)
        // Through buffers: checked subscripts and uniqueness checks on every key
        // and index were a third of the order's instructions.
        order.withUnsafeMutableBufferPointer { order in
            keys.withUnsafeMutableBufferPointer { keys in
                sortRun(order, 0..<count, from: sharedLength(order, from: 0, name: name), keys: keys, name: name)
            }
        }
        return order
    }

    /// Puts `order[run]`, names that share their first `offset` bytes, in order by
    /// their bytes from there.
    private static func sortRun(_ order: UnsafeMutableBufferPointer<Int>, _ run: Range<Int>, from offset: Int,
                                keys: UnsafeMutableBufferPointer<UInt64>, name: (Int) -> UnsafeBufferPointer<UInt8>) {
        for p in run { keys[p] = key(name(order[p]), at: offset) << 16 | UInt64(order[p]) }
        sort(UnsafeMutableBufferPointer(rebasing: keys[run]))
        for p in run { order[p] = Int(keys[p] & 0xFFFF) }
        var start = run.lowerBound
        while start < run.upperBound {
            var end = start + 1
            while end < run.upperBound && keys[end] >> 16 == keys[start] >> 16 { end += 1 }
            // Tied on these 6 bytes. Names that all end within them are the same
            // name (only a caller's list may repeat one), left in index order.
            if end - start > 1, order[start..<end].contains(where: { name($0).count > offset + 6 }) {
                let tied = UnsafeMutableBufferPointer(rebasing: order[start..<end])
                sortRun(order, start..<end, from: sharedLength(tied, from: offset + 6, name: name), keys: keys, name: name)
            }
            start = end
        }
    }

    /// Sorts distinct keys (each ends in its own index): by insertion where they are
    /// few (a folder's ties), else by quicksort down to such runs. The standard
    /// library's sort (stable, through its comparison closure) took ~110
    /// instructions a key of a folder's names.
    private static func sort(_ keys: UnsafeMutableBufferPointer<UInt64>) {
        var low = 0
        var high = keys.count
        // The larger part is looped over and the smaller recursed into: a depth of log n.
        while high - low > 16 {
            // The median of the first, middle and last as the pivot.
            let (a, b, c) = (keys[low], keys[(low + high) / 2], keys[high - 1])
            let pivot = max(min(a, b), min(max(a, b), c))
            var i = low
            var j = high - 1
            while i <= j {
                while keys[i] < pivot { i += 1 }
                while keys[j] > pivot { j -= 1 }
                if i <= j {
                    keys.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if j + 1 - low < high - i {
                sort(UnsafeMutableBufferPointer(rebasing: keys[low..<(j + 1)]))
                low = i
            } else {
                sort(UnsafeMutableBufferPointer(rebasing: keys[i..<high]))
                high = j + 1
            }
        }
        for i in (low + 1)..<max(high, low + 1) {
            let key = keys[i]
            var j = i
            while j > low && keys[j - 1] > key {
                keys[j] = keys[j - 1]
                j -= 1
            }
            keys[j] = key
        }
    }

    /// How many first bytes the names of `run` share, knowing they share `known`.
    private static func sharedLength(_ run: UnsafeMutableBufferPointer<Int>, from known: Int,
                                     name: (Int) -> UnsafeBufferPointer<UInt8>) -> Int {
        guard let firstIndex = run.first else { return known }
        let first = name(firstIndex)
        var shared = first.count
        for i in run.dropFirst() where shared > known {
            let bytes = name(i)
            var k = known
            let end = min(shared, bytes.count)
            while k < end && bytes[k] == first[k] { k += 1 }
            shared = k
        }
        return max(shared, known)
    }

    /// The 6 bytes of `bytes` from `offset` as a big-endian number, zeros past its end.
    private static func key(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt64 {
        if bytes.count - offset >= 8, let base = bytes.baseAddress {
            return UInt64(bigEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)) >> 16
        }
        var key: UInt64 = 0
        for k in offset..<offset + 6 { key = key << 8 | UInt64(k < bytes.count ? bytes[k] : 0) }
        return key
    }

    private init(settings: GroupSettings, leader: [Int32], role: [GroupRole], order: [Int32], byName: [Int32]?) {
        self.settings = settings
        self.leader = leader
        self.role = role
        self.order = order
        self.byName = byName
    }

    /// The plan of the same files taken in its order (file `p` of it is file
    /// `order[p]` of this one), whose `order` is theirs. The walker hands the index
    /// a new folder's files so, each name copied out of the listing in that order:
    /// adding the rows reads the files, and their names, in sequence (in the
    /// listing's order, each name read out of sequence on the index's thread was a
    /// cache miss under the lock).
    func inOrder() -> FolderGroupPlan {
        var position = [Int32](repeating: 0, count: count)
        for (p, i) in order.enumerated() { position[Int(i)] = Int32(p) }
        let leader = order.map { i in self.leader[Int(i)] < 0 ? -1 : position[Int(self.leader[Int(i)])] }
        return FolderGroupPlan(settings: settings, leader: leader, role: order.map { role[Int($0)] },
                               order: Array(0..<Int32(count)), byName: byName?.map { position[Int($0)] })
    }

    /// Whether the plan follows `settings` (as the index groups the root).
    func follows(_ settings: GroupSettings?) -> Bool {
        guard let settings, settings.enabled else { return false }
        return Self.overEveryType(settings) == self.settings
    }

    /// `settings` as a plan groups by them: every type (the scan kept only the root's
    /// photos and sidecars), so that a plan holds for any of the root's type filters.
    private static func overEveryType(_ settings: GroupSettings) -> GroupSettings {
        var settings = settings
        settings.types = .all
        return settings
    }
}
