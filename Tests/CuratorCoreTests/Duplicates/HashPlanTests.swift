// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Testing

/// The reads the duplicate search plans are planned again only once they are done:
/// a library that changes meanwhile (every capture time read changes it) neither
/// walks every photo again at each batch nor hands out a read already in hand.
@Suite struct HashPlanTests {
    @Test func aLibraryChangeDoesNotPlanAgainTheReadsInHand() throws {
        let fixture = try ScannedFolderFixture()
        // Four files of one size: each needs its head read.
        let files = try fixture.write((0..<4).map { "IMG_\($0).jpg" })
        try fixture.curator.withState { state in
            try fixture.reconcile(files, in: state)
            let first = state.takeHashWork(limit: 1)
            try #require(first.count == 1)
            #expect(state.contentHashes.pending == 4)
            // A capture time read meanwhile changes the library...
            let other = try #require(state.library.photos.rows.map(\.id).first { $0 != first[0].id })
            let generation = state.library.generation
            try state.library.setCapture(other, .known(1_700_000_000))
            #expect(state.library.generation != generation)
            // ... and the rest of the plan is handed out as planned, without the read in hand.
            let rest = state.takeHashWork(limit: 10)
            #expect(rest.count == 3)
            #expect(!rest.contains { $0.id == first[0].id })
        }
    }
}
