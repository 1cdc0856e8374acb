// SPDX-License-Identifier: GPL-2.0-or-later

/// Chooses the frames to select of each stack: every one but the keeper, none
/// protected, none outside the view, and nothing of a stack whose keeper is
/// selected already, so that a stack never loses its every frame. Pure, as
/// `DuplicateRest`, whose choice and reasons it gives.
enum StackRest {
    static func choose(_ stacks: [Stack], isProtected: (Int64) -> Bool, inView: (Int64) -> Bool,
                       isSelected: (Int64) -> Bool) -> DuplicateRestChoice {
        var choice = DuplicateRestChoice()
        for stack in stacks {
            guard stack.members.contains(where: { inView($0.groupID) }) else { continue }
            if isSelected(stack.keeper.groupID) {
                choice.leftAlone[.keeperSelected, default: 0] += 1
                continue
            }
            var taken: [Int64] = []
            var sawProtected = false
            for member in stack.others {
                if isProtected(member.groupID) {
                    sawProtected = true
                } else if inView(member.groupID) {
                    taken.append(member.groupID)
                }
            }
            if taken.isEmpty {
                choice.leftAlone[sawProtected ? .protected : .outsideView, default: 0] += 1
            } else {
                choice.setsChosen += 1
                choice.groupIDs += taken
            }
        }
        return choice
    }
}
