// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// What the server commands (`hello`, `status`, `sync`, `rescan`, `reload`) may
/// do: read the roots and the status, post to the watcher's inbox, write sync
/// cookies, reload; no session, plan or photo.
protocol ServerScope: AnyObject, Sendable {
    var startedAt: UInt64 { get }
    var isStopping: Bool { get }
    var statusBoard: StatusBoard { get }
    var watcherReport: WatcherReport { get }
    var thumbnailStatusNote: String? { get }
    var inbox: WatcherInbox { get }
    var cookieWriters: WorkerPool { get }
    var reloader: (any ConfigurationReloading)? { get }
    func watcherCaughtUp(within seconds: Double) -> Bool
    /// Runs `body` under the state lock.
    func withRoots<R, E: Error>(_ body: (any RootLookupScope) throws(E) -> R) throws(E) -> R
}

extension Curator: ServerScope {
    func withRoots<R, E: Error>(_ body: (any RootLookupScope) throws(E) -> R) throws(E) -> R {
        try withState { (state) throws(E) -> R in try body(state) }
    }
}

extension CuratorCommand where View == any ServerScope {
    static func view(of curator: Curator) -> any ServerScope { curator }
}
