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

    /// On one disk the duplicate search's few reads go before the capture and marks
    /// readers' reads of every photo: these wait while a stage of hash reads is
    /// planned or in hand (the next stage planned as one ends), and go once none
    /// is left. Without a hasher running, they never wait.
    @Test func captureAndMarksReadsWaitForTheHashReads() throws {
        let fixture = try ScannedFolderFixture()
        // Larger than a head covers: files whose heads agree are read whole.
        let files = try ["IMG_0.jpg", "IMG_1.jpg", "IMG_2.jpg"].map { name in
            let path = try fixture.scratch.write(ByteString("root/a/" + name), [UInt8](repeating: 7, count: 200_000))
            return ScannedFile(name: ByteString(name), status: try FileStatus.of(path), type: .jpeg)
        }
        try fixture.curator.withState { state in
            try fixture.reconcile(files, in: state)
            state.contentHashes.hasherRuns = true
            #expect(state.takeCaptureWork(localLimit: 10, shareLimit: 1, busyShares: []).local.isEmpty)
            #expect(state.takeMarksWork(limit: 10).isEmpty)
            // The heads: two agree, so their whole files are read next, at once.
            let heads = state.takeHashWork(limit: 10)
            try #require(heads.count == 3 && heads.allSatisfy { $0.stage == .head })
            let same = ContentHash(high: 1, low: 1)
            state.applyHashes(heads.enumerated().map { i, job in
                HashResult(id: job.id, stage: .head, size: job.size, mtimeNs: job.mtimeNs,
                           hash: i < 2 ? same : ContentHash(high: 2, low: 2), failed: false)
            })
            #expect(state.contentHashes.pending == 2)
            #expect(state.takeCaptureWork(localLimit: 10, shareLimit: 1, busyShares: []).local.isEmpty)
            let whole = state.takeHashWork(limit: 10)
            try #require(whole.count == 2 && whole.allSatisfy { $0.stage == .full })
            state.applyHashes(whole.map { job in
                HashResult(id: job.id, stage: .full, size: job.size, mtimeNs: job.mtimeNs,
                           hash: ContentHash(high: 3, low: UInt64(job.id)), failed: false)
            })
            // Nothing left to hash: the others read.
            #expect(state.contentHashes.pending == 0)
            #expect(state.takeCaptureWork(localLimit: 10, shareLimit: 1, busyShares: []).local.count == 3)
            #expect(state.takeMarksWork(limit: 10).count == 3)
        }
    }

    @Test func withoutAHasherTheCaptureReaderDoesNotWait() throws {
        let fixture = try ScannedFolderFixture()
        let files = try fixture.write(["IMG_0.jpg", "IMG_1.jpg"])
        try fixture.curator.withState { state in
            try fixture.reconcile(files, in: state)
            #expect(state.takeCaptureWork(localLimit: 10, shareLimit: 1, busyShares: []).local.count == 2)
        }
    }
}
