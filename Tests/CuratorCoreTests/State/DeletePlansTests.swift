// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import Testing

/// Delete plans waiting for confirmation: bounded per user, cancelled by session
/// or token, expiring.
@Suite struct DeletePlansTests {
    static func plan(_ token: String, uid: UInt32 = 1000, session: String = "default", expiresAt: UInt64) -> DeletePlan {
        DeletePlan(token: token, key: SessionKey(uid: uid, name: session), generation: nil, expiresAt: expiresAt, items: [])
    }

    @Test func aUsersWaitingPlansAreBoundedOldestFirst() {
        var plans = DeletePlans()
        plans.add(Self.plan("theirs", uid: 1001, expiresAt: 1))
        for i in 0..<(DeletePlans.maxPerUser + 2) { plans.add(Self.plan("p\(i)", expiresAt: UInt64(100 + i))) }
        #expect(plans.count == DeletePlans.maxPerUser + 1)
        #expect(plans["p0"] == nil && plans["p1"] == nil)
        #expect(plans["p2"] != nil)
        #expect(plans["theirs"] != nil, "another user's plan is not this user's to push out")
    }

    @Test func cancellingTakesTheSessionsPlansOrOneToken() {
        var plans = DeletePlans()
        plans.add(Self.plan("a1", session: "a", expiresAt: 10))
        plans.add(Self.plan("a2", session: "a", expiresAt: 11))
        plans.add(Self.plan("b1", session: "b", expiresAt: 12))
        plans.add(Self.plan("other", uid: 1001, session: "a", expiresAt: 13))
        #expect(plans.sessionsWaiting == [SessionKey(uid: 1000, name: "a"), SessionKey(uid: 1000, name: "b"),
                                          SessionKey(uid: 1001, name: "a")])
        #expect(plans.cancel(token: "other", uid: 1000) == false, "another user's token is not this user's to cancel")
        #expect(plans.cancel(token: "nope", uid: 1000) == false)
        #expect(plans.cancel(token: "a2", uid: 1000) == true)
        #expect(plans.cancel(token: "a2", uid: 1000) == false, "a token is cancelled once")
        #expect(plans.cancel(session: SessionKey(uid: 1000, name: "a")) == 1)
        #expect(plans.count == 2)
        #expect(plans.cancel(token: "b1", uid: 1000) == true, "a token names its plan whatever its session")
        #expect(plans["b1"] == nil)
        #expect(plans.remove("b1") == nil)
        #expect(plans["other"] != nil)
    }

    @Test func expiredPlansAreDropped() {
        var plans = DeletePlans()
        plans.add(Self.plan("soon", expiresAt: 100))
        plans.add(Self.plan("later", expiresAt: 300))
        plans.dropExpired(now: 100)
        #expect(plans.count == 2, "a plan expires after its time, not at it")
        plans.dropExpired(now: 200)
        #expect(plans["soon"] == nil)
        #expect(plans["later"] != nil)
    }
}
