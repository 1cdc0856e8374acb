// SPDX-License-Identifier: GPL-2.0-or-later

/// Each measured photo's `StackLook`, and the stacks last found for each user with
/// what they were found from (`KeptSets`).
struct StackLookTable {
    private var looks: [Int64: StackLook]
    /// Counts every change of a measure.
    private(set) var version: UInt64 = 0
    /// By user: the stacks they see, while their basis holds.
    var found = KeptSets<FoundStacks>()

    init(looks: [Int64: StackLook] = [:]) {
        self.looks = looks
    }

    subscript(id: Int64) -> StackLook? { looks[id] }

    mutating func set(_ look: StackLook, of id: Int64) {
        looks[id] = look
        version &+= 1
    }

    mutating func remove(_ id: Int64) {
        guard looks.removeValue(forKey: id) != nil else { return }
        version &+= 1
    }

    /// Every photo with measures.
    var ids: Dictionary<Int64, StackLook>.Keys { looks.keys }
}

/// One user's stacks, and each of their groups' place in them, as a listing shows it.
struct FoundStacks: FoundSets {
    /// What the stacks were found from: the listed photos, the user's rights, the
    /// measures, the marks (the keeper is the highest rated), the roots online.
    struct Basis: Equatable {
        var library: UInt64
        var access: UInt64
        var looks: UInt64
        var marks: UInt64
        var roots: [Int32]
        var online: [Bool]
    }

    var basis: Basis
    var stacks: [Stack]
    var marks: [Int64: StackMark]

    init(basis: Basis, stacks: [Stack]) {
        self.basis = basis
        self.stacks = stacks
        var marks: [Int64: StackMark] = [:]
        for stack in stacks {
            for (index, member) in stack.members.enumerated() {
                marks[member.groupID] = StackMark(stack: stack.id, count: stack.members.count, keeper: index == 0,
                                                  reason: stack.keeperReason)
            }
        }
        self.marks = marks
    }
}
