// SPDX-License-Identifier: GPL-2.0-or-later

public struct HelloResult: Codable, Sendable {
    public var server: String
    public var version: String
    public var protocolVersion: Int
    public var uid: UInt32
    public init(server: String, version: String, protocolVersion: Int, uid: UInt32) {
        self.server = server
        self.version = version
        self.protocolVersion = protocolVersion
        self.uid = uid
    }
}

public enum WatchMethod: String, Codable, Sendable { case inotify, poll, auto }

public struct RootStatus: Codable, Sendable {
    public var name: String
    public var path: String
    /// As configured.
    public var watch: WatchMethod
    /// What is in force now: `inotify`, `poll`, or `inotify+poll`; `poll` after a watch limit was hit.
    public var watching: String
    public var online: Bool
    /// Photos as listings count them: a group once (issue 15).
    public var photos: Int
    /// Every file indexed, a group's each (sidecars too); present where the root groups.
    public var files: Int?
    public var bytes: Int64
    public var watches: Int
    public var scanning: Bool
    /// Directories done / found so far, while scanning.
    public var scanDirectories: Int
    public var scanFiles: Int
    /// Photos whose capture time is still being read in the background.
    public var capturePending: Int
    public var lastScanMs: Int?
    public var overflows: Int
    public var rescans: Int
    /// Why the root is polled or offline, when it is.
    public var note: String?
    /// Since when (RFC 3339) the root's file system has not answered: a share whose
    /// server hangs. Absent while it answers.
    public var unresponsiveSince: String?
    /// True while a batch, an undo or an emptying of the trash holds the root
    /// (another on this root is `batch_running`; other roots' are not held up).
    public var batchRunning: Bool?
    public init(name: String, path: String, watch: WatchMethod, watching: String, online: Bool, photos: Int, bytes: Int64,
                watches: Int, scanning: Bool, scanDirectories: Int, scanFiles: Int, capturePending: Int,
                lastScanMs: Int?, overflows: Int, rescans: Int, note: String?, unresponsiveSince: String? = nil,
                files: Int? = nil, batchRunning: Bool? = nil) {
        self.name = name
        self.batchRunning = batchRunning
        self.files = files
        self.path = path
        self.watch = watch
        self.watching = watching
        self.online = online
        self.photos = photos
        self.bytes = bytes
        self.watches = watches
        self.scanning = scanning
        self.scanDirectories = scanDirectories
        self.scanFiles = scanFiles
        self.capturePending = capturePending
        self.lastScanMs = lastScanMs
        self.overflows = overflows
        self.rescans = rescans
        self.note = note
        self.unresponsiveSince = unresponsiveSince
    }
}

public struct StatusResult: Codable, Sendable {
    public var version: String
    public var pid: Int32
    public var uptimeMs: Int64
    public var roots: [RootStatus]
    public var photos: Int
    /// True while any root is scanning.
    public var scanning: Bool
    public var clients: Int
    public var subscribers: Int
    public var sessions: Int
    public var overflows: Int
    public var rescans: Int
    public var batchRunning: Bool
    /// Photo rows the index wrote since the daemon started (a restart over
    /// unchanged folders writes none).
    public var indexWrites: Int?
    /// The inotify instance itself; absent when every root is polled.
    public var inotify: InotifyStatus?
    /// The background thumbnailer; absent when thumbnails are off.
    public var thumbnails: ThumbnailStatus?
    /// Trash folders that were the daemon's to make and that someone else had made
    /// or replaced, moved aside and made anew: the last few, newest last. Absent when none.
    public var trashRepairs: [String]?
    /// Reads of file contents the duplicate search has still to make.
    public var hashPending: Int?
    /// XMP sidecars whose marks are still to read.
    public var xmpPending: Int?
    public init(version: String, pid: Int32, uptimeMs: Int64, roots: [RootStatus], photos: Int, scanning: Bool,
                clients: Int, subscribers: Int, sessions: Int, overflows: Int, rescans: Int, batchRunning: Bool,
                indexWrites: Int? = nil, inotify: InotifyStatus? = nil, thumbnails: ThumbnailStatus? = nil,
                trashRepairs: [String]? = nil, hashPending: Int? = nil, xmpPending: Int? = nil) {
        self.trashRepairs = trashRepairs
        self.hashPending = hashPending
        self.xmpPending = xmpPending
        self.version = version
        self.pid = pid
        self.uptimeMs = uptimeMs
        self.roots = roots
        self.photos = photos
        self.scanning = scanning
        self.clients = clients
        self.subscribers = subscribers
        self.sessions = sessions
        self.overflows = overflows
        self.rescans = rescans
        self.batchRunning = batchRunning
        self.indexWrites = indexWrites
        self.inotify = inotify
        self.thumbnails = thumbnails
    }
}

