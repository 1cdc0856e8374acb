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
    /// The files in the order their rows are added: each group's shown photo
    /// before the others, so that they find its id. The files that bear their
    /// own id first, in the listing's order, then the others, in it.
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
        var first: [Int32] = []
        var then: [Int32] = []
        first.reserveCapacity(names.count)
        for i in names.indices {
            let g = assignment.group[i]
            role[i] = assignment.role[i]
            if g >= 0, assignment.shown[Int(g)] != Int32(i) {
                leader[i] = assignment.shown[Int(g)]
                then.append(Int32(i))
            } else {
                first.append(Int32(i))
            }
        }
        self.leader = leader
        self.role = role
        self.order = first + then
    }

    /// Whether the plan follows `settings` (as the index groups the root).
    func follows(_ settings: GroupSettings?) -> Bool {
        guard var settings, settings.enabled else { return false }
        settings.types = .all
        return settings == self.settings
    }
}
