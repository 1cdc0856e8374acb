// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
@testable import CuratorDaemon
import Testing

/// One user can never take every connection, root included; connections whose
/// client has gone do not count against anyone.
struct ConnectionCountsTests {
    /// The answers to `times` connections of `uid`, nil for each admitted.
    static func admit(_ counts: inout ConnectionCounts, uid: UInt32, times: Int = 1, maxTotal: Int, maxPerUser: Int,
                      leaving: ConnectionCounts.Leaving = .init()) -> [ErrorCode?] {
        (0..<times).map { _ in counts.admit(uid: uid, maxTotal: maxTotal, maxPerUser: maxPerUser, leaving: leaving)?.code }
    }

    @Test func aUserIsHeldToItsShare() {
        var counts = ConnectionCounts()
        let mine = Self.admit(&counts, uid: 1000, times: 4, maxTotal: 10, maxPerUser: 3)
        #expect(mine == [nil, nil, nil, .tooManyConnections])
        let message = counts.admit(uid: 1000, maxTotal: 10, maxPerUser: 3)?.message ?? ""
        #expect(message.hasPrefix("uid 1000 already has 3 connections"), "\(message)")
        let root = Self.admit(&counts, uid: 0, maxTotal: 10, maxPerUser: 3)
        #expect(root == [nil], "another user still gets in")
        #expect(counts.total == 4)
    }

    @Test func theTotalIsALimitForEveryone() {
        var counts = ConnectionCounts()
        var answers: [ErrorCode?] = []
        for uid: UInt32 in 1...5 { answers += Self.admit(&counts, uid: uid, maxTotal: 4, maxPerUser: 2) }
        #expect(answers == [nil, nil, nil, nil, .tooManyClients])
        counts.release(uid: 2)
        let again = Self.admit(&counts, uid: 5, maxTotal: 4, maxPerUser: 2)
        #expect(again == [nil])
        #expect(counts.byUID[2] == nil, "a uid with no connection is forgotten")
    }

    @Test func leavingConnectionsFreeTheirPlaces() {
        var counts = ConnectionCounts()
        let first = Self.admit(&counts, uid: 7, times: 3, maxTotal: 2, maxPerUser: 2)
        #expect(first == [nil, nil, .tooManyConnections])
        let leaving = ConnectionCounts.Leaving(all: 1, mine: 1)
        let next = Self.admit(&counts, uid: 7, maxTotal: 2, maxPerUser: 2, leaving: leaving)
        #expect(next == [nil])
        #expect(counts.total == 3, "counted until its thread ends")
        counts.release(uid: 7)
        #expect(counts.byUID[7] == 2)
    }
}
