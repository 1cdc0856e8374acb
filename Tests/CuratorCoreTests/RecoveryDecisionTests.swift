// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import Testing

/// The pure decision: journal record + observed disk facts → repairs and the truth.
@Suite("Recovery: decisions for every disk state")
struct RecoveryDecisionTests {
    typealias Case = (state: JournalItemState, original: Presence, trash: Presence, info: InfoPresence,
                      repairs: [RecoveryRepair], result: JournalItemState, outcome: PhotoOutcome)

    static let table: [Case] = [
        // Planned: nothing was done to it yet; only its place is reported.
        (.planned, .same, .absent, .absent, [], .skipped, .pending),
        (.planned, .absent, .absent, .absent, [], .skipped, .vanished),
        (.planned, .other, .absent, .absent, [], .skipped, .changed),
        // Intent, the rename happened: finish it.
        (.intent, .absent, .same, .matching, [], .trashed, .trashed),
        (.intent, .absent, .same, .absent, [.writeInfo], .trashed, .trashed),
        (.intent, .absent, .same, .unreadable, [.replaceInfo], .trashed, .trashed),
        (.intent, .other, .same, .foreign, [.replaceInfo], .trashed, .trashed),
        (.intent, .same, .same, .matching, [.unlinkOriginal], .trashed, .trashed),
        (.intent, .same, .same, .absent, [.unlinkOriginal, .writeInfo], .trashed, .trashed),
        // Intent, the rename did not happen: the photo is where it was; our info goes.
        (.intent, .same, .absent, .matching, [.removeInfo], .skipped, .pending),
        (.intent, .same, .absent, .unreadable, [.removeInfo], .skipped, .pending),
        (.intent, .same, .absent, .absent, [], .skipped, .pending),
        (.intent, .same, .absent, .foreign, [], .skipped, .pending),
        (.intent, .same, .other, .matching, [], .skipped, .pending),
        // Intent, the photo is nowhere we know of.
        (.intent, .absent, .absent, .absent, [], .skipped, .missing),
        (.intent, .absent, .absent, .matching, [.removeInfo], .skipped, .missing),
        (.intent, .other, .absent, .unreadable, [.removeInfo], .skipped, .missing),
        (.intent, .other, .other, .foreign, [], .skipped, .missing),
        // Trashed (the batch was running): check, and repair the info.
        (.trashed, .absent, .same, .matching, [], .trashed, .trashed),
        (.trashed, .absent, .same, .absent, [.writeInfo], .trashed, .trashed),
        (.trashed, .same, .same, .matching, [], .trashed, .trashed),
        (.trashed, .same, .absent, .absent, [], .gone, .missing),
        (.trashed, .absent, .absent, .matching, [.removeInfo], .gone, .missing),
        (.trashed, .absent, .other, .foreign, [], .gone, .missing),
        // Restoring: back at its path, or still in the trash, or gone.
        (.restoring, .same, .absent, .matching, [.removeInfo], .restored, .restored),
        (.restoring, .same, .absent, .absent, [], .restored, .restored),
        (.restoring, .same, .same, .matching, [.unlinkTrashFile, .removeInfo], .restored, .restored),
        (.restoring, .same, .same, .absent, [.unlinkTrashFile], .restored, .restored),
        (.restoring, .absent, .same, .matching, [], .trashed, .trashed),
        (.restoring, .other, .same, .absent, [.writeInfo], .trashed, .trashed),
        (.restoring, .other, .same, .unreadable, [.replaceInfo], .trashed, .trashed),
        (.restoring, .absent, .absent, .matching, [.removeInfo], .gone, .missing),
        (.restoring, .other, .other, .foreign, [], .gone, .missing),
        // Power cuts inside a chunk, before its sync: any prefix of its unsynced steps,
        // or on a file system that reorders metadata, any subset, may have survived.
        // A .trashinfo created but never synced may come back empty.
        (.intent, .same, .absent, .unreadable, [.removeInfo], .skipped, .pending),
        (.intent, .absent, .same, .unreadable, [.replaceInfo], .trashed, .trashed),
        // The rename kept, its .trashinfo lost entirely.
        (.intent, .absent, .same, .absent, [.writeInfo], .trashed, .trashed),
        // An undo's .trashinfo removal kept, its rename back lost: still in the trash.
        (.restoring, .absent, .same, .absent, [.writeInfo], .trashed, .trashed),
        // The rename back kept, the removal lost.
        (.restoring, .same, .absent, .matching, [.removeInfo], .restored, .restored),
        // A chunk journaled trashed is synced; should its info still read empty, it is rewritten.
        (.trashed, .absent, .same, .unreadable, [.replaceInfo], .trashed, .trashed),
        // Emptying (trash.empty): whatever is left of the photo in the trash goes, file first.
        (.emptying, .absent, .same, .matching, [.unlinkTrashFile, .removeInfo], .gone, .emptied),
        (.emptying, .absent, .same, .absent, [.unlinkTrashFile], .gone, .emptied),
        (.emptying, .absent, .absent, .matching, [.removeInfo], .gone, .emptied),
        (.emptying, .absent, .absent, .absent, [], .gone, .emptied),
        (.emptying, .absent, .other, .foreign, [], .gone, .emptied),
        // Put back at its path by another tool meanwhile: left there.
        (.emptying, .same, .absent, .absent, [], .gone, .missing),
    ]

