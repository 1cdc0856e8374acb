// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import Testing

/// The stacks kept for each user: given back only while everything they were found
/// from holds, and the set-watch's pause growing with the time a look took.
@Suite struct StackLookTableTests {
    private let basis = FoundStacks.Basis(library: 7, access: 2, looks: 0, marks: 3, roots: [1, 2], online: [true, true])

    @Test func keptStacksAreGivenBackOnlyForTheirBasisAndUser() {
        var table = StackLookTable()
        table.found.keep(FoundStacks(basis: basis, stacks: []), uid: 1000)
        #expect(table.found.sets(uid: 1000, basis: basis) != nil)
        #expect(table.found.sets(uid: 1001, basis: basis) == nil)
        var changed = [basis, basis, basis, basis, basis]
        changed[0].library += 1
        changed[1].access += 1
        changed[2].marks += 1
        changed[3].online = [true, false]
        changed[4].roots = [2, 1]
        for other in changed { #expect(table.found.sets(uid: 1000, basis: other) == nil) }
    }

    @Test func aNewMeasureChangesTheLooksVersion() {
        var table = StackLookTable()
        let before = table.version
        table.set(StackLook(size: 10, mtimeNs: 20, dHash: 1, sharpness: 2, camera: 3), of: 5)
        #expect(table.version != before)
        #expect(table[5] != nil)
    }

    @Test func theNextLookWaitsTenTimesTheLastOrASecond() {
        var watch = SetWatch()
        watch.worked(since: 1_000, until: 2_000)
        #expect(watch.nextAt == 1_000 + SetWatch.intervalNanoseconds)
        watch.worked(since: 5_000_000_000, until: 5_300_000_000)
        #expect(watch.nextAt == 5_000_000_000 + 3_000_000_000)
    }
}
