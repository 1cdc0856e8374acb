// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// What everything's `StatusSnapshot` is made from, cheap to take and compare:
/// `Curator.withState` makes and publishes a snapshot only when a hold of the
/// lock changed one of these, not at every hold (most change nothing `status`
/// shows, and a snapshot costs a string per root, and a pass over the photos
/// while sidecar reads are unplanned). Whatever `statusSnapshot(uid:)` reads
/// must be here, or a counter that moves with it.
struct StatusInputs: Equatable {
    var rootsVersion: UInt64
    var overflows: Int
    var rescans: Int
    var libraryGeneration: UInt64
    var indexWrites: Int
    var listedByRoot: [Int32: Int]
    var filesByRoot: [Int32: Int]
    var bytesByRoot: [Int32: Int64]
    var capturePendingByRoot: [Int32: Int]
    var clients: Int
    var subscribers: Int
    var sessions: Int
    var busyRoots: Set<String>
    var thumbnailCache: ByteString?
    var thumbnailBacklog: Int
    var thumbnailsReady: Int
    var thumbnailsFailed: Int
    var hashPending: Int
    var marksPending: Int
    var marksRecords: Int
    var marksUnreadable: Int
    var marksPlannedAt: UInt64?
}

extension CuratorState {
    var statusInputs: StatusInputs {
        StatusInputs(
            rootsVersion: roots.version, overflows: roots.totalOverflows, rescans: roots.totalRescans,
            libraryGeneration: library.generation, indexWrites: library.storeWrites,
            listedByRoot: library.listedByRoot, filesByRoot: library.countByRoot, bytesByRoot: library.bytesByRoot,
            capturePendingByRoot: library.pendingCaptureByRoot,
            clients: events.clients, subscribers: events.subscriberCount, sessions: sessions.count, busyRoots: plans.busyRoots,
            thumbnailCache: config.thumbnailCache,
            thumbnailBacklog: thumbnails.backlog, thumbnailsReady: thumbnails.ready.count, thumbnailsFailed: thumbnails.failed.count,
            hashPending: hashPending,
            marksPending: marks.pending, marksRecords: marks.records.count, marksUnreadable: marks.unreadable.count,
            marksPlannedAt: marks.plannedAt)
    }
}
