// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import CuratorTestSupport
import Testing

/// The reads the duplicate search plans are planned again only once they are done:
/// a library that changes meanwhile (every capture time read changes it) neither
/// walks every photo again at each batch nor hands out a read already in hand.
@Suite struct HashPlanTests {
    @Test func aLibraryChangeDoesNotPlanAgainTheReadsInHand() throws {
        let scratch = try ScratchDirectory()
        let root = scratch.child("root")
        _ = try scratch.write(ByteString("root/.keep"), [])
        let config = Configuration(roots: [RootConfig(name: "pics", path: root)], socketPath: scratch.child("s"),
                                   stateDirectory: scratch.path, homeTrash: scratch.child("trash"))
        let curator = try Curator(config: config)
        _ = try curator.recoverJournal()
        let rootID = try #require(curator.withState { $0.rootID(named: "pics") })
        var files: [ScannedFile] = []
        for i in 0..<4 {
            // Four files of one size: each needs its head read.
            let name = ByteString("IMG_\(i).jpg")
            let path = try scratch.write(ByteString("root/a/").appending(name), Array("photo \(i)".utf8))
            files.append(ScannedFile(name: name, status: try FileStatus.of(path), type: .jpeg))
        }
        try curator.withState { state in
            var seen = IDSet()
            _ = try state.reconcile(root: rootID, directory: ByteString("a"), files: files, complete: true,
                                    deferRemovals: false, seen: &seen)
            state.roots[rootID]?.scanning = false
            state.roots[rootID]?.watchingDecided = true
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
