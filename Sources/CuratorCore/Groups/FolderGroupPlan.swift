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

    var count: Int { leader.count }

    /// The plan of the folder of `names` (the scan's files, in its order).
    init(names: [ByteString], settings: GroupSettings) {
        var settings = settings
        settings.types = .all
        self.settings = settings
        // The names one after another, read in place by the assignment.
        var bytes: [UInt8] = []
        var starts: [Int] = []
        starts.reserveCapacity(names.count + 1)
        for name in names {
            starts.append(bytes.count)
            bytes.append(contentsOf: name.bytes)
        }
        starts.append(bytes.count)
        let assignment = bytes.withUnsafeBufferPointer { all in
            GroupAssignment(count: names.count, settings: settings) { i in
                UnsafeBufferPointer(rebasing: all[starts[i]..<starts[i + 1]])
            }
        }
        var leader = [Int32](repeating: -1, count: names.count)
        var role = [GroupRole](repeating: .undecided, count: names.count)
        for i in names.indices {
            let g = assignment.group[i]
            role[i] = assignment.role[i]
            if g >= 0, assignment.shown[Int(g)] != Int32(i) { leader[i] = assignment.shown[Int(g)] }
        }
        self.leader = leader
        self.role = role
        let sidecar = names.indices.map { assignment.types[$0].isSidecar }
        order = bytes.withUnsafeBufferPointer { all in
            Self.order(leader: leader, sidecar: sidecar) { i in UnsafeBufferPointer(rebasing: all[starts[i]..<starts[i + 1]]) }
        }
    }

    /// Name order (`ByteString`'s: bytes, then length), each photo that bears
    /// another's id right after that one, the sidecars after all the photos.
    private static func order(leader: [Int32], sidecar: [Bool], name: (Int) -> UnsafeBufferPointer<UInt8>) -> [Int32] {
        // By the names' first 8 bytes as one big-endian word (zeros past the end:
        // a name holds no NUL), the names compared only where those are equal: a
        // closure reading each name for every comparison was ~10 ms of a cold
        // start of 100 000 photos.
        var keyed: [(prefix: UInt64, index: Int32)] = leader.indices.map { i in
            var prefix: UInt64 = 0
            let bytes = name(i)
            for k in 0..<8 { prefix = prefix << 8 | UInt64(k < bytes.count ? bytes[k] : 0) }
            return (prefix, Int32(i))
        }
        keyed.sort { a, b in
            a.prefix != b.prefix ? a.prefix < b.prefix : ByteString.order(name(Int(a.index)), name(Int(b.index))) < 0
        }
        let byName = keyed.map { Int($0.index) }
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

    private init(settings: GroupSettings, leader: [Int32], role: [GroupRole], order: [Int32]) {
        self.settings = settings
        self.leader = leader
        self.role = role
        self.order = order
    }

    /// `items` (the folder's files, as the plan was made of their names) put in
    /// the plan's order, and the plan of them in that order, whose `order` is
    /// theirs. The walker hands the index its files so: adding the rows reads
    /// them in sequence, while the walker still has them in its cache (read out
    /// of sequence on the index's thread, each file's name was a cache miss).
    func reordering<Item>(_ items: [Item]) -> (items: [Item], plan: FolderGroupPlan) {
        guard items.count == count else { return (items, self) }  // not the files it was made of: left as they are
        var position = [Int32](repeating: 0, count: count)
        for (p, i) in order.enumerated() { position[Int(i)] = Int32(p) }
        let leader = order.map { i in self.leader[Int(i)] < 0 ? -1 : position[Int(self.leader[Int(i)])] }
        let plan = FolderGroupPlan(settings: settings, leader: leader, role: order.map { role[Int($0)] },
                                   order: Array(0..<Int32(count)))
        return (order.map { items[Int($0)] }, plan)
    }

    /// Whether the plan follows `settings` (as the index groups the root).
    func follows(_ settings: GroupSettings?) -> Bool {
        guard var settings, settings.enabled else { return false }
        settings.types = .all
        return settings == self.settings
    }
}
