// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Foundation
import Testing

/// What one user's sessions may hold (issue 11 item 3): the rules, then the state
/// that applies them over a real index file.
@Suite struct SessionLimitStateTests {
    static let me = ListingTests.me

    // MARK: the limit on a selection

    @Test func aLimitRefusesWholeBeyondItAndNeverRefusesRemoving() throws {
        let limit = SelectionLimit(most: 4, reason: .selection, configured: 4)
        var selection = OrderedSelection()
        try selection.select([1, 2, 3], limit: limit)
        #expect(throws: SelectionError.limitReached(limit, requested: 2, available: 1)) { try selection.select([4, 5], limit: limit) }
        #expect(selection.items == [1, 2, 3])
        try selection.select([4, 1], limit: limit)
        #expect(selection.count == 4)
        // A toggle that frees room may use it.
        try selection.toggle([1, 9], limit: limit)
        #expect(selection.items == [2, 3, 4, 9])
        // Lowered below what it holds: it may shrink, never grow.
        let lower = SelectionLimit(most: 2, reason: .selection, configured: 2)
        #expect(throws: SelectionError.self) { try selection.select([7], limit: lower) }
        selection.deselect([2])
        #expect(selection.count == 3)
        try selection.select([3, 4], limit: lower)  // already selected: nothing added
    }

