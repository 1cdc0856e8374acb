// SPDX-License-Identifier: GPL-2.0-or-later

/// A stable, machine-readable error code. A struct, not an enum, so that a
/// client built against an older list still decodes codes added later.
public struct ErrorCode: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    // Framing and arguments
    public static let badRequest = ErrorCode("bad_request")
    public static let requestTooLarge = ErrorCode("request_too_large")
    public static let unknownCommand = ErrorCode("unknown_command")
    public static let invalidArgument = ErrorCode("invalid_argument")
    public static let tooManyClients = ErrorCode("too_many_clients")
    /// This user holds as many connections as one user may.
    public static let tooManyConnections = ErrorCode("too_many_connections")
    /// The connection was closed for having been idle too long.
    public static let idleTimeout = ErrorCode("idle_timeout")
    public static let internalError = ErrorCode("internal_error")
    public static let shuttingDown = ErrorCode("shutting_down")
    /// The journal of batches could not be written or read; the message says what
    /// the disk holds.
    public static let journalFailed = ErrorCode("journal_failed")
    /// A reload found the configuration file unreadable or invalid; the one in force stays.
    public static let configInvalid = ErrorCode("config_invalid")

    // Lookups
    public static let noSuchRoot = ErrorCode("no_such_root")
    public static let noSuchFolder = ErrorCode("no_such_folder")
    public static let noSuchPhoto = ErrorCode("no_such_photo")
    public static let noSuchPosition = ErrorCode("no_such_position")
    public static let noSuchBatch = ErrorCode("no_such_batch")

    // Sessions and selections
    public static let notInSelectMode = ErrorCode("not_in_select_mode")
    public static let selectionFull = ErrorCode("selection_full")
    public static let protected = ErrorCode("protected")
    public static let filterActive = ErrorCode("filter_active")
    public static let rootOffline = ErrorCode("root_offline")
    public static let tooManySessions = ErrorCode("too_many_sessions")

    // Deletes
    public static let emptySelection = ErrorCode("empty_selection")
    public static let tokenExpired = ErrorCode("token_expired")
    public static let tokenInvalid = ErrorCode("token_invalid")
    public static let batchRunning = ErrorCode("batch_running")
    public static let permissionDenied = ErrorCode("permission_denied")
    public static let notUndoable = ErrorCode("not_undoable")
    /// curatord cannot make a trash that belongs to the caller (it lacks the privilege): no plan is made.
    public static let trashUnavailable = ErrorCode("trash_unavailable")

    // Marks
    /// `rate`: a sidecar could not be read or written (not XMP, a symlink, or the
    /// file system refused); the message names the file.
    public static let sidecarFailed = ErrorCode("sidecar_failed")

    // Thumbnails
    public static let thumbnailsOff = ErrorCode("thumbnails_off")

    // The web gateway's logins
    /// `web.login`: no such user, a wrong password, or no web password set: one
    /// answer for all, so that it tells nobody which user names exist.
    public static let loginFailed = ErrorCode("login_failed")
    /// `web.login`: too many failures for this user or this address; the message
    /// says when to try again.
    public static let loginThrottled = ErrorCode("login_throttled")
    /// `web.attach`, or any request on an attached connection: the web session is
    /// unknown, expired or ended.
    public static let notSignedIn = ErrorCode("not_signed_in")
}

/// The `error` object of a failed response.
public struct ProtocolError: Error, Codable, Hashable, Sendable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String
    /// Photos the error is about (for `protected`, `no_such_photo`, ...).
    public var photos: [Int64]?
    /// Positions the error is about (for `no_such_position`).
    public var positions: [Int]?
    /// The argument at fault (for `invalid_argument`).
    public var argument: String?
    /// The root the error is about (for `batch_running`: the root a batch holds).
    public var root: String?

    public init(_ code: ErrorCode, _ message: String, photos: [Int64]? = nil, positions: [Int]? = nil, argument: String? = nil,
                root: String? = nil) {
        self.code = code
        self.message = message
        self.photos = photos
        self.positions = positions
        self.argument = argument
        self.root = root
    }

    public var description: String { "\(code): \(message)" }
}
