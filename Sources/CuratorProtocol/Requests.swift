// SPDX-License-Identifier: GPL-2.0-or-later

// One type per command: its name, its arguments, its result (`ProtocolRequest`).
// Every request may carry `session` (default: the caller's "default" session).

public struct HelloRequest: ProtocolRequest {
    public static let name = "hello"
    public typealias Result = HelloResult
    public init() {}
}

public struct StatusRequest: ProtocolRequest {
    public static let name = "status"
    public typealias Result = StatusResult
    public init() {}
}

/// On the wire the view's fields sit beside `session`, `offset` and `limit`.
public struct ListRequest: ProtocolRequest {
    public static let name = "list"
    public typealias Result = ListResult
    public var session: String?
    /// When any view field is given, the listing uses it instead of the session's view.
    public var view: ViewSpec?
    public var offset: Int?
    public var limit: Int?
    /// Only these keys of each photo (all when nil), for clients that need less.
    public var fields: [String]?
    public init(session: String? = nil, view: ViewSpec? = nil, offset: Int? = nil, limit: Int? = nil, fields: [String]? = nil) {
        self.session = session
        self.view = view
        self.offset = offset
        self.limit = limit
        self.fields = fields
    }
    private enum CodingKeys: String, CodingKey { case session, offset, limit, fields }
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let literals = NumberLiterals.of(decoder.userInfo)
        session = try container.decodeIfPresent(String.self, forKey: .session)
        offset = try container.integer(Int.self, forKey: .offset, literals: literals, minimum: 0)
        // 0 is a page of no photos: the view's total alone.
        limit = try container.integer(Int.self, forKey: .limit, literals: literals, minimum: 0)
        fields = try container.decodeIfPresent([String].self, forKey: .fields)
        let spec = try ViewSpec(from: decoder)
        view = spec == ViewSpec() ? nil : spec
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(session, forKey: .session)
        try container.encodeIfPresent(offset, forKey: .offset)
        try container.encodeIfPresent(limit, forKey: .limit)
        try container.encodeIfPresent(fields, forKey: .fields)
        try view?.encode(to: encoder)
    }
}

public struct SubscribeRequest: ProtocolRequest {
    public static let name = "subscribe"
    public typealias Result = SubscribeResult
    /// Only events of these roots (all when nil).
    public var roots: [String]?
    /// The caller's sessions whose changes to follow (`selection` events); all of
    /// them when nil, none when empty.
    public var sessions: [String]?
    /// Also `thumbnail` events (a grid that shows thumbnails as they are made):
    /// off by default, since the background announces every photo of a library.
    public var thumbnails: Bool?
    public init(roots: [String]? = nil, sessions: [String]? = nil, thumbnails: Bool? = nil) {
        self.roots = roots
        self.sessions = sessions
        self.thumbnails = thumbnails
    }
}

public struct RescanRequest: ProtocolRequest {
    public static let name = "rescan"
    public typealias Result = RescanResult
    /// One root by name, or all when nil.
    public var root: String?
    public init(root: String? = nil) { self.root = root }
}

/// A cookie: the client creates a file, and the daemon answers once it has seen
/// that file's event, giving read-your-writes without sleeping.
public struct SyncRequest: ProtocolRequest {
    public static let name = "sync"
    public typealias Result = SyncResult
    public var root: String?
    public var timeoutMs: Int?
    public init(root: String? = nil, timeoutMs: Int? = nil) {
        self.root = root
        self.timeoutMs = timeoutMs
    }
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        root = try container.decodeIfPresent(String.self, forKey: .root)
        timeoutMs = try container.integer(Int.self, forKey: .timeoutMs, literals: NumberLiterals.of(decoder.userInfo), minimum: 0)
    }
}

/// Read the configuration file again and apply it; answered once it is in force.
/// Only root and the user the daemon runs as may ask.
public struct ReloadRequest: ProtocolRequest {
    public static let name = "reload"
    public typealias Result = ReloadResult
    public init() {}
}

/// Empties the session's selection.
public struct ClearRequest: ProtocolRequest {
    public static let name = "clear"
    public typealias Result = SessionResult
    public var session: String?
    public init(session: String? = nil) { self.session = session }
}

/// The session's selection, in its order.
public struct SelectionRequest: ProtocolRequest {
    public static let name = "selection"
    public typealias Result = SelectionResult
    public var session: String?
    public init(session: String? = nil) { self.session = session }
}

/// On the wire the view's fields sit beside `session`.
public struct ViewRequest: ProtocolRequest {
    public static let name = "view"
    public typealias Result = SessionResult
    public var session: String?
    public var view: ViewSpec
    public init(session: String? = nil, view: ViewSpec) {
        self.session = session
        self.view = view
    }
    private enum CodingKeys: String, CodingKey { case session }
    public init(from decoder: any Decoder) throws {
        session = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(String.self, forKey: .session)
        view = try ViewSpec(from: decoder)
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(session, forKey: .session)
        try view.encode(to: encoder)
    }
}

public enum SessionMode: String, Codable, Sendable { case view, select }

