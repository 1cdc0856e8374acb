// SPDX-License-Identifier: GPL-2.0-or-later

/// A pushed event: an object with an `event` key and never an `id`, which is the
/// key a client matches responses to its requests by. A photo an event is about is
/// named by `photo` (whose `id` is nested) or by `photo_id`.
public enum EventKind: String, Codable, Sendable, CaseIterable {
    case added, removed, changed, moved
    /// A root went offline (unmounted, gone) or came back.
    case offline, online
    /// A scan of a root started or finished.
    case scan
    /// A full scan found photos new to the index in one folder: their `added`
    /// events, coalesced into one (the folder is listed to see them).
    case scanned
    /// The inotify queue overflowed; a rescan follows.
    case overflow
    /// A session changed by something other than the receiving client's own request:
    /// another client's request on it, or a selected photo leaving the disk.
    case selection
    /// Progress of a running batch.
    case batch
    /// The subscriber fell too far behind; events were dropped and it should re-list.
    case dropped
    /// A photo's thumbnails became ready (or could not be made).
    case thumbnail
    /// The user's stacks (`state` "stacks") or duplicate sets ("duplicates")
    /// formed, changed or went: a client showing them lists again.
    case sets
    /// A photo's marks (stars, flag, colour label) changed: by `rate`, or another
    /// program rewrote its sidecar.
    case metadata
}

public struct Event: Codable, Sendable {
    public var event: EventKind
    public var root: String?
    public var photo: PhotoSummary?
    /// For `removed` and a batch's per-photo progress: the photo's id.
    public var photoId: Int64?
    /// For `removed` and `moved`: the former path.
    public var from: WirePath?
    /// For `scanned`: the folder (relative to its root) whose new photos it counts.
    public var folder: WirePath?
    public var session: String?
    /// For `selection`: the session's mode, view, cap (`.some(nil)`: written as `null`)
    /// and selected bytes, beside its `items` and `count`.
    public var mode: SessionMode?
    public var view: ViewSpec?
    public var cap: Int??
    public var bytes: Int64?
    /// For `selection`: selected photos its view does not show.
    public var hidden: Int?
    /// For `selection`: of `count`, the orphaned sidecars (absent when none).
    public var orphans: Int?
    public var items: [SelectionItem]?
    public var state: String?
    public var batch: Int64?
    public var done: Int?
    public var total: Int?
    public var outcome: PhotoOutcome?
    public var count: Int?
    public var message: String?
    /// For `thumbnail`: the sizes made.
    public var sizes: [ThumbnailSize]?

    public init(event: EventKind, root: String? = nil, photo: PhotoSummary? = nil, photoId: Int64? = nil, from: WirePath? = nil,
                folder: WirePath? = nil, session: String? = nil, mode: SessionMode? = nil, view: ViewSpec? = nil, cap: Int?? = nil, bytes: Int64? = nil,
                hidden: Int? = nil, orphans: Int? = nil, items: [SelectionItem]? = nil, state: String? = nil, batch: Int64? = nil,
                done: Int? = nil, total: Int? = nil, outcome: PhotoOutcome? = nil, count: Int? = nil, message: String? = nil,
                sizes: [ThumbnailSize]? = nil) {
        self.event = event
        self.root = root
        self.photo = photo
        self.photoId = photoId
        self.from = from
        self.folder = folder
        self.session = session
        self.mode = mode
        self.view = view
        self.cap = cap
        self.bytes = bytes
        self.hidden = hidden
        self.orphans = orphans
        self.items = items
        self.state = state
        self.batch = batch
        self.done = done
        self.total = total
        self.outcome = outcome
        self.count = count
        self.message = message
        self.sizes = sizes
    }
}