public struct InotifyStatus: Codable, Sendable {
    /// Live watches, all roots together.
    public var watches: Int
    /// Entries libinotifytools keeps for watches the kernel dropped; bounded.
    public var staleEntries: Int
    /// Times inotify was started afresh to shed them (every root is then rescanned).
    public var restarts: Int
    public init(watches: Int, staleEntries: Int, restarts: Int) {
        self.watches = watches
        self.staleEntries = staleEntries
        self.restarts = restarts
    }
}

public struct ListResult: Codable, Sendable {
    /// Photos in the whole view (before offset/limit); a group counts once.
    public var total: Int
    /// Files in the whole view: every file of each group (issue 15).
    public var files: Int
    public var offset: Int
    public var photos: [PhotoSummary]
    /// Sections of the returned page, in view order.
    public var folders: [FolderSection]
    public var view: ViewSpec
    public init(total: Int, files: Int? = nil, offset: Int, photos: [PhotoSummary], folders: [FolderSection], view: ViewSpec) {
        self.total = total
        self.files = files ?? total
        self.offset = offset
        self.photos = photos
        self.folders = folders
        self.view = view
    }
}

public struct SubscribeResult: Codable, Sendable {
    public var subscribed: Bool
    public init(subscribed: Bool = true) { self.subscribed = subscribed }
}

public struct RescanResult: Codable, Sendable {
    public var roots: [String]
    public init(roots: [String]) { self.roots = roots }
}

public struct SyncResult: Codable, Sendable {
    public var synced: Bool
    public var elapsedMs: Double
    public init(synced: Bool, elapsedMs: Double) {
        self.synced = synced
        self.elapsedMs = elapsedMs
    }
}

/// A configuration that is now in force: its roots, and what changed from the last.
public struct ReloadResult: Codable, Sendable {
    /// Every root's name, in configuration order.
    public var roots: [String]
    public var added: [String]
    public var removed: [String]
    /// Roots whose settings changed: they are scanned again.
    public var changed: [String]
    /// Settings that changed but apply only at the next start (`socket`, `state_dir`).
    public var restartNeeded: [String]
    /// What the configuration loader warned about (unknown keys, ...).
    public var warnings: [String]
    public init(roots: [String], added: [String], removed: [String], changed: [String], restartNeeded: [String], warnings: [String]) {
        self.roots = roots
        self.added = added
        self.removed = removed
        self.changed = changed
        self.restartNeeded = restartNeeded
        self.warnings = warnings
    }
}

/// One entry of an ordered selection.
public struct SelectionItem: Codable, Hashable, Sendable {
    public var number: Int
    public var id: Int64
    public var root: String
    public var path: String
    public var pathRaw: String?
    public var size: Int64
    public var captureTime: String?
    /// As `PhotoSummary`'s.
    public var captureMs: Int?
    public var captureOffset: String?
    /// True when the session's view does not show it (its filter hides it, or it
    /// lies outside the view's folder): still selected, and deleted with the rest.
    public var hidden: Bool?
    /// A group's: how many files it has and all their bytes, which the selection's
    /// `bytes` and a delete count (`size` is the shown file's); absent for a photo alone.
    public var files: Int?
    public var totalSize: Int64?
    public init(number: Int, id: Int64, root: String, path: String, pathRaw: String? = nil, size: Int64, captureTime: String? = nil,
                hidden: Bool? = nil, captureMs: Int? = nil, captureOffset: String? = nil, files: Int? = nil, totalSize: Int64? = nil) {
        self.files = files
        self.totalSize = totalSize
        self.number = number
        self.captureMs = captureMs
        self.captureOffset = captureOffset
        self.id = id
        self.root = root
        self.path = path
        self.pathRaw = pathRaw
        self.size = size
        self.captureTime = captureTime
        self.hidden = hidden
    }
}