public struct ModeRequest: ProtocolRequest {
    public static let name = "mode"
    public typealias Result = SessionResult
    public var session: String?
    public var mode: SessionMode
    /// Optional cap on the selection size for this session (select mode only).
    public var cap: Int?
    public init(session: String? = nil, mode: SessionMode, cap: Int? = nil) {
        self.session = session
        self.mode = mode
        self.cap = cap
    }
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        session = try container.decodeIfPresent(String.self, forKey: .session)
        mode = try container.decode(SessionMode.self, forKey: .mode)
        cap = try container.integer(Int.self, forKey: .cap, literals: NumberLiterals.of(decoder.userInfo))
    }
}

/// Which photos a select/deselect/toggle names: exactly one of these kinds.
public struct PhotoSelector: Codable, Sendable, Hashable {
    /// Positions in the session's view as a person types them: "3 5 9-12" (commas also work).
    public var positions: String?
    public var ids: [Int64]?
    /// Everything in the session's view.
    public var all: Bool?
    /// Everything in this folder of the view's root (and below it).
    public var folder: String?
    /// Everything in the view whose path matches this glob.
    public var glob: String?
    /// Everything in the view captured within this range.
    public var from: String?
    public var to: String?
    /// `rest`: every copy but the keeper of each set of exact duplicates in the view.
    public var duplicates: DuplicatesChoice?
    /// `rest`: every frame but the keeper of each stack in the view.
    public var stacks: DuplicatesChoice?
    /// Everything in the view with these marks, as the view filter's keys of the
    /// same names say (`rating_min`, `rating_max`, `flags`, `labels`).
    public var ratingMin: Int?
    public var ratingMax: Int?
    public var flags: [String]?
    public var labels: [String]?

    /// Whether it names photos by their marks.
    public var hasMarks: Bool { ratingMin != nil || ratingMax != nil || flags != nil || labels != nil }

    /// True when it names photos by what they share (`all`, `folder`, `glob`, a date
    /// range) rather than one by one (`positions`, `ids`).
    public var namesInBulk: Bool { positions == nil && ids == nil }

    public init(positions: String? = nil, ids: [Int64]? = nil, all: Bool? = nil, folder: String? = nil,
                glob: String? = nil, from: String? = nil, to: String? = nil) {
        self.positions = positions
        self.ids = ids
        self.all = all
        self.folder = folder
        self.glob = glob
        self.from = from
        self.to = to
    }
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        positions = try container.decodeIfPresent(String.self, forKey: .positions)
        ids = try container.integers(Int64.self, forKey: .ids, literals: NumberLiterals.of(decoder.userInfo))
        all = try container.decodeIfPresent(Bool.self, forKey: .all)
        folder = try container.decodeIfPresent(String.self, forKey: .folder)
        glob = try container.decodeIfPresent(String.self, forKey: .glob)
        from = try container.decodeIfPresent(String.self, forKey: .from)
        to = try container.decodeIfPresent(String.self, forKey: .to)
        duplicates = try container.decodeIfPresent(DuplicatesChoice.self, forKey: .duplicates)
        stacks = try container.decodeIfPresent(DuplicatesChoice.self, forKey: .stacks)
        ratingMin = try container.integer(Int.self, forKey: .ratingMin, literals: NumberLiterals.of(decoder.userInfo))
        ratingMax = try container.integer(Int.self, forKey: .ratingMax, literals: NumberLiterals.of(decoder.userInfo))
        flags = try container.decodeIfPresent([String].self, forKey: .flags)
        labels = try container.decodeIfPresent([String].self, forKey: .labels)
    }
}

/// What `select` takes of the sets of exact duplicates.
public enum DuplicatesChoice: String, Codable, Sendable, Hashable {
    /// Every copy but each set's keeper.
    case rest
}

/// `select`, `deselect` and `toggle`: a session and the photos named. On the wire
/// the selector's fields sit beside `session`, not in a nested object.
public protocol SelectorRequest: ProtocolRequest where Result == SessionResult {
    var session: String? { get }
    var selector: PhotoSelector { get }
    init(session: String?, selector: PhotoSelector)
}

private enum SessionKey: String, CodingKey { case session }

extension SelectorRequest {
    public init(from decoder: any Decoder) throws {
        self.init(session: try decoder.container(keyedBy: SessionKey.self).decodeIfPresent(String.self, forKey: .session),
                  selector: try PhotoSelector(from: decoder))
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: SessionKey.self)
        try container.encodeIfPresent(session, forKey: .session)
        try selector.encode(to: encoder)
    }
}

public struct SelectRequest: SelectorRequest {
    public static let name = "select"
    public var session: String?
    public var selector: PhotoSelector
    public init(session: String? = nil, selector: PhotoSelector) {
        self.session = session
        self.selector = selector
    }
}

public struct DeselectRequest: SelectorRequest {
    public static let name = "deselect"
    public var session: String?
    public var selector: PhotoSelector
    public init(session: String? = nil, selector: PhotoSelector) {
        self.session = session
        self.selector = selector
    }
}

public struct ToggleRequest: SelectorRequest {
    public static let name = "toggle"
    public var session: String?
    public var selector: PhotoSelector
    public init(session: String? = nil, selector: PhotoSelector) {
        self.session = session
        self.selector = selector
    }
}

