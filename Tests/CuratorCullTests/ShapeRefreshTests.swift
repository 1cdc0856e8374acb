// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCull
import Testing

@Suite struct ShapeRefreshTests {
    @Test func aBurstOfEventsMakesOneListing() {
        var refresh = ShapeRefresh()
        #expect(!refresh.isDue(now: 0))
        refresh.schedule(now: 1_000)
        refresh.schedule(now: 2_000)  // a later event keeps the first due time
        #expect(refresh.due == 1_000 + ShapeRefresh.burst)
        #expect(!refresh.isDue(now: 1_000 + ShapeRefresh.burst - 1))
        #expect(refresh.isDue(now: 1_000 + ShapeRefresh.burst))
        refresh.schedule(soon: true, now: 3_000)  // one that cannot wait comes first
        #expect(refresh.due == 3_000)
        let sent = refresh.begin()
        #expect(sent)
        #expect(refresh.due == nil)
        #expect(refresh.inFlight)
    }

    @Test func aChangeWhileAListingIsOnItsWayListsOnceMoreAfterIt() {
        var refresh = ShapeRefresh()
        let first = refresh.begin()
        #expect(first)
        refresh.schedule(now: 10)
        let second = refresh.begin()
        #expect(!second)  // one at a time
        #expect(refresh.due == nil)
        refresh.finish(now: 500)
        #expect(!refresh.inFlight)
        #expect(refresh.due == 500)  // at once
        let third = refresh.begin()
        #expect(third)
        refresh.finish(now: 900)
        #expect(refresh.due == nil)  // nothing changed meanwhile: no more
    }

    @Test func pollSleepsUntilTheListingIsDue() {
        var refresh = ShapeRefresh()
        #expect(refresh.pollTimeout(now: 0) == nil)
        refresh.schedule(now: 0)
        #expect(refresh.pollTimeout(now: 0) == 41)
        #expect(refresh.pollTimeout(now: 39_500_000) == 1)
        #expect(refresh.pollTimeout(now: 50_000_000) == 0)
    }
}