    @Test func theTighterOfTheTwoLimitsBindsAndSaysWhichItIs() {
        #expect(SelectionLimit.tightest(maxSelection: 100, maxPerUser: 250, others: 100)
                == SelectionLimit(most: 100, reason: .selection, configured: 100))
        #expect(SelectionLimit.tightest(maxSelection: 100, maxPerUser: 250, others: 200)
                == SelectionLimit(most: 50, reason: .user, configured: 250))
        #expect(SelectionLimit.tightest(maxSelection: 100, maxPerUser: 250, others: 300).most == 0)
        let one = SelectionError.limitReached(SelectionLimit(most: 100, reason: .selection, configured: 100), requested: 30, available: 10)
        #expect(one.protocolError == ProtocolError(
            .selectionFull, "A selection may hold at most 100 photos (max_selection), and this would make 120. Only 10 more photos would fit."))
        let user = SelectionError.limitReached(SelectionLimit(most: 50, reason: .user, configured: 250), requested: 60, available: 0)
        #expect(user.protocolError.code == .selectionFull)
        #expect(user.message == "Your sessions together may hold at most 250 selected photos (max_selected_per_user), "
                + "and this would make 310; deselect some here or in your other sessions.")
    }

    @Test func theSessionStateAppliesTheLimitAfterTheCap() throws {
        let state = try SessionState().setMode(.select, cap: 3).state
        let limit = SelectionLimit(most: 2, reason: .user, configured: 10)
        #expect(throws: SelectionError.selectionFull(cap: 3, requested: 4, available: 3)) { try state.apply(.select([1, 2, 3, 4]), limit: limit) }
        #expect(throws: SelectionError.limitReached(limit, requested: 3, available: 2)) { try state.apply(.select([1, 2, 3]), limit: limit) }
        #expect(try state.apply(.select([1, 2]), limit: limit).state.selection.count == 2)
    }

    // MARK: the state

    /// Ten photos in `a`; `config` adjusted by `limits`.
    static func fixture(_ limits: (inout Configuration) -> Void = { _ in }) throws -> (ReconcileTests.Fixture, [Int64]) {
        let f = try ReconcileTests.Fixture()
        let names = (1...10).map { "\($0).jpg" }
        for name in names { try f.write("a/" + name) }
        try f.reconcile("a", names)
        limits(&f.state.config)
        return (f, try names.map { try #require(f.id("a/" + $0)) })
    }

    static func select(_ f: ReconcileTests.Fixture, _ ids: [Int64], in session: String) throws(ProtocolError) -> SessionResult {
        _ = try ModeCommand.run(in: f.state, ModeRequest(session: session, mode: .select), caller: Caller(uid: me.uid))
        return try SelectionVerb.select.run(in: f.state, SelectRequest(session: session, selector: PhotoSelector(ids: ids)), caller: Caller(uid: me.uid))
    }

    static func view(_ f: ReconcileTests.Fixture, _ session: String, sort: SortKey = .size) throws(ProtocolError) -> SessionResult {
        try ViewCommand.run(in: f.state, ViewRequest(session: session, view: ViewSpec(sort: sort)), caller: Caller(uid: me.uid))
    }

    static func names(_ f: ReconcileTests.Fixture) -> Set<String> { Set(f.state.sessions.all.keys.map(\.name)) }

    @Test func aUsersSelectionsTogetherStayWithinTheirBudget() throws {
        let (f, ids) = try Self.fixture {
            $0.maxSelection = 4
            $0.maxSelectedPerUser = 6
        }
        #expect(throws: ProtocolError.self) { try Self.select(f, Array(ids[0..<5]), in: "a") }
        #expect(try Self.select(f, Array(ids[0..<4]), in: "a").count == 4)
        do {
            _ = try Self.select(f, Array(ids[4..<7]), in: "b")
            Issue.record("three more pass the user's six")
        } catch {
            #expect(error.code == .selectionFull)
            #expect(error.message.contains("max_selected_per_user"))
        }
        #expect(try Self.select(f, Array(ids[4..<6]), in: "b").count == 2)
        #expect(throws: ProtocolError.self) { try Self.select(f, [ids[6]], in: "b") }
        // Room freed in one session is room in another.
        _ = try ClearCommand.run(in: f.state, ClearRequest(session: "a"), caller: Caller(uid: Self.me.uid))
        #expect(try Self.select(f, Array(ids[6..<8]), in: "b").count == 4)
        // Another user has a budget of their own.
        _ = try ModeCommand.run(in: f.state, ModeRequest(session: "a", mode: .select), caller: Caller(uid: 4242))
        let theirs = try SelectionVerb.select.run(in: f.state, SelectRequest(session: "a", selector: PhotoSelector(ids: Array(ids[0..<4]))), caller: Caller(uid: 4242))
        #expect(theirs.count == 4)
        // A cap above max_selection is refused.
        #expect(throws: ProtocolError.self) { try ModeCommand.run(in: f.state, ModeRequest(session: "c", mode: .select, cap: 5), caller: Caller(uid: Self.me.uid)) }
    }

    @Test func theLeastRecentlyUsedIdleSessionMakesRoomAndSelectionsAreNeverDropped() throws {
        let (f, ids) = try Self.fixture { $0.maxSessionsPerUser = 3 }
        _ = try Self.select(f, [ids[0]], in: "keep")
        _ = try Self.view(f, "idle-old")
        _ = try Self.view(f, "idle-new")
        // Reading a session is using it: idle-old is now the more recent.
        _ = try SelectionCommand.run(in: f.state, SelectionRequest(session: "idle-old"), caller: Caller(uid: Self.me.uid))
        let made = try Self.view(f, "fourth")
        #expect(made.evicted == "idle-new")
        #expect(Self.names(f) == ["keep", "idle-old", "fourth"])
        // A request that changes nothing makes no session.
        _ = try ViewCommand.run(in: f.state, ViewRequest(session: "nothing", view: ViewSpec()), caller: Caller(uid: Self.me.uid))
        #expect(Self.names(f).count == 3)

        // When every session holds a selection, a new one is refused and nothing is lost.
        _ = try Self.select(f, [ids[1]], in: "idle-old")
        _ = try Self.select(f, [ids[2]], in: "fourth")
        do {
            _ = try Self.view(f, "fifth")
            Issue.record("a fourth session of three holding selections")
        } catch {
            #expect(error.code == .tooManySessions)
            #expect(error.message.contains("fourth, idle-old, keep"))
        }
        #expect(Self.names(f) == ["keep", "idle-old", "fourth"])
        // A session waiting on a delete plan is not idle either.
        _ = try ModeCommand.run(in: f.state, ModeRequest(session: "fourth", mode: .view), caller: Caller(uid: Self.me.uid))
        _ = try DeletePrepareCommand.run(in: f.state, DeletePrepareRequest(session: "fourth", ids: [ids[3]]), caller: Caller(uid: Self.me.uid))
        #expect(throws: ProtocolError.self) { try Self.view(f, "fifth") }
        _ = try DeleteCancelCommand.run(in: f.state, DeleteCancelRequest(session: "fourth"), caller: Caller(uid: Self.me.uid))
        #expect(try Self.view(f, "fifth").evicted == "fourth")
        // Other users are not counted against this one.
        _ = try ViewCommand.run(in: f.state, ViewRequest(session: "x", view: ViewSpec(sort: .size)), caller: Caller(uid: 4242))
        #expect(f.state.sessions.count == 4)
    }

    @Test func theOrderOfUseSurvivesARestart() throws {
        let (f, _) = try Self.fixture()
        for name in ["first", "second", "third"] { _ = try Self.view(f, name) }
        _ = try Self.view(f, "first", sort: .mtime)  // changed last
        _ = try SelectionCommand.run(in: f.state, SelectionRequest(session: "third"), caller: Caller(uid: Self.me.uid))  // read last
        f.state.sessions.saveUse()  // as a clean stop does
        try f.restart()
        f.state.config.maxSessionsPerUser = 3
        #expect(Self.names(f) == ["first", "second", "third"])
        #expect(try Self.view(f, "fourth").evicted == "second")
        #expect(try Self.view(f, "fifth").evicted == "first")
        // The index holds what memory does.
        try f.restart()
        #expect(Self.names(f) == ["third", "fourth", "fifth"])
    }

    @Test func aUsersWaitingPlansAreBoundedOldestFirst() throws {
        let (f, ids) = try Self.fixture()
        var tokens: [String] = []
        for i in 0..<(DeletePlans.maxPerUser + 2) {
            tokens.append(try DeletePrepareCommand.run(in: f.state, DeletePrepareRequest(ids: [ids[i % ids.count]]), caller: Caller(uid: Self.me.uid)).token)
        }
        #expect(f.state.plans.count == DeletePlans.maxPerUser)
        for token in tokens.prefix(2) {
            #expect(throws: ProtocolError.self) { try DeleteConfirmCommand.takePlan(in: f.state, DeleteConfirmRequest(token: token), uid: Self.me.uid) }
        }
        #expect(f.state.plans[tokens[2]] != nil)
        f.state.config.maxSelection = 3
        #expect(throws: ProtocolError.self) { try DeletePrepareCommand.run(in: f.state, DeletePrepareRequest(ids: Array(ids[0..<4])), caller: Caller(uid: Self.me.uid)) }
    }

    @Test func aViewMayNotHoldMegabytesOfPatterns() throws {
        let (f, _) = try Self.fixture()
        let huge = String(repeating: "*", count: 5000)
        for view in [ViewSpec(filter: ViewFilter(glob: huge)), ViewSpec(root: "pics", folder: huge),
                     ViewSpec(filter: ViewFilter(types: Array(repeating: "jpeg", count: 100)))] {
            do {
                _ = try ViewCommand.run(in: f.state, ViewRequest(session: "s", view: view), caller: Caller(uid: Self.me.uid))
                Issue.record("accepted \(view)")
            } catch {
                #expect(error.code == .invalidArgument)
            }
        }
        #expect(f.state.sessions.all.isEmpty)
    }
}
