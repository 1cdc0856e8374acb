// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import CuratorTestSupport
import Testing

/// The marks reader plans from the library's files, not from every change of it:
/// a capture time read (the capture reader runs beside it, a batch at a time)
/// neither walks every photo again nor hands out a read already in hand, while a
/// file that arrives is planned.
@Suite struct MarksPlanTests {
    @Test func aCaptureTimeReadDoesNotPlanTheReadsAgain() throws {
        let scratch = try ScratchDirectory()
        let root = scratch.child("root")
        _ = try scratch.write(ByteString("root/.keep"), [])
        let config = Configuration(roots: [RootConfig(name: "pics", path: root)], socketPath: scratch.child("s"),
                                   stateDirectory: scratch.path, homeTrash: scratch.child("trash"))
        let curator = try Curator(config: config)
        _ = try curator.recoverJournal()
        let rootID = try #require(curator.withState { $0.rootID(named: "pics") })
        func scanned(_ names: [String]) throws -> [ScannedFile] {
            try names.map { name in
                let path = try scratch.write(ByteString("root/a/" + name), Array("photo \(name)".utf8))
                return ScannedFile(name: ByteString(name), status: try FileStatus.of(path), type: .jpeg)
            }
        }
        let four = try scanned((0..<4).map { "IMG_\($0).jpg" })
        try curator.withState { state in
            var seen = IDSet()
            _ = try state.reconcile(root: rootID, directory: ByteString("a"), files: four, complete: true,
                                    deferRemovals: false, seen: &seen)
            state.roots[rootID]?.scanning = false
            state.roots[rootID]?.watchingDecided = true
            let first = state.takeMarksWork(limit: 1)
            try #require(first.count == 1)
            let planned = state.marks.plannedAt
            // A capture time read meanwhile changes the library, not its files...
            let other = try #require(state.library.photos.rows.map(\.id).first { $0 != first[0].id })
            try state.library.setCapture(other, .known(1_700_000_000))
            // ... and the rest of the plan is handed out as planned, without the read in hand.
            let rest = state.takeMarksWork(limit: 10)
            #expect(state.marks.plannedAt == planned)
            #expect(rest.count == 3)
            #expect(!rest.contains { $0.id == first[0].id })

            // A file that arrives is a change of the files: planned once the reads in
            // hand are done (not handed out twice).
            var again = IDSet()
            _ = try state.reconcile(root: rootID, directory: ByteString("a"), files: four + (try scanned(["IMG_9.jpg"])),
                                    complete: true, deferRemovals: false, seen: &again)
            #expect(state.takeMarksWork(limit: 10).isEmpty)
            state.applyMarksReads((first + rest).compactMap { job in
                state.library.photos.row(job.id).map { row in
                    MarksRead(id: job.id, record: SidecarMarksRecord(size: row.size, mtimeNs: row.mtimeNs, marks: nil), failed: false)
                }
            })
            #expect(state.takeMarksWork(limit: 10).map(\.path.name) == [ByteString("IMG_9.jpg")])
        }
    }
}