public struct ReorderRequest: ProtocolRequest {
    public static let name = "reorder"
    public typealias Result = ReorderResult
    public var session: String?
    /// The photo to move, by position in the session's view or by photo id
    /// (`photo`: the request's own `id` is the envelope's).
    public var position: Int?
    public var photo: Int64?
    /// The new 1-based position in the view.
    public var to: Int
    public init(session: String? = nil, position: Int? = nil, photo: Int64? = nil, to: Int) {
        self.session = session
        self.position = position
        self.photo = photo
        self.to = to
    }
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let literals = NumberLiterals.of(decoder.userInfo)
        session = try container.decodeIfPresent(String.self, forKey: .session)
        position = try container.integer(Int.self, forKey: .position, literals: literals)
        photo = try container.integer(Int64.self, forKey: .photo, literals: literals)
        to = try container.integer(Int.self, forKey: .to, literals: literals)
    }
}

public struct DeletePrepareRequest: ProtocolRequest {
    public static let name = "delete.prepare"
    public typealias Result = DeletePlanResult
    public var session: String?
    /// Delete these photos instead of the session's selection (a swipe-to-delete).
    public var ids: [Int64]?
    /// `raw` or `rendered`: only that part of each group (issue 15), with the
    /// sidecars that belong to those files. Nil: every file of each group.
    public var only: String?
    public init(session: String? = nil, ids: [Int64]? = nil, only: String? = nil) {
        self.session = session
        self.ids = ids
        self.only = only
    }
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        session = try container.decodeIfPresent(String.self, forKey: .session)
        only = try container.decodeIfPresent(String.self, forKey: .only)
        ids = try container.integers(Int64.self, forKey: .ids, literals: NumberLiterals.of(decoder.userInfo))
    }
}

public struct DeleteConfirmRequest: ProtocolRequest {
    public static let name = "delete.confirm"
    public typealias Result = BatchResult
    public var session: String?
    public var token: String
    public init(session: String? = nil, token: String) {
        self.session = session
        self.token = token
    }
}

public struct DeleteCancelRequest: ProtocolRequest {
    public static let name = "delete.cancel"
    public typealias Result = DeleteCancelResult
    public var session: String?
    public var token: String?
    public init(session: String? = nil, token: String? = nil) {
        self.session = session
        self.token = token
    }
}

public struct UndoRequest: ProtocolRequest {
    public static let name = "undo"
    public typealias Result = UndoResult
    /// A batch id; the caller's latest undoable batch when nil.
    public var batch: Int64?
    public init(batch: Int64? = nil) { self.batch = batch }
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        batch = try container.integer(Int64.self, forKey: .batch, literals: NumberLiterals.of(decoder.userInfo))
    }
}

public struct HistoryRequest: ProtocolRequest {
    public static let name = "history"
    public typealias Result = HistoryResult
    public var limit: Int?
    public init(limit: Int? = nil) { self.limit = limit }
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        limit = try container.integer(Int.self, forKey: .limit, literals: NumberLiterals.of(decoder.userInfo), minimum: 0)
    }
}

/// `trash.list` and `trash.empty`: the caller's photos in the trash by curatord's
/// hand, of either kind; `root` narrows to one root, `older_than_days` to photos
/// trashed at least that many days ago. `trash.empty` takes the `token` of the
/// `trash.list` with the same arguments, and empties exactly what that listed.
public protocol TrashRequest: ProtocolRequest {
    var root: String? { get }
    var olderThanDays: Int? { get }
    var token: String? { get }
    init(root: String?, olderThanDays: Int?, token: String?)
}

private enum TrashKeys: String, CodingKey { case root, olderThanDays, token }

extension TrashRequest {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: TrashKeys.self)
        self.init(root: try container.decodeIfPresent(String.self, forKey: .root),
                  olderThanDays: try container.integer(Int.self, forKey: .olderThanDays, literals: NumberLiterals.of(decoder.userInfo),
                                                       minimum: 0),
                  token: try container.decodeIfPresent(String.self, forKey: .token))
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: TrashKeys.self)
        try container.encodeIfPresent(root, forKey: .root)
        try container.encodeIfPresent(olderThanDays, forKey: .olderThanDays)
        try container.encodeIfPresent(token, forKey: .token)
    }
}

public struct TrashListRequest: TrashRequest {
    public static let name = "trash.list"
    public typealias Result = TrashListResult
    public var root: String?
    public var olderThanDays: Int?
    public var token: String?
    public init(root: String? = nil, olderThanDays: Int? = nil, token: String? = nil) {
        self.root = root
        self.olderThanDays = olderThanDays
        self.token = token
    }
}

public struct TrashEmptyRequest: TrashRequest {
    public static let name = "trash.empty"
    public typealias Result = TrashEmptyResult
    public var root: String?
    public var olderThanDays: Int?
    public var token: String?
    public init(root: String? = nil, olderThanDays: Int? = nil, token: String? = nil) {
        self.root = root
        self.olderThanDays = olderThanDays
        self.token = token
    }
}
