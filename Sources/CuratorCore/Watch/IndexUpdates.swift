// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem

/// What the crawler changes in the index, once it has looked at the disk. The state
/// implements it (behind its lock: see `WatcherStateLock`); the crawler knows
/// nothing else of it, so the state's own parts can move without the watcher.
protocol IndexUpdates: AnyObject {
    /// Brings one directory's photos in line with `files` (everything the disk has
    /// there; `complete` when that is the whole directory). With `deferRemovals` (a
    /// full scan) photos missing from it are left for `finishScan`; with
    /// `coalesceAdded` (a full scan too) the photos added are told as one `scanned`
    /// event. Every photo kept or added is inserted in `seen`. On a share, a full
    /// scan holds in `arrivals` the new files that may be photos renamed on the
    /// server, for `finishScan` to pair with what vanished.
    @discardableResult
    func reconcile(root: Int32, directory: ByteString, files: [ScannedFile], complete: Bool, deferRemovals: Bool,
                   coalesceAdded: Bool, seen: inout IDSet, arrivals: inout HeldArrivals) throws -> [LibraryChange]
    /// One file appeared or was rewritten.
    func fileAppeared(root: Int32, directory: ByteString, file: ScannedFile) throws
    /// Files of one directory appeared or were rewritten (names distinct), in one
    /// transaction: each as `fileAppeared` would have it.
    func filesAppeared(root: Int32, directory: ByteString, files: [ScannedFile]) throws
    /// A file at this path is gone, as the disk confirms.
    func fileVanished(root: Int32, relativePath: ByteString) throws
    /// A file renamed (a paired move): it keeps its id.
    func fileMoved(root: Int32, from: ByteString, toRoot: Int32, to: ByteString, file: ScannedFile) throws
    /// A folder renamed inside its root: its photos keep their ids.
    func folderMoved(root: Int32, from: ByteString, to: ByteString) throws
    /// A folder deleted or moved out of its root, with everything below it.
    func folderVanished(root: Int32, path: ByteString) throws
    /// A directory's mode, owner or ACL changed (IN_ATTRIB): who may read the
    /// folders below it is worked out again.
    func directoryAttributesChanged(root: Int32, path: ByteString)
    /// Several folders of a scan (or parts of large ones, in a full scan) in one
    /// transaction, each as `reconcile` does one. `adoptRenamed` false: a new file is
    /// not looked up by inode as a photo renamed while the daemon was away (a scan of a
    /// root that had no photo when it started: there is none to find).
    func reconcile(root: Int32, folders: [ScannedFolder], deferRemovals: Bool, coalesceAdded: Bool, adoptRenamed: Bool,
                   seen: inout IDSet, arrivals: inout HeldArrivals) throws
    /// Whether the index holds any photo of the root.
    func hasPhotos(root: Int32) -> Bool
    /// The end of a full scan, in steps: the root's folders, then the photos not seen
    /// removed a few folders at a time (`removeUnseen`), then the folders not seen
    /// dropped (`dropFolders`, deepest first), except below `unreadable`.
    func scanFolderIDs(root: Int32) -> [Int32]
    /// The paths of the root's folders that have rows in the index, of those at or
    /// below `path` when given: a scan plans the groups of the others as it lists
    /// them (`FolderGroupPlan`).
    func foldersWithRows(root: Int32, within path: ByteString?) -> Set<ByteString>
    func removeUnseen(root: Int32, folders: ArraySlice<Int32>, seen: IDSet, seenFolders: Set<ByteString>,
                      unreadable: [ByteString], budget: Int) throws -> (consumed: Int, unseenFolders: [Folder])
    func dropFolders(_ folders: ArraySlice<Folder>, limit: Int) throws -> Int
    /// The end of a full scan in one step (a share's scan that held arrivals): what it did not see is gone, except below `unreadable`,
    /// or moved, where one of the `arrivals` it held is certainly that photo.
    func finishScan(root: Int32, seen: IDSet, seenFolders: Set<ByteString>, unreadable: [ByteString],
                    arrivals: HeldArrivals, coalesceAdded: Bool) throws
    /// The photo indexed at a path, if any.
    func photoID(root: Int32, relativePath: ByteString) -> Int64?
    /// Saves and announces, once, the selections that photos left since the last call.
    func flushSelections()
}

