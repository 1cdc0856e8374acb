// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Glibc

/// `status`: the daemon, each root (watching, scanning, counts), clients and counters.
/// The counts are of the photos the caller may see (`CuratorState+Visibility`).
enum StatusCommand: CuratorCommand {
    static func arguments(of command: Command) -> StatusRequest? { if case .status(let a) = command { a } else { nil } }

    static func run(_ arguments: StatusRequest, curator: Curator, caller: Caller) -> StatusResult {
        let watcher = curator.watcherReport.snapshot
        let thumbnailNote = curator.thumbnailStatusNote
        return curator.withState { state in
            let rootStatuses = state.rootOrder.compactMap { id -> RootStatus? in
                guard let r = state.roots[id] else { return nil }
                let counts = state.rootCounts(id, uid: caller.uid)
                return RootStatus(
                    name: r.config.name, path: r.config.path.lossyString, watch: r.config.watch, watching: r.watchingDescription,
                    online: r.online, photos: counts.photos, bytes: counts.bytes,
                    watches: r.watches, scanning: r.scanning, scanDirectories: r.scanDirectories, scanFiles: r.scanFiles,
                    capturePending: counts.capturePending, lastScanMs: r.lastScanMs, overflows: r.overflows,
                    rescans: r.rescans, note: r.note,
                    unresponsiveSince: r.unresponsiveSince.map { LocalTime(epochSeconds: $0).rfc3339Text },
                    files: r.config.groups ? counts.files : nil,
                    batchRunning: state.plans.busyRoots.contains(r.config.name))
            }
            return StatusResult(
                version: ProtocolInfo.serverVersion, pid: getpid(),
                uptimeMs: Int64((MonotonicClock.nanoseconds() - curator.startedAt) / 1_000_000), roots: rootStatuses,
                photos: caller.uid == 0 ? state.library.listedByRoot.values.reduce(0, +) : rootStatuses.reduce(0) { $0 + $1.photos }, scanning: rootStatuses.contains { $0.scanning }, clients: state.events.clients,
                subscribers: state.events.subscriberCount, sessions: state.sessions.count, overflows: state.roots.totalOverflows,
                rescans: state.roots.totalRescans, batchRunning: state.plans.batchRunning, indexWrites: state.library.storeWrites,
                inotify: state.roots.values.contains { $0.usesInotify } || watcher.restarts > 0
                    ? InotifyStatus(watches: watcher.watches, staleEntries: watcher.staleEntries, restarts: watcher.restarts) : nil,
                thumbnails: state.config.thumbnailCache.map { cache in
                    ThumbnailStatus(backlog: state.thumbnails.backlog, ready: state.thumbnails.ready.count,
                                    failed: state.thumbnails.failed.count, cache: cache.lossyString, note: thumbnailNote)
                })
        }
    }
}
