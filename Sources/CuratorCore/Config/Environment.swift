// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import FoundationEssentials
import Glibc

/// The XDG locations a per-user daemon defaults to, and the system-wide ones.
public struct Environment: Sendable {
    public var variables: [String: String]
    public var uid: UInt32
    public var home: String

    public init(variables: [String: String] = ProcessInfo.processInfo.environment, uid: UInt32 = getuid()) {
        self.variables = variables
        self.uid = uid
        if let home = variables["HOME"], !home.isEmpty {
            self.home = home
        } else if let dir = UserAccount.homeDirectory(uid: uid) {
            self.home = dir.lossyString
        } else {
            self.home = "/"
        }
    }

    private func xdg(_ name: String, default fallback: String) -> String {
        if let value = variables[name], value.hasPrefix("/") { return value }
        return fallback
    }

    /// System-wide: root, or a service of systemd's system manager (INVOCATION_ID
    /// set and no XDG_RUNTIME_DIR, which only the per-user manager provides), so
    /// that the dedicated `curatord` user gets /etc, /run and /var/lib defaults.
    public var isSystemService: Bool {
        guard variables["XDG_RUNTIME_DIR"] == nil else { return false }
        return uid == 0 || variables["INVOCATION_ID"] != nil
    }

    /// Started by systemd's system manager (not by hand, not by a user manager).
    public var isUnderSystemManager: Bool {
        variables["XDG_RUNTIME_DIR"] == nil && variables["INVOCATION_ID"] != nil
    }

    public var runtimeDirectory: String {
        if let dir = variables["XDG_RUNTIME_DIR"], dir.hasPrefix("/") { return dir }
        return isSystemService ? "/run/curatord" : "/tmp/curatord-\(uid)"
    }

    public var stateHome: String { xdg("XDG_STATE_HOME", default: home + "/.local/state") }
    public var configHome: String { xdg("XDG_CONFIG_HOME", default: home + "/.config") }
    public var dataHome: String { xdg("XDG_DATA_HOME", default: home + "/.local/share") }

    public var defaultSocketPath: String {
        isSystemService ? "/run/curatord/curatord.sock" : runtimeDirectory + "/curatord.sock"
    }

    public var defaultStateDirectory: String {
        if let dir = variables["STATE_DIRECTORY"], dir.hasPrefix("/") { return dir }
        return isSystemService ? "/var/lib/curatord" : stateHome + "/curatord"
    }

    public var defaultConfigPath: String {
        // systemd's ConfigurationDirectory= names ours, for system and user units alike.
        if let dir = variables["CONFIGURATION_DIRECTORY"], dir.hasPrefix("/"), !dir.contains(":") {
            return dir + "/curatord.json5"
        }
        return isSystemService ? "/etc/curatord/curatord.json5" : configHome + "/curatord/curatord.json5"
    }

    public var homeTrash: String { dataHome + "/Trash" }

    /// Where thumbnails go: the user's cache by the thumbnail standard
    /// ($XDG_CACHE_HOME/thumbnails), shared with file managers; for the system
    /// service the daemon's own cache (systemd's CacheDirectory=), which only it can
    /// read: users get thumbnails through the protocol (docs/THUMBNAILS.md).
    public var thumbnailCache: String {
        if isSystemService {
            if let dir = variables["CACHE_DIRECTORY"], dir.hasPrefix("/"), !dir.contains(":") { return dir + "/thumbnails" }
            return "/var/cache/curatord/thumbnails"
        }
        return xdg("XDG_CACHE_HOME", default: home + "/.cache") + "/thumbnails"
    }
}