/// A root as the watcher needs to know it.
struct WatchedRoot: Sendable, Equatable {
    var id: Int32
    var config: RootConfig
    var online: Bool
    /// The device and inode of the root's folder when it was last started (0: never).
    var device: UInt64
    var inode: UInt64
    var usesInotify: Bool
    var polls: Bool
    /// Set while its file system does not answer (seconds since the epoch).
    var unresponsiveSince: Int64? = nil
}

/// What the root supervisor (and the crawler, for its scans) records of each root:
/// whether it is there, how it is watched, how its scans go. Implemented by the state.
protocol RootUpdates: AnyObject {
    /// The configured roots, in configuration order.
    var watchedRoots: [WatchedRoot] { get }
    func watchedRoot(_ id: Int32) -> WatchedRoot?
    func rootName(_ id: Int32) -> String
    /// The root's folder is there (`directory`) and is watched as `watching` says.
    func rootStarted(_ id: Int32, directory: FileStatus, watching: RootWatching)
    /// The root went away (offline, its photos kept); true if it was online.
    func rootWentOffline(_ id: Int32, reason: String) -> Bool
    /// An offline root is back: said to subscribers before it is reconciled.
    func rootCameBack(_ id: Int32)
    /// The root now names another folder: the device and inode recorded for the
    /// old one would make it look unmounted.
    func forgetRootDirectory(_ id: Int32)
    /// The root's file system has not answered since `since` (seconds since the
    /// epoch): its photos stay, nothing is asked of it until it answers again.
    func rootUnresponsive(_ id: Int32, since: Int64)
    /// It answers again.
    func rootResponsive(_ id: Int32)
    /// No more inotify for this root: it is polled, and `note` says why.
    func rootPolled(_ id: Int32, note: String)
    /// Events were lost (a queue overflow): counted and said to subscribers. Returns
    /// the roots that inotify watches and that are online, to be rescanned.
    func eventsLost(reason: String) -> [Int32]
    /// A full scan was queued (`rescan`: not the first one, but a repair or a request).
    func scanScheduled(root: Int32, rescan: Bool)
    func scanStarted(root: Int32)
    /// How far the scan is; `directories` and `files` only for full scans.
    func scanProgressed(root: Int32, directories: Int?, files: Int?, watches: Int)
    /// A full scan ended without removing anything (the root's folder changed under it).
    func scanAbandoned(root: Int32)
    func scanFinished(root: Int32, elapsedMs: Int, watches: Int, stillScanning: Bool)
}

/// How a root is watched, from its configured method and what the host offers.
struct RootWatching: Sendable, Equatable {
    var usesInotify: Bool
    var polls: Bool
    var note: String?
    /// On a network or FUSE file system: its inode numbers are not the server's and
    /// need not last (sshfs makes up its own; a remount gives new ones), so photos
    /// there are known by path, size and mtime where the inode fails.
    var onShare = false

    /// `remote` names the network or FUSE file system the root is on, if any: such
    /// a root gets no inotify events for changes made on other hosts.
    static func decide(method: WatchMethod, inotifyAvailable: Bool, remote: String?) -> RootWatching {
        var watching: RootWatching
        switch method {
        case .inotify:
            watching = RootWatching(usesInotify: inotifyAvailable, polls: !inotifyAvailable)
        case .poll:
            watching = RootWatching(usesInotify: false, polls: true)
        case .auto:
            watching = RootWatching(usesInotify: inotifyAvailable, polls: remote != nil || !inotifyAvailable)
        }
        if !inotifyAvailable && method != .poll { watching.note = "inotify is unavailable; polling" }
        watching.onShare = remote != nil
        if let remote, method == .auto { watching.note = "on a \(remote) share: inotify misses other hosts' changes, so it is also polled" }
        return watching
    }
}

/// Everything the watcher changes in the state.
typealias WatcherUpdates = IndexUpdates & RootUpdates

/// The state's lock, as the watcher takes it: each call is one locked step.
protocol WatcherStateLock: Sendable {
    func withUpdates<R>(_ body: (any WatcherUpdates) -> R) -> R
}
