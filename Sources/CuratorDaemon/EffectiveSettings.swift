// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCore
import CuratorSystem

/// `curatord --check-config`: the settings in force, after defaults, as JSON5.
enum EffectiveSettings {
    /// `systemWide`: the defaults are the system service's (`Environment.isSystemService`:
    /// root without XDG_RUNTIME_DIR, or a service of systemd's system manager), which
    /// the thumbnail settings say, since that is where they differ from what a user expects.
    static func describe(_ c: Configuration, systemWide: Bool = false) -> String {
        func q(_ s: String) -> String {
            "\"" + String(s.flatMap { $0 == "\\" || $0 == "\"" ? ["\\", $0] : [$0] }) + "\""
        }
        var lines = ["// effective settings\(c.source.map { " from \($0)" } ?? " from the command line")", "{"]
        lines.append("  socket: \(q(c.socketPath.lossyString)),")
        lines.append("  socket_mode: \"0\(String(c.socketMode, radix: 8))\",")
        lines.append("  state_dir: \(q(c.stateDirectory.lossyString)),")
        lines.append("  trash_dir: \(c.homeTrash.map { q($0.lossyString) } ?? "null /* no home trash: each volume's .Trash-$uid */"),")
        lines.append("  thumbnails: \(c.thumbnailCache != nil),")
        if let cache = c.thumbnailCache {
            let why = systemWide ? " /* the system service's own cache: no XDG_RUNTIME_DIR, so system-wide defaults */"
                : " /* the thumbnail standard's, shared with file managers */"
            lines.append("  thumbnail_dir: \(q(cache.lossyString)),\(why)")
        }
        lines.append("  log_level: \(q(c.logLevel.word)),")
        lines.append("  selection_cap: \(c.selectionCap.map(String.init) ?? "null"),")
        lines.append("  max_sessions_per_user: \(c.maxSessionsPerUser),")
        lines.append("  max_selection: \(c.maxSelection),")
        lines.append("  max_selected_per_user: \(c.maxSelectedPerUser),")
        lines.append("  plan_ttl_seconds: \(Int(c.planTTLSeconds)),")
        lines.append("  max_clients: \(c.maxClients),")
        lines.append("  max_clients_per_user: \(c.maxClientsPerUser),")
        let idle = c.idleTimeoutSeconds == c.idleTimeoutSeconds.rounded() ? "\(Int(c.idleTimeoutSeconds))" : "\(c.idleTimeoutSeconds)"
        lines.append("  idle_timeout_seconds: \(idle)\(c.idleTimeoutSeconds == 0 ? " /* never */" : ""),")
        lines.append("  roots: [")
        for r in c.roots {
            lines.append("    {")
            lines.append("      name: \(q(r.name)),")
            lines.append("      path: \(q(r.path.lossyString)),")
            lines.append("      watch: \(q(r.watch.rawValue)),")
            lines.append("      poll_interval_seconds: \(Int(r.pollInterval)),")
            lines.append("      default_exclusions: \(r.includeDefaultExclusions),")
            lines.append("      exclude: [\(r.exclude.map(q).joined(separator: ", "))],")
            lines.append("      types: \(r.types.map { "[" + $0.map(q).joined(separator: ", ") + "]" } ?? "null /* all photo types */"),")
            lines.append("      protected: [\(r.protected.map(q).joined(separator: ", "))],")
            lines.append("      protect_all: \(r.protectAll),")
            lines.append("      trash: \(q(r.trash.rawValue)),")
            if let group = r.recycleGroup { lines.append("      recycle_group: \(q(group)),") }
            lines.append("      recycle_keep_days: \(r.recycleKeepDays.map(String.init) ?? "null /* kept until emptied */"),")
            lines.append("      groups: \(r.groups)\(r.groups ? "" : " /* every file its own photo */"),")
            lines.append("      group_shows: \(q(r.groupShows.rawValue)),")
            lines.append("    },")
        }
        lines.append("  ],")
        lines.append("}")
        return lines.joined(separator: "\n")
    }
}
