// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
import FoundationEssentials
import Glibc

/// Reads a JSON5 configuration file (Foundation's `allowsJSON5`) and validates it
/// into a `Configuration`. Every error names the file and the key; unknown keys
/// are collected as warnings rather than refused.
public struct ConfigLoader {
    public var environment: Environment
    public private(set) var warnings: [String] = []

    public init(environment: Environment = Environment()) { self.environment = environment }

    static let topLevelKeys: Set<String> = [
        "roots", "socket", "socket_mode", "state_dir", "log_level", "selection_cap", "plan_ttl_seconds", "max_clients", "trash_dir",
        "max_clients_per_user", "idle_timeout_seconds", "max_sessions_per_user", "max_selection", "max_selected_per_user",
        "thumbnails", "thumbnail_dir", "web_gateway_user", "web_session_idle_seconds", "web_session_max_seconds",
    ]
    static let rootKeys: Set<String> = [
        "name", "path", "watch", "poll_interval_seconds", "exclude", "default_exclusions", "types", "protected", "protect_all", "delete",
        "trash", "recycle_group", "recycle_keep_days", "groups", "group_shows",
        "xmp_write_embedded",
    ]

    /// The largest configuration file read; a larger one is refused whole, never cut.
    static let maximumSize = 1 << 20

    /// Loads `path`. Nothing is written, whatever happens.
    public mutating func load(file path: String) throws(ConfigError) -> Configuration {
        let data: Data
        do {
            let fd = try FileDescriptor.open(ByteString(path), O_RDONLY)
            // A configuration is small: a megabyte is plenty, and reading /dev/zero by mistake ends.
            data = Data(try fd.closeAfter { (fd) throws(SystemError) in try fd.readAll(limit: Self.maximumSize) })
        } catch where error.errno == .fileTooLarge {
            throw ConfigError(file: path, key: nil, "is larger than 1 MiB: not a configuration file; nothing of it was used")
        } catch {
            throw ConfigError(file: path, key: nil, "cannot read the configuration file: \(error.errno.message)")
        }
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        let value: JSONValue
        do {
            value = try decoder.decode(JSONValue.self, from: data)
        } catch {
            // The decoder does not say where; the locator does, for a syntax error.
            let problem = JSON5Locator.firstProblem(in: [UInt8](data)).map { "\($0)" } ?? Self.describe(error)
            throw ConfigError(file: path, key: nil, "not valid JSON5: \(problem)")
        }
        return try parse(value, file: path)
    }

    /// Settings from the command line alone (`curatord --root DIR ...`).
    public mutating func fromArguments(roots: [String], socket: String?, stateDirectory: String?) throws(ConfigError) -> Configuration {
        var items: [JSONValue] = []
        for root in roots {
            items.append(.object(["path": .string(root)], order: ["path"]))
        }
        var object: [String: JSONValue] = ["roots": .array(items)]
        if let socket { object["socket"] = .string(socket) }
        if let stateDirectory { object["state_dir"] = .string(stateDirectory) }
        return try parse(.object(object, order: Array(object.keys)), file: nil)
    }

