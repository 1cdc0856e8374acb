// SPDX-License-Identifier: GPL-2.0-or-later

/// Why `select` of the duplicates left a set of the view alone (nothing of it selected).
enum LeftAloneReason: String, Sendable, Hashable, CaseIterable {
    /// Every other copy has a file in a protected folder.
    case protected
    /// The keeper is selected already: selecting the others would select every copy.
    case keeperSelected = "keeper_selected"
    /// Every other copy has a file outside the view.
    case outsideView = "outside_view"
}

/// What "all but the keeper of each set" selects in a view.
struct DuplicateRestChoice: Equatable, Sendable {
    /// The group ids to select, set by set, each set's copies in keeper order.
    var groupIDs: [Int64] = []
    /// The sets of which something is selected.
    var setsChosen = 0
    var leftAlone: [LeftAloneReason: Int] = [:]
}

/// Chooses the copies to select. Pure: the caller says what is protected, in the
/// view and selected. A copy is taken whole or not at all: trashing one hard link
/// of a file frees nothing, so a copy with one file that may not be selected
/// (protected, outside the view) is left with all its files. The keeper is never
/// taken, so a set never loses its last copy; sets with nothing in the view are
/// not the view's and are not counted.
enum DuplicateRest {
    static func choose(_ sets: [DuplicateSet], isProtected: (DuplicateUnit) -> Bool,
                       inView: (DuplicateUnit) -> Bool, isSelected: (DuplicateUnit) -> Bool) -> DuplicateRestChoice {
        var choice = DuplicateRestChoice()
        for set in sets {
            guard set.copies.contains(where: { $0.units.contains(where: inView) }) else { continue }
            if set.keeper.units.contains(where: isSelected) {
                choice.leftAlone[.keeperSelected, default: 0] += 1
                continue
            }
            var taken: [Int64] = []
            var sawProtected = false
            for copy in set.others {
                if copy.units.contains(where: isProtected) {
                    sawProtected = true
                } else if copy.units.allSatisfy(inView) {
                    taken += copy.units.map(\.groupID)
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
