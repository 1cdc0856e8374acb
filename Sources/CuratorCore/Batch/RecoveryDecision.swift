// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// Whether a file with the photo's device and inode is at a place.
enum Presence: Hashable, Sendable, CaseIterable {
    case absent
    /// The photo itself (same device and inode).
    case same
    /// Something else.
    case other
}

/// The `.trashinfo` under the name the journal recorded.
enum InfoPresence: Hashable, Sendable, CaseIterable {
    case absent
    /// Its Path is the one the journal recorded.
    case matching
    /// Empty or garbled (a half-written file of ours: the O_EXCL fallback).
    case unreadable
    /// Names another path.
    case foreign
}

/// What recovery observed about one photo.
struct DiskFacts: Hashable, Sendable {
    /// At its original path.
    var original: Presence
    /// At `files/<name>` in the recorded trash.
    var trashFile: Presence
    var info: InfoPresence
}

enum RecoveryRepair: Hashable, Sendable {
    case removeInfo
    case writeInfo
    /// Remove the info there and write ours.
    case replaceInfo
    /// The photo has two names (a link-based move stopped half-way): drop the original one.
    case unlinkOriginal
    /// Same, for an undo: drop the name in the trash.
    case unlinkTrashFile
}

/// What to do about one photo after a crash, decided from the journal's last record
/// and the disk alone: a pure function, so that every case is unit-tested.
/// After the repairs, every photo is at its original path or in the trash with a
/// matching `.trashinfo`, and no `.trashinfo` of ours is left without its file.
struct RecoveryDecision: Hashable, Sendable {
    var repairs: [RecoveryRepair]
    var state: JournalItemState
    var outcome: PhotoOutcome
    var detail: String?
    /// True when the photo ended up in the trash by this batch.
    var moved: Bool = false

    /// nil for states that need nothing (skipped, restored, gone).
    static func decide(_ state: JournalItemState, _ facts: DiskFacts) -> RecoveryDecision? {
        switch state {
        case .planned: planned(facts)
        case .intent: intent(facts)
        case .trashed: trashed(facts)
        case .restoring: restoring(facts)
        case .emptying: emptying(facts)
        case .skipped, .restored, .gone: nil
        }
    }

    /// Info repairs for a photo that is in the trash.
    private static func ensureInfo(_ info: InfoPresence) -> [RecoveryRepair] {
        switch info {
        case .absent: [.writeInfo]
        case .unreadable, .foreign: [.replaceInfo]
        case .matching: []
        }
    }

    /// A `.trashinfo` of ours whose file is not in the trash is removed; one whose
    /// name is held by another file in `files/` is not ours to touch.
    private static func dropOrphanInfo(_ facts: DiskFacts) -> [RecoveryRepair] {
        facts.trashFile == .absent && (facts.info == .matching || facts.info == .unreadable) ? [.removeInfo] : []
    }

    private static func planned(_ facts: DiskFacts) -> RecoveryDecision {
        // Nothing was done to it: the journal records an intent before any step.
        switch facts.original {
        case .same: RecoveryDecision(repairs: [], state: .skipped, outcome: .pending, detail: "not attempted: the batch was interrupted")
        case .absent: RecoveryDecision(repairs: [], state: .skipped, outcome: .vanished, detail: "gone from its path (not moved by curatord)")
        case .other: RecoveryDecision(repairs: [], state: .skipped, outcome: .changed, detail: "replaced since the plan")
        }
    }

    private static func intent(_ facts: DiskFacts) -> RecoveryDecision {
        if facts.trashFile == .same {
            // The rename happened: finish what follows it.
            let unlink: [RecoveryRepair] = facts.original == .same ? [.unlinkOriginal] : []
            return RecoveryDecision(repairs: unlink + ensureInfo(facts.info), state: .trashed, outcome: .trashed,
                                    detail: nil, moved: true)
        }
        let repairs = dropOrphanInfo(facts)
        switch facts.original {
        case .same:
            return RecoveryDecision(repairs: repairs, state: .skipped, outcome: .pending,
                                    detail: "interrupted before the move: still at its path")
        case .absent:
            return RecoveryDecision(repairs: repairs, state: .skipped, outcome: .missing,
                                    detail: "neither at its path nor in the trash")
        case .other:
            return RecoveryDecision(repairs: repairs, state: .skipped, outcome: .missing,
                                    detail: "another file stands at its path and the photo is not in the trash")
        }
    }

    private static func trashed(_ facts: DiskFacts) -> RecoveryDecision {
        if facts.trashFile == .same {
            return RecoveryDecision(repairs: ensureInfo(facts.info), state: .trashed, outcome: .trashed, detail: nil, moved: true)
        }
        let repairs = dropOrphanInfo(facts)
        if facts.original == .same {
            return RecoveryDecision(repairs: repairs, state: .gone, outcome: .missing,
                                    detail: "already back at its path (restored by another tool)", moved: true)
        }
        return RecoveryDecision(repairs: repairs, state: .gone, outcome: .missing,
                                detail: "no longer in the trash (purged or restored elsewhere)", moved: true)
    }

    /// Emptying was committed; the file and then its info are deleted. Whatever of
    /// them is left goes; a photo someone put back at its path meanwhile stays there.
    private static func emptying(_ facts: DiskFacts) -> RecoveryDecision {
        if facts.trashFile == .same {
            let info: [RecoveryRepair] = facts.info == .absent || facts.info == .foreign ? [] : [.removeInfo]
            return RecoveryDecision(repairs: [.unlinkTrashFile] + info, state: .gone, outcome: .emptied, detail: nil, moved: true)
        }
        if facts.original == .same {
            return RecoveryDecision(repairs: dropOrphanInfo(facts), state: .gone, outcome: .missing,
                                    detail: "back at its path (restored by another tool), not emptied", moved: true)
        }
        return RecoveryDecision(repairs: dropOrphanInfo(facts), state: .gone, outcome: .emptied, detail: nil, moved: true)
    }

    private static func restoring(_ facts: DiskFacts) -> RecoveryDecision {
        switch (facts.original, facts.trashFile) {
        case (.same, .same):
            // Link-based restore stopped half-way: the photo is back; drop its trash name and info.
            let info: [RecoveryRepair] = facts.info == .absent ? [] : [.removeInfo]
            return RecoveryDecision(repairs: [.unlinkTrashFile] + info, state: .restored, outcome: .restored, detail: nil, moved: true)
        case (.same, _):
            return RecoveryDecision(repairs: dropOrphanInfo(facts), state: .restored, outcome: .restored, detail: nil, moved: true)
        case (_, .same):
            return RecoveryDecision(repairs: ensureInfo(facts.info), state: .trashed, outcome: .trashed,
                                    detail: "undo was interrupted before the move: still in the trash", moved: true)
        default:
            return RecoveryDecision(repairs: dropOrphanInfo(facts), state: .gone, outcome: .missing,
                                    detail: "neither in the trash nor at its path", moved: true)
        }
    }
}
