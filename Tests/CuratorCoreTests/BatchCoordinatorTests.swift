// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Testing

/// What `BatchCoordinator` decides from what the runner and the watcher tell it:
/// which paths the watcher is told are the batch's own, which of the moves it left
/// to the batch are looked at again, what a trashed chunk buries, which roots an
/// emptying holds. Pure: no files, no state.
@Suite struct BatchCoordinatorTests {
    static let identity = FileIdentity(device: 1, inode: 2, size: 3, mtimeNs: 4)

    static func item(_ id: Int64, _ root: String, _ path: String) -> BatchPlanItem {
        BatchPlanItem(photoID: id, rootName: root, rootPath: ByteString("/" + root), relativePath: ByteString(path), identity: identity)
    }

    static func result(step: Int, id: Int64, _ outcome: PhotoOutcome) -> BatchItemResult {
        BatchItemResult(step: step, id: id, root: "pics", path: "x.jpg", size: 1, outcome: outcome)
    }

    static func entry(_ root: Int32, _ path: String) -> WatchTable.Entry { WatchTable.Entry(rootID: root, path: ByteString(path)) }

    @Test func aPlansPhotosAreTheWatchersByRootIdAndThoseOfAGoneRootAreNot() {
        let leaving = BatchCoordinator.leaving([Self.item(1, "pics", "a.jpg"), Self.item(2, "gone", "b.jpg"), Self.item(3, "more", "c.jpg")],
                                               rootIDs: ["pics": 7, "more": 9])
        #expect(leaving.map(\.entry) == [Self.entry(7, "a.jpg"), Self.entry(9, "c.jpg")])
        #expect(leaving.map(\.id) == [1, 3])
    }

    @Test func aDeleteLooksAgainAtTheMovesItLeftOnlyForPhotosItDidNotTrash() {
        let leaving: [BatchCoordinator.Leaving] = [(Self.entry(7, "a.jpg"), 1), (Self.entry(7, "b.jpg"), 2), (Self.entry(7, "c.jpg"), 3)]
        #expect(BatchCoordinator.rechecks(skipped: [], leaving: leaving, trashed: []).isEmpty)
        #expect(BatchCoordinator.rechecks(skipped: [0, 2], leaving: leaving, trashed: [1]) == [Self.entry(7, "c.jpg")])
        #expect(BatchCoordinator.rechecks(skipped: [0, 1, 2], leaving: leaving, trashed: [1, 2, 3]).isEmpty)
    }

    @Test func anUndosArrivalsAreThoseOfRootsStillConfigured() {
        let photos: [(rootName: String, relativePath: ByteString)] = [("pics", "a.jpg"), ("gone", "b.jpg")]
        let arriving = BatchCoordinator.arrivals(photos, rootIDs: [7, nil])
        #expect(arriving.map(\.entry) == [Self.entry(7, "a.jpg")])
        #expect(arriving.map(\.rootName) == ["pics"])
    }

    @Test func anUndoLooksAgainAtTheMovesItLeftOnlyWhereItPutNothingBack() {
        let arriving: [BatchCoordinator.Arrival] = [(Self.entry(7, "a.jpg"), "pics"), (Self.entry(7, "b.jpg"), "pics"),
                                                    (Self.entry(9, "a.jpg"), "more")]
        let putBack: [String: Set<ByteString>] = ["pics": ["a.jpg"]]
        // a.jpg of `more` has the name of one put back in `pics`: it is looked at again.
        #expect(BatchCoordinator.rechecks(skipped: [0, 1, 2], arriving: arriving, putBack: putBack)
                == [Self.entry(7, "b.jpg"), Self.entry(9, "a.jpg")])
        #expect(BatchCoordinator.rechecks(skipped: [0], arriving: arriving, putBack: putBack).isEmpty)
    }

    @Test func aChunkBuriesThePlansFileAtEachTrashedStepWhileItIsThatPhoto() {
        let planned = [Self.item(1, "pics", "a.jpg"), Self.item(2, "pics", "b.jpg"), Self.item(3, "pics", "c.jpg")]
        let chunk = [Self.result(step: 1, id: 1, .trashed),
                     Self.result(step: 2, id: 2, .changed),
                     Self.result(step: 3, id: 99, .trashed),  // not the plan's photo at that step
                     Self.result(step: 4, id: 4, .trashed),   // beyond the plan
                     Self.result(step: 0, id: 1, .trashed)]
        let buried = BatchCoordinator.burials(chunk, planned: planned)
        #expect(buried.map(\.id) == [1])
        #expect(buried.first?.relativePath == "a.jpg" && buried.first?.rootName == "pics")
    }

    @Test func anEmptyingHoldsTheRootNamedOrThoseOfWhatIsInTheTrash() throws {
        var asked = false
        let named = try BatchCoordinator.emptyRoots(root: "pics") { () throws(BatchError) in
            asked = true
            return ["more"]
        }
        #expect(named == ["pics"])
        #expect(!asked, "the journal is not read when a root is named")
        #expect(try BatchCoordinator.emptyRoots(root: nil) { () throws(BatchError) in ["pics", "more", "pics"] } == ["pics", "more"])
    }
}
