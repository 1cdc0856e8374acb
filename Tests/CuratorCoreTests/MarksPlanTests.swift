// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import CuratorXMP
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

    /// A read handed out before a `rate` of its group may be of the file as it was
    /// before the write: applied, it would take the group's marks back until the
    /// file is read again (keys pressed fast would see an earlier mark come back). It is
    /// dropped, and the group keeps what the `rate` wrote until a read handed out
    /// after it is applied.
    @Test func aReadTakenBeforeARateDoesNotTakeTheMarksBack() throws {
        let fixture = try ScannedFolderFixture()
        let files = try fixture.write(["IMG_0.jpg"])
        try fixture.curator.withState { state in
            try fixture.reconcile(files, in: state)
            let id = try #require(state.library.photos.rows.first?.id)
            let stale = state.takeMarksWork(limit: 1)
            try #require(stale.count == 1)
            state.noteRated(PhotoMarks(rating: 5), ofGroup: id, sidecars: [])
            func read(_ job: MarksJob, rating: Int) -> MarksRead {
                let row = state.library.photos.row(job.id)
                return MarksRead(id: job.id, record: SidecarMarksRecord(size: row?.size ?? 0, mtimeNs: row?.mtimeNs ?? 0,
                                                                        marks: PhotoMarks(rating: rating)),
                                 failed: false, inode: row?.inode, takenAt: job.takenAt)
            }
            state.applyMarksReads(stale.map { read($0, rating: 2) })
            #expect(state.marks.marks(ofGroup: id).rating == 5)
            // Nor does a resolve from the records (a plan, a regroup) before the read.
            state.resolveMarks(ofGroups: [id], announce: false)
            #expect(state.marks.marks(ofGroup: id).rating == 5)
            // Read again (nothing was noted read), after the rate: applied.
            let fresh = state.takeMarksWork(limit: 1)
            try #require(fresh.count == 1)
            state.applyMarksReads(fresh.map { read($0, rating: 3) })
            #expect(state.marks.marks(ofGroup: id).rating == 3)
        }
    }
}
