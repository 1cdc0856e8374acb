// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// A listed group's place in the duplicate sets, as a listing of duplicates shows it.
struct DuplicateMark: Sendable, Hashable {
    var set: Int64
    var keeper: Bool
}

/// The protocol's side of the duplicate sets: a view of them, their marks in a
/// listing, and "all but the keeper of each set" for `select`.
extension CuratorState {
    /// `view` less the groups in no duplicate set of `uid`'s; its folders' totals
    /// and its files counted again.
    func onlyDuplicates(_ view: ResolvedView, uid: UInt32) -> ResolvedView {
        let marks = duplicateMarks(uid: uid)
        let table = library.photos
        var result = ResolvedView(slots: [])
        for slot in view.slots {
            let row = table.rows[Int(slot)]
            let group = table.groupID(of: row)
            guard marks[group] != nil else { continue }
            result.slots.append(slot)
            result.folderTotals[row.folderID, default: 0] += 1
            result.files += max(1, library.rows(ofGroup: group).count)
        }
        return result
    }

    /// What `select` with `duplicates: "rest"` takes of the session's view: every
    /// copy but the keeper of each set (`DuplicateRest`), none protected, none
    /// outside the view, and no set whose keeper is selected already.
    func duplicateRest(view: ViewSpec, selection: OrderedSelection, uid: UInt32) throws(ProtocolError) -> DuplicateRestChoice {
        let inView = Set(try resolve(view, uid: uid))
        let sets = duplicateSets(uid: uid)
        return DuplicateRest.choose(
            sets,
            isProtected: { unit in unit.files.contains { file in library.photo(file.photoID).map(isProtected) ?? true } },
            inView: { inView.contains($0.groupID) },
            isSelected: { selection.contains($0.groupID) })
    }
}

extension DuplicateRest {
    /// The answer's account of a choice.
    static func outcome(_ choice: DuplicateRestChoice) -> DuplicatesOutcome {
        let alone = choice.leftAlone
        return DuplicatesOutcome(
            sets: choice.setsChosen,
            leftAlone: alone.isEmpty ? nil : DuplicatesOutcome.LeftAlone(protected: alone[.protected], keeperSelected: alone[.keeperSelected],
                                                                          outsideView: alone[.outsideView]))
    }
}
