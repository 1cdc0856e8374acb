// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import Testing

/// `delete.cancel` against a fake of the one thing it may touch (`PlanCancelScope`:
/// the waiting plans): a token names its plan whatever session the request names,
/// and only its owner's; without a token, the session's plans go.
@Suite struct DeleteCancelCommandTests {
    final class FakePlans: PlanCancelScope {
        var plans = DeletePlans()
    }

    static func plan(_ token: String, uid: UInt32 = 1000, session: String) -> DeletePlan {
        DeletePlan(token: token, key: SessionKey(uid: uid, name: session), generation: nil, expiresAt: .max, items: [])
    }

    static let me = Caller(uid: 1000, gid: 1000)

    static func code(_ body: () throws -> Void) -> ErrorCode? {
        do {
            try body()
            return nil
        } catch let error as ProtocolError {
            return error.code
        } catch {
            return .internalError
        }
    }

    @Test func aTokenCancelsOnlyItsOwnersPlan() throws {
        let fake = FakePlans()
        fake.plans.add(Self.plan("mine", session: "a"))
        fake.plans.add(Self.plan("theirs", uid: 1001, session: "a"))
        #expect(Self.code { _ = try DeleteCancelCommand.run(in: fake, DeleteCancelRequest(session: "a", token: "theirs"), caller: Self.me) }
                == .tokenInvalid)
        #expect(fake.plans["theirs"] != nil, "another user's plan is not the caller's to cancel")

        let cancelled = try DeleteCancelCommand.run(in: fake, DeleteCancelRequest(session: "b", token: "mine"), caller: Self.me)
        #expect(cancelled.cancelled == 1)
        #expect(fake.plans["mine"] == nil, "a token names its plan whatever session the request names")
        #expect(Self.code { _ = try DeleteCancelCommand.run(in: fake, DeleteCancelRequest(token: "mine"), caller: Self.me) } == .tokenInvalid,
                "a plan is cancelled once")
    }

    @Test func withoutATokenTheSessionsPlansGo() throws {
        let fake = FakePlans()
        fake.plans.add(Self.plan("a1", session: "a"))
        fake.plans.add(Self.plan("a2", session: "a"))
        fake.plans.add(Self.plan("b1", session: "b"))
        fake.plans.add(Self.plan("other", uid: 1001, session: "a"))
        let cancelled = try DeleteCancelCommand.run(in: fake, DeleteCancelRequest(session: "a"), caller: Self.me)
        #expect(cancelled.cancelled == 2)
        #expect(fake.plans["a1"] == nil && fake.plans["a2"] == nil)
        #expect(fake.plans["b1"] != nil && fake.plans["other"] != nil)
        #expect(Self.code { _ = try DeleteCancelCommand.run(in: fake, DeleteCancelRequest(session: "bad/name"), caller: Self.me) }
                == .invalidArgument)
    }
}