/// A session's state, returned by every session command.
public struct SessionResult: Codable, Sendable {
    public var session: String
    public var mode: SessionMode
    public var view: ViewSpec
    public var cap: Int?
    public var count: Int
    public var bytes: Int64
    /// Of `count`, the photos the session's view does not show (a filter hides them).
    public var hidden: Int?
    /// Of `count`, the orphaned sidecars (selected in a view with `orphans: true`),
    /// which are no photos; absent when none are selected.
    public var orphans: Int?
    /// What the request changed: photos added to / removed from the selection.
    public var added: Int?
    public var removed: Int?
    /// Photos a `select` or `toggle` named in bulk (`all`, `folder`, `glob`, a date
    /// range) and left out because they are protected; absent when none were.
    public var skippedProtected: Int?
    /// The idle session (nothing selected) forgotten to make room for this one,
    /// when the request created a session and the user had `max_sessions_per_user`.
    public var evicted: String?
    /// What a `select` of the duplicates did with the view's sets.
    public var duplicates: DuplicatesOutcome?
    /// What a `select` of the stacks' rest did with the view's stacks.
    public var stacks: DuplicatesOutcome?
    public init(session: String, mode: SessionMode, view: ViewSpec, cap: Int?, count: Int, bytes: Int64, hidden: Int? = nil,
                orphans: Int? = nil, added: Int? = nil, removed: Int? = nil, skippedProtected: Int? = nil, evicted: String? = nil) {
        self.orphans = orphans
        self.session = session
        self.mode = mode
        self.view = view
        self.cap = cap
        self.count = count
        self.bytes = bytes
        self.hidden = hidden
        self.added = added
        self.removed = removed
        self.skippedProtected = skippedProtected
        self.evicted = evicted
    }

    private enum CodingKeys: String, CodingKey {
        case session, mode, view, cap, count, bytes, hidden, orphans, added, removed, skippedProtected, evicted, duplicates, stacks
    }

    /// `cap` is always written, `null` when the session has none: a client reads
    /// the key, not its absence.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(session, forKey: .session)
        try container.encode(mode, forKey: .mode)
        try container.encode(view, forKey: .view)
        try container.encode(cap, forKey: .cap)
        try container.encode(count, forKey: .count)
        try container.encode(bytes, forKey: .bytes)
        try container.encodeIfPresent(hidden, forKey: .hidden)
        try container.encodeIfPresent(orphans, forKey: .orphans)
        try container.encodeIfPresent(added, forKey: .added)
        try container.encodeIfPresent(removed, forKey: .removed)
        try container.encodeIfPresent(skippedProtected, forKey: .skippedProtected)
        try container.encodeIfPresent(evicted, forKey: .evicted)
        try container.encodeIfPresent(duplicates, forKey: .duplicates)
        try container.encodeIfPresent(stacks, forKey: .stacks)
    }
}

/// The sets of exact duplicates a `select` with `duplicates` met in the view: of
/// how many it selected copies, and how many it left alone, by why.
public struct DuplicatesOutcome: Codable, Sendable, Hashable {
    public var sets: Int
    /// Absent when every set of the view had copies selected.
    public var leftAlone: LeftAlone?
    public init(sets: Int, leftAlone: LeftAlone? = nil) {
        self.sets = sets
        self.leftAlone = leftAlone
    }

    /// Sets of which nothing was selected, by why; each absent when 0.
    public struct LeftAlone: Codable, Sendable, Hashable {
        /// Every other copy has a file in a protected folder.
        public var protected: Int?
        /// The keeper is selected already: the others would make every copy selected.
        public var keeperSelected: Int?
        /// Every other copy has a file outside the view.
        public var outsideView: Int?
        public init(protected: Int? = nil, keeperSelected: Int? = nil, outsideView: Int? = nil) {
            self.protected = protected
            self.keeperSelected = keeperSelected
            self.outsideView = outsideView
        }
    }
}

public struct SelectionResult: Codable, Sendable {
    public var session: String
    public var mode: SessionMode
    public var cap: Int?
    public var items: [SelectionItem]
    public var count: Int
    public var bytes: Int64
    /// Of `count`, the photos the session's view does not show.
    public var hidden: Int?
    /// Of `count`, the orphaned sidecars (as `SessionResult.orphans`); absent when none.
    public var orphans: Int?
    public init(session: String, mode: SessionMode, cap: Int?, items: [SelectionItem], count: Int, bytes: Int64, hidden: Int? = nil,
                orphans: Int? = nil) {
        self.orphans = orphans
        self.session = session
        self.mode = mode
        self.cap = cap
        self.items = items
        self.count = count
        self.bytes = bytes
        self.hidden = hidden
    }

    private enum CodingKeys: String, CodingKey { case session, mode, cap, items, count, bytes, hidden, orphans }

    /// `cap` is always written, `null` when the session has none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(session, forKey: .session)
        try container.encode(mode, forKey: .mode)
        try container.encode(cap, forKey: .cap)
        try container.encode(items, forKey: .items)
        try container.encode(count, forKey: .count)
        try container.encode(bytes, forKey: .bytes)
        try container.encodeIfPresent(hidden, forKey: .hidden)
        try container.encodeIfPresent(orphans, forKey: .orphans)
    }
}

