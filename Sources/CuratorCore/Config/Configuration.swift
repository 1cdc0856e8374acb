// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials
import Glibc

/// One watched folder, validated.
/// Who may trash a root's photos through the daemon (`delete`).
public enum DeletePolicy: String, Sendable, Hashable {
    /// Whoever may write the photo's folder, as the file system says (the default).
    case writable
    /// Only the photo's owner (or root), even where others may write the folder.
    case owner
}

public struct RootConfig: Sendable, Hashable {
    public var name: String
    public var path: ByteString
    public var watch: WatchMethod
    /// Seconds between rescans for `poll` roots (and remote `auto` roots).
    public var pollInterval: Double
    /// Extra directory-name globs to skip, beside the defaults.
    public var exclude: [String]
    public var includeDefaultExclusions: Bool
    /// Wire names or extensions of the types that count; nil means all known types.
    public var types: [String]?
    /// Folders (relative paths or globs over them) whose photos cannot be selected or deleted.
    public var protected: [String]
    /// The whole root is protected.
    public var protectAll: Bool
    /// Files of one shot (RAW + JPEG, a Live Photo, their sidecars) are kept as one
    /// group (issue 15), shown by `groupShows`.
    public var groups: Bool
    public var groupShows: GroupSettings.Shown
    /// `xmp_write_embedded`: `rate` also writes the XMP inside the image files that
    /// carry one (JPEG, TIFF, DNG); off, an image file is never modified.
    public var xmpWriteEmbedded: Bool
    /// Where its trashed photos go (`trash`).
    public var trash: TrashKind
    /// `recycle_group`: the group given the recycle folders (read and restore), by
    /// name; nil keeps them the user's alone.
    public var recycleGroup: String?
    /// `recycle_keep_days`: photos trashed longer ago than this are emptied by the
    /// daemon itself (either kind); nil never.
    public var recycleKeepDays: Int?
    /// `delete`: who may trash a photo of the root.
    public var deletePolicy: DeletePolicy

    public init(name: String, path: ByteString, watch: WatchMethod = .auto, pollInterval: Double = 300,
                exclude: [String] = [], includeDefaultExclusions: Bool = true, types: [String]? = nil,
                protected: [String] = [], protectAll: Bool = false, trash: TrashKind = .freedesktop,
                recycleGroup: String? = nil, recycleKeepDays: Int? = nil, deletePolicy: DeletePolicy = .writable,
                groups: Bool = true, groupShows: GroupSettings.Shown = .rendered, xmpWriteEmbedded: Bool = false) {
        self.name = name
        self.path = path
        self.watch = watch
        self.pollInterval = pollInterval
        self.exclude = exclude
        self.includeDefaultExclusions = includeDefaultExclusions
        self.types = types
        self.protected = protected
        self.protectAll = protectAll
        self.trash = trash
        self.recycleGroup = recycleGroup
        self.recycleKeepDays = recycleKeepDays
        self.deletePolicy = deletePolicy
        self.groups = groups
        self.groupShows = groupShows
        self.xmpWriteEmbedded = xmpWriteEmbedded
    }

    /// How this root groups files, for the index.
    public var groupSettings: GroupSettings {
        GroupSettings(enabled: groups, shown: groupShows, types: types.flatMap { try? PhotoTypeFilter(names: $0) } ?? .all)
    }
}

/// The daemon's settings, after defaults and validation.
public struct Configuration: Sendable, Hashable {
    public var roots: [RootConfig]
    public var socketPath: ByteString
    /// Permission bits of the socket file (0600 per user, 0660 for a group on a server).
    public var socketMode: UInt32
    public var stateDirectory: ByteString
    public var logLevel: LogLevel
    /// Default cap on a session's selection; nil for none.
    public var selectionCap: Int?
    /// What one user's sessions may hold, so that no user can grow the daemon
    /// without bound: sessions (the least recently used idle one makes room for a
    /// new one), photos in one selection, and photos in all of them together.
    public var maxSessionsPerUser: Int
    public var maxSelection: Int
    public var maxSelectedPerUser: Int
    /// How long a delete plan's token stays valid.
    public var planTTLSeconds: Double
    public var maxClients: Int
    /// Connections one uid may hold at once, well below `maxClients`, so that one
    /// user cannot lock the others out.
    public var maxClientsPerUser: Int
    /// A connection that is not subscribed, owes nothing and has sent nothing for
    /// this long is closed; 0 for never.
    public var idleTimeoutSeconds: Double
    /// Where the home trash lives ($XDG_DATA_HOME/Trash); nil for a system service,
    /// whose photos go to each volume's `.Trash-$uid`.
    public var homeTrash: ByteString?
    /// The `thumbnails` directory the daemon makes thumbnails in; nil: none are made.
    public var thumbnailCache: ByteString?
    /// The system web gateway's user and the life of the sessions it is issued.
    public var web: WebSettings
    /// The file the settings came from, if any.
    public var source: String?

    public init(roots: [RootConfig], socketPath: ByteString, socketMode: UInt32 = 0o600, stateDirectory: ByteString,
                logLevel: LogLevel = .info, selectionCap: Int? = nil, planTTLSeconds: Double = 300, maxClients: Int = 64,
                maxClientsPerUser: Int? = nil, idleTimeoutSeconds: Double = Configuration.defaultIdleTimeoutSeconds,
                maxSessionsPerUser: Int = Configuration.defaultMaxSessionsPerUser,
                maxSelection: Int = Configuration.defaultMaxSelection,
                maxSelectedPerUser: Int = Configuration.defaultMaxSelectedPerUser,
                homeTrash: ByteString?, thumbnailCache: ByteString? = nil, web: WebSettings = WebSettings(),
                source: String? = nil) {
        self.roots = roots
        self.socketPath = socketPath
        self.socketMode = socketMode
        self.stateDirectory = stateDirectory
        self.logLevel = logLevel
        self.selectionCap = selectionCap
        self.maxSessionsPerUser = maxSessionsPerUser
        self.maxSelection = maxSelection
        self.maxSelectedPerUser = maxSelectedPerUser
        self.planTTLSeconds = planTTLSeconds
        self.maxClients = maxClients
        self.maxClientsPerUser = maxClientsPerUser ?? Self.defaultMaxClientsPerUser(maxClients)
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.homeTrash = homeTrash
        self.thumbnailCache = thumbnailCache
        self.web = web
        self.source = source
    }

    public func root(named name: String) -> RootConfig? { roots.first { $0.name == name } }

    /// A quarter of the connections: one user never holds more than that.
    public static func defaultMaxClientsPerUser(_ maxClients: Int) -> Int { max(1, maxClients / 4) }
    public static let defaultIdleTimeoutSeconds = 300.0
    public static let defaultMaxSessionsPerUser = 64
    /// A whole library of the size curatord is measured at (100 000 photos) fits.
    public static let defaultMaxSelection = 100_000
    public static let defaultMaxSelectedPerUser = 250_000
}

/// A configuration problem: the file, the key, and what is wrong, on one line.
public struct ConfigError: Error, Sendable, CustomStringConvertible {
    public var file: String?
    public var key: String?
    public var message: String

    public init(file: String?, key: String?, _ message: String) {
        self.file = file
        self.key = key
        self.message = message
    }

    public var description: String {
        var text = ""
        if let file { text += "\(file): " }
        if let key { text += "\(key): " }
        return text + message
    }
}
