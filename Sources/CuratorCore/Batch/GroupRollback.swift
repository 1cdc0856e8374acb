// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorStore
import CuratorSystem

/// A group (issue 15) is trashed whole or left whole. A batch that went only part
/// of the way through a group (a file failed its last check or its move, or a
/// crash came between two of the group's moves) puts the files of the group that
/// reached the trash back where they were, as an undo does: `restoring` journaled
/// first, so that a crash during the put-back is recovered by the same rules, and
/// the group looked at again. Each is then recorded as left, saying why.
struct GroupRollback {
    let journal: Journal
    let batch: Int64
    let restorer: PhotoRestorer

    /// The groups with files in the trash and files in place: what `rollBack` mends.
    /// A file `gone` (trashed, then purged by another tool) counts for neither.
    static func split(_ items: [JournalItem]) -> Set<Int64> {
        var inTrash = Set<Int64>()
        var inPlace = Set<Int64>()
        for item in items {
            guard let unit = item.unit else { continue }
            switch item.state {
            case .trashed: inTrash.insert(unit)
            case .skipped, .restored, .planned: inPlace.insert(unit)
            case .intent, .restoring, .gone, .emptying: break
            }
        }
        return inTrash.intersection(inPlace)
    }

    /// Why a split group is left: its first file in place's outcome and detail.
    static func reasons(_ items: [JournalItem], _ units: Set<Int64>) -> [Int64: (outcome: PhotoOutcome, detail: String)] {
        var found: [Int64: (PhotoOutcome, String)] = [:]
        for item in items {
            guard let unit = item.unit, units.contains(unit), found[unit] == nil,
                  [.skipped, .restored, .planned].contains(item.state) else { continue }
            let what = item.detail.map { "\(item.outcome.rawValue): \($0)" } ?? item.outcome.rawValue
            let outcome = item.outcome == .restored ? PhotoOutcome.pending : item.outcome
            found[unit] = (outcome, "put back with its group: \(item.relativePath.lastComponent.lossyString) is \(what)")
        }
        return found
    }

    /// Puts back the trashed files of every split group in `items` and records them
    /// left; `items` is updated to what the journal now holds. Returns the files
    /// back at their paths (to be indexed again).
    func rollBack(_ items: inout [JournalItem]) throws(BatchError) -> [RestoredPhoto] {
        let units = Self.split(items)
        guard !units.isEmpty else { return [] }
        let why = Self.reasons(items, units)
        // Backwards, as an undo goes: a group's shown file (trashed last) comes back first.
        let indices = items.indices.filter { items[$0].unit.map(units.contains) == true && items[$0].state == .trashed }.reversed()
            .map { $0 }
        log.notice("batch \(batch): \(units.count) groups went to the trash only in part; putting back \(indices.count) files")
        let staged = try restorer.stage(chunk: indices.map { items[$0] })
        var restored: [RestoredPhoto] = []
        for (index, (item, photo)) in zip(indices, try restorer.finish(staged)) {
            items[index] = item
            if let photo { restored.append(photo) }
            guard item.state == .restored, let unit = item.unit, let reason = why[unit] else { continue }
            do {
                try journal.recordPutBack(batch: batch, step: item.step, outcome: reason.outcome, detail: reason.detail)
            } catch {
                throw BatchError.journal(error)
            }
            items[index].state = .skipped
            items[index].outcome = reason.outcome
            items[index].detail = reason.detail
            items[index].moved = false
        }
        return restored
    }
}