public struct ReorderResult: Codable, Sendable {
    public var id: Int64
    public var from: Int
    public var to: Int
    public init(id: Int64, from: Int, to: Int) {
        self.id = id
        self.from = from
        self.to = to
    }
}

/// One file of a delete plan's step (issue 15): every file it trashes, by its path.
public struct PlanFile: Codable, Hashable, Sendable {
    /// `rendered`, `raw`, `video` or `sidecar`.
    public var kind: String
    public var path: String
    public var pathRaw: String?
    public var size: Int64
    public var type: String

    public init(kind: String, path: String, pathRaw: String? = nil, size: Int64, type: String) {
        self.kind = kind
        self.path = path
        self.pathRaw = pathRaw
        self.size = size
        self.type = type
    }
}

public struct PlanItem: Codable, Hashable, Sendable {
    /// Order of trashing, 1-based.
    public var step: Int
    public var id: Int64
    public var root: String
    public var path: String
    public var pathRaw: String?
    public var size: Int64
    /// The photo's position in the session's view when the plan was made (nil if not in it).
    public var position: Int?
    /// The files this step trashes, when it is a group's (issue 15) or a part of one
    /// (`only`): each with its kind, path, size and type. `size` is theirs together.
    public var files: [PlanFile]?
    /// True for an orphaned sidecar (a `.xmp` whose photo is gone), which is no
    /// photo: a client says what it trashes by it. Absent otherwise.
    public var orphan: Bool?
    public init(step: Int, id: Int64, root: String, path: String, pathRaw: String? = nil, size: Int64, position: Int?,
                files: [PlanFile]? = nil, orphan: Bool? = nil) {
        self.files = files
        self.orphan = orphan
        self.step = step
        self.id = id
        self.root = root
        self.path = path
        self.pathRaw = pathRaw
        self.size = size
        self.position = position
    }
}

public struct DeletePlanResult: Codable, Sendable {
    public var token: String
    public var expiresInMs: Int
    public var items: [PlanItem]
    /// Photos: a group once.
    public var count: Int
    /// Photos again (`count`), under the name `history` gives them.
    public var photos: Int?
    /// Files to trash: every file of each group (issue 15); `count` for photos alone.
    public var files: Int?
    public var bytes: Int64
    public init(token: String, expiresInMs: Int, items: [PlanItem], count: Int, bytes: Int64, files: Int? = nil, photos: Int? = nil) {
        self.photos = photos
        self.files = files
        self.token = token
        self.expiresInMs = expiresInMs
        self.items = items
        self.count = count
        self.bytes = bytes
    }
}

public struct DeleteCancelResult: Codable, Sendable {
    /// Plans dropped: 1 for a token (an unknown one is `token_invalid`), the session's count without one.
    public var cancelled: Int
    public init(cancelled: Int) { self.cancelled = cancelled }
}

/// What happened to one photo of a batch (or of an undo).
public enum PhotoOutcome: String, Codable, Sendable, CaseIterable {
    case pending, trashed, restored
    case changed, vanished, permissionDenied = "permission_denied", `protected`, noTrash = "no_trash"
    case conflict, missing, error
    /// Emptied from the trash for good (`trash.empty`, or a root's `recycle_keep_days`).
    case emptied
}

public struct BatchItemResult: Codable, Hashable, Sendable {
    public var step: Int
    public var id: Int64
    public var root: String
    public var path: String
    public var pathRaw: String?
    public var size: Int64
    public var outcome: PhotoOutcome
    /// For `error`: the errno name; for others a human detail.
    public var detail: String?
    /// The group (its listed id, issue 15) this file was trashed with; absent for a photo alone.
    public var group: Int64?
    public init(step: Int, id: Int64, root: String, path: String, pathRaw: String? = nil, size: Int64, outcome: PhotoOutcome,
                detail: String? = nil, group: Int64? = nil) {
        self.group = group
        self.step = step
        self.id = id
        self.root = root
        self.path = path
        self.pathRaw = pathRaw
        self.size = size
        self.outcome = outcome
        self.detail = detail
    }
}

public enum BatchState: String, Codable, Sendable, CaseIterable {
    case running, done, interrupted, undone, partlyUndone = "partly_undone"
}