    public mutating func parse(_ value: JSONValue, file: String?) throws(ConfigError) -> Configuration {
        guard case .object(let top, let order) = value else {
            throw ConfigError(file: file, key: nil, "the configuration must be an object, not \(value.typeName)")
        }
        for key in order where !Self.topLevelKeys.contains(key) {
            warnings.append("\(file.map { "\($0): " } ?? "")\(key): unknown key, ignored\(Self.suggestion(key, among: Self.topLevelKeys))")
        }
        func fail(_ key: String, _ message: String) -> ConfigError { ConfigError(file: file, key: key, message) }

        func string(_ key: String, in object: [String: JSONValue], path: String) throws(ConfigError) -> String? {
            guard let v = object[key], v != .null else { return nil }
            guard case .string(let s) = v else { throw fail(path, "must be a string, not \(v.typeName)") }
            return s
        }
        func number(_ key: String, in object: [String: JSONValue], path: String) throws(ConfigError) -> Double? {
            guard let v = object[key], v != .null else { return nil }
            guard case .number(let n) = v else { throw fail(path, "must be a number, not \(v.typeName)") }
            return n
        }
        func bool(_ key: String, in object: [String: JSONValue], path: String) throws(ConfigError) -> Bool? {
            guard let v = object[key], v != .null else { return nil }
            guard case .bool(let b) = v else { throw fail(path, "must be true or false, not \(v.typeName)") }
            return b
        }
        func strings(_ key: String, in object: [String: JSONValue], path: String) throws(ConfigError) -> [String]? {
            guard let v = object[key], v != .null else { return nil }
            guard case .array(let items) = v else { throw fail(path, "must be an array of strings, not \(v.typeName)") }
            var result: [String] = []
            for (i, item) in items.enumerated() {
                guard case .string(let s) = item else { throw fail("\(path)[\(i)]", "must be a string, not \(item.typeName)") }
                result.append(s)
            }
            return result
        }
        func absolute(_ raw: String, key: String) throws(ConfigError) -> String {
            var p = raw
            if p.hasPrefix("~/") { p = environment.home + p.dropFirst(1) }
            if !p.hasPrefix("/") {
                let cwd = FileManager.default.currentDirectoryPath
                p = cwd + "/" + p
            }
            while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
            guard !p.contains("\0") else { throw fail(key, "must not contain a NUL byte") }
            return p
        }

        // Roots
        guard let rootsValue = top["roots"] else { throw fail("roots", "is missing: name at least one folder to watch") }
        guard case .array(let rootItems) = rootsValue else { throw fail("roots", "must be an array, not \(rootsValue.typeName)") }
        guard !rootItems.isEmpty else { throw fail("roots", "is empty: name at least one folder to watch") }
        var roots: [RootConfig] = []
        for (i, item) in rootItems.enumerated() {
            let at = "roots[\(i)]"
            let object: [String: JSONValue]
            let keys: [String]
            switch item {
            case .string(let s): object = ["path": .string(s)]; keys = ["path"]
            case .object(let o, let k): object = o; keys = k
            default: throw fail(at, "must be an object or a path string, not \(item.typeName)")
            }
            for key in keys where !Self.rootKeys.contains(key) {
                warnings.append("\(file.map { "\($0): " } ?? "")\(at).\(key): unknown key, ignored\(Self.suggestion(key, among: Self.rootKeys))")
            }
            guard let rawPath = try string("path", in: object, path: "\(at).path"), !rawPath.isEmpty else {
                throw fail("\(at).path", "is missing")
            }
            let path = try absolute(rawPath, key: "\(at).path")
            let status: FileStatus
            do {
                status = try FileStatus.following(ByteString(path))
            } catch {
                throw fail("\(at).path", "\(path): \(error.errno.message)")
            }
            guard status.isDirectory else { throw fail("\(at).path", "\(path) is not a directory") }

            var name = try string("name", in: object, path: "\(at).name") ?? ByteString(path).lastComponent.lossyString
            if name.isEmpty { name = "root" }
            guard name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }), name.count <= 64 else {
                throw fail("\(at).name", "\"\(name)\" must be 1-64 letters, digits, '-', '_' or '.'")
            }
            if roots.contains(where: { $0.name == name }) {
                throw fail("\(at).name", "\"\(name)\" is used by another root; give each root its own name")
            }
            if let clash = roots.first(where: { ByteString(path).isWithin($0.path) || $0.path.isWithin(ByteString(path)) }) {
                throw fail("\(at).path", "\(path) overlaps root \"\(clash.name)\" (\(clash.path)); roots must not nest")
            }
            var watch = WatchMethod.auto
            if let w = try string("watch", in: object, path: "\(at).watch") {
                guard let method = WatchMethod(rawValue: w) else {
                    throw fail("\(at).watch", "must be \"inotify\", \"poll\" or \"auto\", not \"\(w)\"")
                }
                watch = method
            }
            let interval = try number("poll_interval_seconds", in: object, path: "\(at).poll_interval_seconds") ?? 300
            guard interval >= 1 && interval <= 86400 else {
                throw fail("\(at).poll_interval_seconds", "must be between 1 and 86400 seconds")
            }
            let exclude = try strings("exclude", in: object, path: "\(at).exclude") ?? []
            do {
                try Exclusions.validate(patterns: exclude)
            } catch {
                throw fail("\(at).exclude", "\(error)")
            }
            let defaults = try bool("default_exclusions", in: object, path: "\(at).default_exclusions") ?? true
            let types = try strings("types", in: object, path: "\(at).types")
            if let types {
                if types.isEmpty { throw fail("\(at).types", "is empty: leave it out to accept every photo type") }
                do {
                    _ = try PhotoTypeFilter(names: types)
                } catch {
                    throw fail("\(at).types", "\(error)")
                }
            }
            var protectAll = try bool("protect_all", in: object, path: "\(at).protect_all") ?? false
            var protected: [String] = []
            if let p = object["protected"] {
                if case .bool(let b) = p {
                    protectAll = protectAll || b
                } else {
                    protected = try strings("protected", in: object, path: "\(at).protected") ?? []
                }
            }
            let groups = try bool("groups", in: object, path: "\(at).groups") ?? true
            var shows = GroupSettings.Shown.rendered
            if let text = try string("group_shows", in: object, path: "\(at).group_shows") {
                guard let value = GroupSettings.Shown(rawValue: text) else {
                    throw fail("\(at).group_shows", "must be \"rendered\" or \"raw\", not \"\(text)\"")
                }
                shows = value
            }
            let writeEmbedded = try bool("xmp_write_embedded", in: object, path: "\(at).xmp_write_embedded") ?? false
            var deletePolicy = DeletePolicy.writable
            if let d = try string("delete", in: object, path: "\(at).delete") {
                guard let policy = DeletePolicy(rawValue: d) else {
                    throw fail("\(at).delete", "must be \"writable\" (whoever may write the folder) or \"owner\" (only the file's owner), not \"\(d)\"")
                }
                deletePolicy = policy
            }
            var trash = TrashKind.freedesktop
            if let t = try string("trash", in: object, path: "\(at).trash") {
                guard let kind = TrashKind(rawValue: t) else {
                    throw fail("\(at).trash", "must be \"freedesktop\" (the user's own trash) or \"recycle\" (<root>/.recycle/<user>), not \"\(t)\"")
                }
                trash = kind
            }
            let recycleGroup = try string("recycle_group", in: object, path: "\(at).recycle_group")
            if let recycleGroup {
                guard trash.rules.takesRecycleGroup else { throw fail("\(at).recycle_group", "applies to trash: \"recycle\" only") }
                guard UserAccount.groupID(named: recycleGroup) != nil else {
                    throw fail("\(at).recycle_group", "there is no group \"\(recycleGroup)\"")
                }
            }
            var keepDays: Int?
            if let days = try number("recycle_keep_days", in: object, path: "\(at).recycle_keep_days") {
                guard days >= 1, days <= 36500, days == days.rounded() else {
                    throw fail("\(at).recycle_keep_days", "must be a whole number of days from 1 to 36500 (leave it out to keep trashed photos until emptied)")
                }
                keepDays = Int(days)
            }
            roots.append(RootConfig(name: name, path: ByteString(path), watch: watch, pollInterval: interval,
                                    exclude: exclude, includeDefaultExclusions: defaults, types: types,
                                    protected: protected, protectAll: protectAll, trash: trash,
                                    recycleGroup: recycleGroup, recycleKeepDays: keepDays, deletePolicy: deletePolicy,
                                    groups: groups, groupShows: shows, xmpWriteEmbedded: writeEmbedded))
        }

        let socket = try absolute(try string("socket", in: top, path: "socket") ?? environment.defaultSocketPath, key: "socket")
        guard socket.utf8.count <= UnixSocket.maxPathLength else {
            throw fail("socket", "\(socket) is longer than \(UnixSocket.maxPathLength) bytes, the limit for a Unix socket path")
        }
        var socketMode: UInt32 = 0o600
        if let m = try string("socket_mode", in: top, path: "socket_mode") {
            guard let mode = UInt32(m, radix: 8), mode & ~0o777 == 0, mode & 0o600 == 0o600 else {
                throw fail("socket_mode", "must be an octal mode such as \"0600\" or \"0660\", including owner read/write")
            }
            socketMode = mode
            if mode & 0o007 != 0 {
                warnings.append("\(file.map { "\($0): " } ?? "")socket_mode: \"\(m)\" lets every user of this machine use the socket "
                                + "(each request still acts with its own uid's permissions); \"0660\" lets only the socket's group in")
            }
        }
        let state = try absolute(try string("state_dir", in: top, path: "state_dir") ?? environment.defaultStateDirectory, key: "state_dir")
        var level = LogLevel.info
        if let l = try string("log_level", in: top, path: "log_level") {
            guard let parsed = LogLevel(word: l) else {
                throw fail("log_level", "must be one of error, warning, notice, info, debug, not \"\(l)\"")
            }
            level = parsed
        }
        func whole(_ key: String, from low: Int, to high: Int, default value: Int) throws(ConfigError) -> Int {
            guard let n = try number(key, in: top, path: key) else { return value }
            guard n >= Double(low), n <= Double(high), n == n.rounded() else { throw fail(key, "must be a whole number from \(low) to \(high)") }
            return Int(n)
        }
        let maxSessions = try whole("max_sessions_per_user", from: 1, to: 10_000, default: Configuration.defaultMaxSessionsPerUser)
        let maxSelection = try whole("max_selection", from: 1, to: 1_000_000, default: Configuration.defaultMaxSelection)
        let maxSelected = try whole("max_selected_per_user", from: 1, to: 10_000_000,
                                    default: max(Configuration.defaultMaxSelectedPerUser, maxSelection))
        guard maxSelected >= maxSelection else {
            throw fail("max_selected_per_user", "is \(maxSelected), below max_selection (\(maxSelection)): one selection could never be full")
        }
        var cap: Int?
        if let c = try number("selection_cap", in: top, path: "selection_cap") {
            guard c >= 1, c <= Double(maxSelection), c == c.rounded() else {
                throw fail("selection_cap", "must be a whole number from 1 to max_selection (\(maxSelection))")
            }
            cap = Int(c)
        }
        let ttl = try number("plan_ttl_seconds", in: top, path: "plan_ttl_seconds") ?? 300
        guard ttl >= 1 && ttl <= 86400 else { throw fail("plan_ttl_seconds", "must be between 1 and 86400") }
        let maxClients = try number("max_clients", in: top, path: "max_clients") ?? 64
        guard maxClients >= 1 && maxClients <= 512 else { throw fail("max_clients", "must be between 1 and 512") }
        let perUser = try number("max_clients_per_user", in: top, path: "max_clients_per_user")
        if let perUser {
            guard perUser >= 1, perUser <= maxClients, perUser == perUser.rounded() else {
                throw fail("max_clients_per_user", "must be a whole number from 1 to max_clients (\(Int(maxClients)))")
            }
        }
        let idle = try number("idle_timeout_seconds", in: top, path: "idle_timeout_seconds") ?? Configuration.defaultIdleTimeoutSeconds
        guard idle >= 0 && idle <= 86400 else { throw fail("idle_timeout_seconds", "must be between 0 (never) and 86400") }
        let gateway = try string("web_gateway_user", in: top, path: "web_gateway_user")
        if let gateway, gateway.isEmpty { throw fail("web_gateway_user", "must name a user (or a uid), or be left out") }
        let webIdle = try whole("web_session_idle_seconds", from: 1, to: 2_592_000, default: WebSettings.defaultIdleSeconds)
        let webMax = try whole("web_session_max_seconds", from: 1, to: 31_536_000, default: WebSettings.defaultMaxSeconds)
        var trash: String?
        if let configured = try string("trash_dir", in: top, path: "trash_dir") {
            trash = try absolute(configured, key: "trash_dir")
        } else if !environment.isUnderSystemManager || environment.variables["XDG_DATA_HOME"] != nil {
            // Run by hand (root included) the daemon has a home trash of its own; only a
            // service of the system manager does not, and uses each volume's .Trash-$uid.
            trash = environment.homeTrash
        }

        var thumbnails: String?
        if try bool("thumbnails", in: top, path: "thumbnails") ?? true {
            if let dir = try string("thumbnail_dir", in: top, path: "thumbnail_dir") {
                thumbnails = try absolute(dir, key: "thumbnail_dir")
            } else {
                thumbnails = environment.thumbnailCache
            }
        }

        return Configuration(roots: roots, socketPath: ByteString(socket), socketMode: socketMode,
                             stateDirectory: ByteString(state), logLevel: level, selectionCap: cap,
                             planTTLSeconds: ttl, maxClients: Int(maxClients), maxClientsPerUser: perUser.map { Int($0) },
                             idleTimeoutSeconds: idle, maxSessionsPerUser: maxSessions,
                             maxSelection: maxSelection, maxSelectedPerUser: maxSelected,
                             homeTrash: trash.map { ByteString($0) }, thumbnailCache: thumbnails.map { ByteString($0) },
                             web: WebSettings(gatewayUser: gateway, idleSeconds: webIdle, maxSeconds: webMax), source: file)
    }

    /// " (did you mean "socket"?)" for a key a typo or two away from a known one.
    static func suggestion(_ key: String, among known: Set<String>) -> String {
        let typed = Array(key.lowercased())
        var best: (key: String, distance: Int)?
        for candidate in known.sorted() {
            let distance = editDistance(typed, Array(candidate))
            if distance < (best?.distance ?? 3) { best = (candidate, distance) }
        }
        guard let best else { return "" }
        return " (did you mean \"\(best.key)\"?)"
    }

    /// Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`:
    /// a swap counts once, so "wacth" is nearer "watch" than "path".
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = Swift.min(d[i - 1][j] + 1, d[i][j - 1] + 1)
                best = Swift.min(best, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = Swift.min(best, d[i - 2][j - 2] + 1)
                }
                d[i][j] = best
            }
        }
        return d[a.count][b.count]
    }

    static func describe(_ error: any Error) -> String {
        if let decoding = error as? DecodingError {
            switch decoding {
            case .dataCorrupted(let context):
                // The parser's own error says what it found and where (line, column).
                return context.underlyingError.map { String(describing: $0) } ?? context.debugDescription
            default:
                return "\(decoding)"
            }
        }
        return "\(error)"
    }
}
