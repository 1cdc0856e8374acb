// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import Testing

/// `status`'s snapshot is made again only by a hold of the state lock that
/// changed something it shows (`StatusInputs`), not at every hold; and every
/// such change is published by the hold that made it.
@Suite struct StatusPublishingTests {
    @Test func aHoldThatChangesNothingStatusShowsPublishesNothing() throws {
        let library = try StatusSnapshotTests.Library()
        try library.add(folder: "a", count: 3)
        let board = library.curator.statusBoard
        let before = board.publications
        for _ in 0..<20 {
            _ = library.curator.withState { $0.library.photos.count }
            _ = library.curator.withState { $0.session(SessionKey(uid: 0, name: "default")) }
            _ = library.curator.isSubscribed(CommandHandlerTests.Recorder())
        }
        #expect(board.publications == before, "60 holds that changed nothing status shows")

        library.curator.clientConnected()
        #expect(board.publications == before + 1)
        #expect(library.status(uid: 0).clients == 1)
    }

    @Test func everyChangeStatusShowsIsPublishedByItsHold() throws {
        let library = try StatusSnapshotTests.Library()
        let id = library.rootID
        library.curator.withState { state in state.roots[id]?.scanFiles = 12_345 }
        #expect(library.status(uid: 0).roots.first?.scanFiles == 12_345, "a root's runtime state")
        library.curator.withState { state in state.totalRescans += 1 }
        #expect(library.status(uid: 0).rescans == 1)
        try library.add(folder: "a", count: 2)
        #expect(library.status(uid: 0).photos == 2, "the index")
        // A step that throws still publishes what it left.
        struct Failed: Error {}
        #expect(throws: Failed.self) {
            try library.curator.withState { (state) throws(Failed) in
                state.roots[id]?.scanFiles = 7
                throw Failed()
            }
        }
        #expect(library.status(uid: 0).roots.first?.scanFiles == 7)
    }
}
