// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials

/// The daemon's mutable state, all of it behind `Curator`'s one lock. The lock
/// protects exactly the components stored here; each owns one concern, in a file
/// of its own:
///
/// - `config`: the configuration in force (a reload replaces it);
/// - `library` (`PhotoLibrary`): the in-memory index, written through to index.sqlite;
/// - `roots` (`RootRegistry`): root ids, names, order and runtime state;
/// - `events` (`EventHub`): client count, subscribers and what each follows;
/// - `sessions` (`SessionStore`): sessions, their order of use, photos leaving selections;
/// - `plans` (`DeletePlans`): delete plans waiting for confirmation, the running-batch flag;
/// - `tombstones` (`Tombstones`): trashed photos by inode, for their ids to come back;
/// - `capturePending` (`CaptureQueue`): photos whose capture time is still to be read;
/// - `thumbnails` (`ThumbnailQueue`): photos to make thumbnails of, those ready or failed;
/// - `viewCache` (`ViewCache`): the last views resolved;
/// - `access` (`FolderAccess`): which folders each user may list, for reads;
/// - `contentHashes` (`ContentHashes`): content hashes for the duplicate search, reads still to make;
/// - `stackLooks` (`StackLookTable`): each measured photo's `StackLook`, each user's stacks found from them;
/// - `setWatch` (`SetWatch`): what subscribers were last told of their stacks and duplicate sets;
/// - `marks` (`PhotoMarksTable`): the sidecars' marks, the groups' resolved from them, reads still to make;
/// - `encoder`: the JSON encoder of answers made under the lock.
///
/// `CuratorState` composes them: what it adds are the operations that need
/// several at once, each in a file named for it (reconciling the disk, publishing
/// changes, photos leaving selections, batches, registering roots, resolving
/// views, presenting photos, capture times). Commands live in `Commands/`.
///
/// The watcher, the capture reader and the client connections reach it only
/// through `Curator.withState`, and nothing in here blocks for long: disk walks
/// and EXIF reads happen outside, results come in one locked step. No component
/// holds a reference to the state or another component: they are values, and an
/// operation of the state hands each what it needs.
final class CuratorState {
    var config: Configuration
    let library: PhotoLibrary
    var roots = RootRegistry()
    var events = EventHub()
    var sessions: SessionStore
    var plans = DeletePlans()
    var tombstones = Tombstones()
    var capturePending = CaptureQueue()
    var thumbnails = ThumbnailQueue()
    var viewCache = ViewCache()
    var access = FolderAccess()
    var contentHashes = ContentHashes()
    var stackLooks = StackLookTable()
    var setWatch = SetWatch()
    var marks = PhotoMarksTable()
    /// One encoder for the answers made under the lock (session commands), rather
    /// than one made per request.
    let encoder = Wire.makeEncoder()
    /// Rung where a root's `scanning` may turn false, outside any wait on the lock.
    let scanEnds = ScanEnds()

    init(config: Configuration, library: PhotoLibrary) throws {
        self.config = config
        self.library = library
        sessions = SessionStore(persistence: library.storeForRoots)
        try registerRoots(config.roots)
        for row in library.photos.rows where row.capture == .pending { capturePending.append(row.id, root: library.photos.rootID(of: row)) }
        queueAllThumbnails()
        contentHashes.records = try library.store.loadContentHashes()
        stackLooks = StackLookTable(looks: try library.store.loadStackLooks())
        dropLooksOfPhotosGone()
        try loadMarks()
        // Photos that left while the daemon was down leave the selections, and so
        // do photos a changed configuration protects now.
        try sessions.load(removing: { id in library.listed(id).map(isProtected) ?? true })
    }

    // MARK: shorthands, as the watcher and the commands use them

    /// Root ids in configuration order.
    var rootOrder: [Int32] { roots.order }

    func rootName(_ id: Int32) -> String { roots.name(id) }

    func rootID(named name: String) -> Int32? { roots.id(named: name) }

    func absolutePath(root: Int32, relative: ByteString) -> ByteString? { roots.absolutePath(root: root, relative: relative) }

    var totalOverflows: Int {
        get { roots.totalOverflows }
        set { roots.totalOverflows = newValue }
    }

    var totalRescans: Int {
        get { roots.totalRescans }
        set { roots.totalRescans = newValue }
    }

    func send(_ event: Event, root: Int32?) { events.send(event, root: root) }

    func send(_ event: @autoclosure () -> Event, toUID uid: UInt32) { events.send(event(), toUID: uid) }
}