    @Test(arguments: Self.table.indices)
    func decides(_ index: Int) throws {
        let c = Self.table[index]
        let decision = try #require(RecoveryDecision.decide(c.state, DiskFacts(original: c.original, trashFile: c.trash, info: c.info)))
        #expect(decision.repairs == c.repairs, "\(c)")
        #expect(decision.state == c.result, "\(c)")
        #expect(decision.outcome == c.outcome, "\(c)")
    }

    static var allFacts: [DiskFacts] {
        Presence.allCases.flatMap { o in
            Presence.allCases.flatMap { f in InfoPresence.allCases.map { DiskFacts(original: o, trashFile: f, info: $0) } }
        }
    }

    /// Emptying never touches the original path, leaves nothing of ours in the trash,
    /// and settles.
    @Test func emptyingSettlesAndLeavesNothingOfOursInTheTrash() throws {
        for facts in Self.allFacts {
            let d = try #require(RecoveryDecision.decide(.emptying, facts))
            let info = "\(facts) → \(d)"
            #expect(d.state == .gone, "\(info)")
            #expect(!d.repairs.contains(.unlinkOriginal) && !d.repairs.contains(.writeInfo) && !d.repairs.contains(.replaceInfo), "\(info)")
            #expect((facts.trashFile == .same) == d.repairs.contains(.unlinkTrashFile), "\(info)")
            if facts.info == .matching || facts.info == .unreadable {
                #expect(d.repairs.contains(.removeInfo) || facts.trashFile == .other, "\(info)")
            }
        }
    }

    @Test func settledStatesNeedNothing() {
        for state in [JournalItemState.skipped, .restored, .gone] {
            for facts in Self.allFacts { #expect(RecoveryDecision.decide(state, facts) == nil) }
        }
    }

    /// The invariants of a crash, over every state and every combination of facts.
    @Test(arguments: [JournalItemState.planned, .intent, .trashed, .restoring])
    func everyDecisionLeavesTheInvariants(_ state: JournalItemState) throws {
        for facts in Self.allFacts {
            let d = try #require(RecoveryDecision.decide(state, facts))
            let info = "\(state) \(facts) → \(d)"
            #expect(![.planned, .intent, .restoring].contains(d.state), "settled: \(info)")
            if d.state == .trashed {
                #expect(facts.trashFile == .same, "in the trash only if it is there: \(info)")
                #expect(facts.info == .matching || d.repairs.contains(.writeInfo) || d.repairs.contains(.replaceInfo),
                        "a trashed photo has its .trashinfo: \(info)")
                #expect(!d.repairs.contains(.removeInfo) && d.moved, "\(info)")
            }
            if d.outcome == .pending || d.state == .restored {
                #expect(facts.original == .same, "reported at its path only if it is: \(info)")
            }
            if d.repairs.contains(.unlinkOriginal) || d.repairs.contains(.unlinkTrashFile) {
                #expect(facts.original == .same && facts.trashFile == .same, "a name is dropped only when the photo has two: \(info)")
            }
            if state != .planned, facts.trashFile == .absent, facts.info == .matching || facts.info == .unreadable {
                #expect(d.repairs.contains(.removeInfo), "no .trashinfo of ours without its file: \(info)")
            }
            if facts.trashFile != .same {
                #expect(!d.repairs.contains(.writeInfo) && !d.repairs.contains(.replaceInfo), "no info for a file not there: \(info)")
            }
            if state == .planned { #expect(d.repairs.isEmpty, "an untouched photo needs no repair: \(info)") }
        }
    }
}