public struct BatchResult: Codable, Sendable {
    public var batch: Int64
    public var state: BatchState
    public var items: [BatchItemResult]
    public var trashed: Int
    public var skipped: Int
    public var bytes: Int64
    public init(batch: Int64, state: BatchState, items: [BatchItemResult], trashed: Int, skipped: Int, bytes: Int64) {
        self.batch = batch
        self.state = state
        self.items = items
        self.trashed = trashed
        self.skipped = skipped
        self.bytes = bytes
    }
}

public struct UndoResult: Codable, Sendable {
    public var batch: Int64
    public var state: BatchState
    public var items: [BatchItemResult]
    public var restored: Int
    public var conflicts: Int
    public var missing: Int
    public init(batch: Int64, state: BatchState, items: [BatchItemResult], restored: Int, conflicts: Int, missing: Int) {
        self.batch = batch
        self.state = state
        self.items = items
        self.restored = restored
        self.conflicts = conflicts
        self.missing = missing
    }
}

public struct BatchSummary: Codable, Sendable {
    public var batch: Int64
    public var createdAt: String
    public var state: BatchState
    /// Files, as `files` (and `trashed`, `skipped`, `restored`, `bytes`): a group's each.
    public var count: Int
    /// Photos: a group once, as `delete.prepare` counts them.
    public var photos: Int?
    /// Files: the same as `count`, under the name `delete.prepare` gives it.
    public var files: Int?
    public var trashed: Int
    public var skipped: Int
    public var restored: Int
    public var bytes: Int64
    /// Set on a batch another user ran that trashed photos of the asker's: who ran
    /// it (uid, and name where the user database has one). The counts are then of
    /// the asker's photos in it only.
    public var byUid: UInt32?
    public var byUser: String?
    /// Photos trashed and put back: a group's files are one photo, as the plan said them.
    public var photosTrashed: Int?
    public var photosRestored: Int?
    public init(batch: Int64, createdAt: String, state: BatchState, count: Int, photos: Int? = nil, files: Int? = nil, trashed: Int,
                skipped: Int, restored: Int, bytes: Int64, byUid: UInt32? = nil, byUser: String? = nil,
                photosTrashed: Int? = nil, photosRestored: Int? = nil) {
        self.photos = photos
        self.files = files
        self.photosTrashed = photosTrashed
        self.photosRestored = photosRestored
        self.byUid = byUid
        self.byUser = byUser
        self.batch = batch
        self.createdAt = createdAt
        self.state = state
        self.count = count
        self.trashed = trashed
        self.skipped = skipped
        self.restored = restored
        self.bytes = bytes
    }
}

public struct HistoryResult: Codable, Sendable {
    public var batches: [BatchSummary]
    public init(batches: [BatchSummary]) { self.batches = batches }
}

/// One photo in the trash by curatord's hand.
public struct TrashedPhoto: Codable, Hashable, Sendable {
    public var batch: Int64
    public var step: Int
    public var id: Int64
    public var root: String
    /// Its original path below the root.
    public var path: String
    public var pathRaw: String?
    public var size: Int64
    /// When its batch ran (RFC 3339, local time).
    public var trashedAt: String
    public var kind: TrashKind
    /// Where it is now (absolute).
    public var location: String
    /// The group (its listed id) this file was trashed with; absent for a photo alone.
    /// Files of one group are one photo: clients count photos and files apart.
    public var group: Int64?
    public init(batch: Int64, step: Int, id: Int64, root: String, path: String, pathRaw: String? = nil, size: Int64,
                trashedAt: String, kind: TrashKind, location: String, group: Int64? = nil) {
        self.group = group
        self.batch = batch
        self.step = step
        self.id = id
        self.root = root
        self.path = path
        self.pathRaw = pathRaw
        self.size = size
        self.trashedAt = trashedAt
        self.kind = kind
        self.location = location
    }
}

public struct TrashListResult: Codable, Sendable {
    public var photos: [TrashedPhoto]
    public var count: Int
    public var bytes: Int64
    /// What `trash.empty` with the same arguments takes to empty exactly these.
    public var token: String
    public init(photos: [TrashedPhoto], count: Int, bytes: Int64, token: String) {
        self.photos = photos
        self.count = count
        self.bytes = bytes
        self.token = token
    }
}

public struct TrashEmptyResult: Codable, Sendable {
    /// One per photo listed: `emptied`, or why it was not (`missing`, `changed`, `error`).
    public var items: [BatchItemResult]
    public var emptied: Int
    public var skipped: Int
    public var bytes: Int64
    public init(items: [BatchItemResult], emptied: Int, skipped: Int, bytes: Int64) {
        self.items = items
        self.emptied = emptied
        self.skipped = skipped
        self.bytes = bytes
    }
}
