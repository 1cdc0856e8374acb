// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Testing

/// The marks reader plans from the library's files, not from every change of it:
/// a capture time read (the capture reader runs beside it, a batch at a time)
/// neither walks every photo again nor hands out a read already in hand, while a
/// file that arrives is planned.
@Suite struct MarksPlanTests {
    @Test func aCaptureTimeReadDoesNotPlanTheReadsAgain() throws {
        let fixture = try ScannedFolderFixture()
        let four = try fixture.write((0..<4).map { "IMG_\($0).jpg" })
        try fixture.curator.withState { state in
            try fixture.reconcile(four, in: state)
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
            try fixture.reconcile(four + (try fixture.write(["IMG_9.jpg"])), in: state)
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
