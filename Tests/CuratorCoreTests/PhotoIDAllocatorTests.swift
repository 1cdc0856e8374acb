// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import Testing

/// Photo ids alone: handed out in order, the store's reservation moved a block
/// ahead before an id past it goes out, and a rolled-back state taken again.
struct PhotoIDAllocatorTests {
    struct StoreFailed: Error {}

    @Test func reservesABlockAheadBeforeHandingOutPastIt() {
        var ids = PhotoIDAllocator(next: 10)
        var reservations: [Int64] = []
        let taken = (0..<PhotoIDAllocator.block + 1).map { _ in ids.take { reservations.append($0) } }
        #expect(taken == Array(10...(10 + PhotoIDAllocator.block)))
        #expect(reservations == [10 + PhotoIDAllocator.block, 10 + 2 * PhotoIDAllocator.block], "one write per block")
        #expect(ids.handedOut(10) && ids.handedOut(10 + PhotoIDAllocator.block) && !ids.handedOut(ids.next))
    }

    @Test func aFailedReservationHandsOutNothing() {
        var ids = PhotoIDAllocator(next: 1)
        let (next, reserved) = (ids.next, ids.reserved)
        #expect(throws: StoreFailed.self) { try ids.take { _ in throw StoreFailed() } }
        #expect(ids.next == next, "no id went out")
        ids.restore(next: next, reserved: reserved)  // as the transaction's rollback does
        #expect(ids.take { _ in } == 1)
        #expect(ids.reserved == 1 + PhotoIDAllocator.block)
    }

    @Test func restoreTakesBackIdsOfARolledBackTransaction() {
        var ids = PhotoIDAllocator(next: 100)
        _ = ids.take { _ in }
        let (next, reserved) = (ids.next, ids.reserved)
        for _ in 0..<5 { _ = ids.take { _ in } }
        ids.restore(next: next, reserved: reserved)
        #expect(ids.take { _ in Issue.record("reserved already") } == 101, "the ids it handed out go out again")
    }
}
