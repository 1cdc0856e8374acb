// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import Glibc

/// `status`: the daemon, each root (watching, scanning, counts), clients and counters.
/// The counts are of the photos the caller may see (`CuratorState+Visibility`).
/// Root's is read from the state's last published `StatusSnapshot`, without
/// waiting for the lock (a scan holds it in steps); another user's counts depend
/// on which folders they may list, so theirs is made under the lock.
enum StatusCommand: CuratorCommand {
    static func run(_ arguments: StatusRequest, curator: any ServerScope, caller: Caller) -> StatusResult {
        let watcher = curator.watcherReport.snapshot
        let thumbnailNote = curator.thumbnailStatusNote
        let snapshot = caller.uid == 0 ? curator.statusBoard.snapshot
            : curator.withRoots { state in state.statusSnapshot(uid: caller.uid) }
        return StatusResult(
            version: ProtocolInfo.serverVersion, pid: getpid(),
            uptimeMs: Int64((MonotonicClock.nanoseconds() - curator.startedAt) / 1_000_000), roots: snapshot.roots,
            photos: snapshot.photos, scanning: snapshot.scanning, clients: snapshot.clients,
            subscribers: snapshot.subscribers, sessions: snapshot.sessions, overflows: snapshot.overflows,
            rescans: snapshot.rescans, batchRunning: snapshot.batchRunning, indexWrites: snapshot.indexWrites,
            inotify: snapshot.usesInotify || watcher.restarts > 0
                ? InotifyStatus(watches: watcher.watches, staleEntries: watcher.staleEntries, restarts: watcher.restarts) : nil,
            thumbnails: snapshot.thumbnails.map { t in
                ThumbnailStatus(backlog: t.backlog, ready: t.ready, failed: t.failed, cache: t.cache, note: thumbnailNote)
            },
            trashRepairs: TrashRepairs.shared.all.isEmpty ? nil : TrashRepairs.shared.all, hashPending: snapshot.hashPending,
            xmpPending: snapshot.xmpPending)
    }
}
