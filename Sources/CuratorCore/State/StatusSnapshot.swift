// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import Synchronization

/// What `status` says of the state, as of the end of the last hold of the state
/// lock (issue 14): `Curator.withState` publishes it before it lets go when the
/// hold changed what it is made from (`StatusInputs`), so it is exactly what a
/// `status` that took the lock then would have said. A root
/// caller (and the daemon's own readiness line) reads it without the lock: during
/// the first scan of a million photos, waiting behind the scan's holds was 130 ms
/// at p99. Counts are everything's (root's view): a user who may not list some
/// folder is answered under the lock (`StatusCommand`).
struct StatusSnapshot: Sendable {
    var roots: [RootStatus]
    /// Photos listed in every configured root, a group once: the sum of `roots`'
    /// `photos` (a root a reload removed counts no more, though its photos stay
    /// indexed so that the ids come back with it).
    var photos: Int
    var clients: Int
    var subscribers: Int
    var sessions: Int
    var overflows: Int
    var rescans: Int
    var batchRunning: Bool
    var indexWrites: Int
    /// Whether any root is watched with inotify.
    var usesInotify: Bool
    var thumbnails: Thumbnails?
    /// Content reads the duplicate search has still to make (`ContentHashes.pending`).
    var hashPending = 0
    /// Sidecars whose marks are still to read (`PhotoMarksTable.pending`).
    var xmpPending = 0

    struct Thumbnails: Sendable {
        var backlog: Int
        var ready: Int
        var failed: Int
        var cache: String
    }

    static let empty = StatusSnapshot(roots: [], photos: 0, clients: 0, subscribers: 0, sessions: 0, overflows: 0,
                                      rescans: 0, batchRunning: false, indexWrites: 0, usesInotify: false, thumbnails: nil)

    var scanning: Bool { roots.contains { $0.scanning } }
}

/// The last `StatusSnapshot`, behind a lock of its own held only to copy it in or out.
final class StatusBoard: Sendable {
    private struct Published {
        var snapshot = StatusSnapshot.empty
        var inputs: StatusInputs?
        var count = 0
    }

    private let current = Mutex(Published())

    /// Publishes the snapshot `make` makes, unless what it is made from is what the
    /// last one was made from. Called under the state lock only, so never twice at once.
    func publish(_ inputs: StatusInputs, _ make: () -> StatusSnapshot) {
        guard current.withLock({ $0.inputs != inputs }) else { return }
        let snapshot = make()
        current.withLock { published in
            published = Published(snapshot: snapshot, inputs: inputs, count: published.count + 1)
        }
    }

    var snapshot: StatusSnapshot { current.withLock { $0.snapshot } }

    /// How many snapshots were published (for tests).
    var publications: Int { current.withLock { $0.count } }
}

extension CuratorState {
    /// The status of everything as `uid` may see it: each root's counts are of the
    /// folders `uid` may list (`rootCounts`).
    func statusSnapshot(uid: UInt32) -> StatusSnapshot {
        let roots = rootOrder.compactMap { id -> RootStatus? in
            guard let r = self.roots[id] else { return nil }
            let counts = rootCounts(id, uid: uid)
            return RootStatus(
                name: r.config.name, path: r.config.path.lossyString, watch: r.config.watch, watching: r.watchingDescription,
                online: r.online, photos: counts.photos, bytes: counts.bytes,
                watches: r.watches, scanning: r.scanning, scanDirectories: r.scanDirectories, scanFiles: r.scanFiles,
                capturePending: counts.capturePending, lastScanMs: r.lastScanMs, overflows: r.overflows,
                rescans: r.rescans, note: r.note,
                unresponsiveSince: r.unresponsiveSince.map { LocalTime(epochSeconds: $0).rfc3339Text },
                files: r.config.groups ? counts.files : nil,
                batchRunning: plans.busyRoots.contains(r.config.name))
        }
        return StatusSnapshot(
            roots: roots,
            photos: roots.reduce(0) { $0 + $1.photos },
            clients: events.clients, subscribers: events.subscriberCount, sessions: sessions.count,
            overflows: self.roots.totalOverflows, rescans: self.roots.totalRescans, batchRunning: plans.batchRunning,
            indexWrites: library.storeWrites, usesInotify: self.roots.values.contains { $0.usesInotify },
            thumbnails: config.thumbnailCache.map { cache in
                StatusSnapshot.Thumbnails(backlog: thumbnails.backlog, ready: thumbnails.ready.count,
                                          failed: thumbnails.failed.count, cache: cache.lossyString)
            }, hashPending: hashPending, xmpPending: marksPending)
    }
}
