// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCore
import CuratorSystem

/// SIGHUP (`systemctl reload`, whose ExecReload= sends it): read the
/// configuration again and apply it. Roots are added, dropped or restarted;
/// sessions, the index and a running batch are untouched. A configuration that
/// does not load or validate is refused with a log line, and the old one stays.
enum ConfigReload {
    static func perform(curator: Curator, arguments: DaemonArguments) {
        // systemd 252 has no Type=notify-reload: we say RELOADING=1 and READY=1 ourselves.
        SystemdNotifier.reloading()
        defer { SystemdNotifier.send("READY=1") }
        let config: Configuration
        do {
            config = try Daemon.loadConfiguration(arguments)
        } catch {
            log.error("reload refused, the previous configuration stays in force: \(error)")
            return
        }
        let old = curator.configuration
        if config.socketPath != old.socketPath || config.stateDirectory != old.stateDirectory {
            log.warning("reload: socket and state_dir changes take effect at the next restart")
        }
        do {
            try curator.reconfigure(config)
        } catch {
            log.error("reload refused, the previous configuration stays in force: \(error)")
            return
        }
        log.level = config.logLevel
        let before = Set(old.roots.map(\.name))
        let after = Set(config.roots.map(\.name))
        let added = after.subtracting(before).sorted()
        let removed = before.subtracting(after).sorted()
        let changed = config.roots.filter { new in old.roots.contains { $0.name == new.name && $0 != new } }.map(\.name)
        var parts = ["\(config.roots.count) root(s)"]
        if !added.isEmpty { parts.append("added " + added.joined(separator: ", ")) }
        if !removed.isEmpty { parts.append("removed " + removed.joined(separator: ", ")) }
        if !changed.isEmpty { parts.append("changed " + changed.joined(separator: ", ")) }
        log.notice("reloaded the configuration: " + parts.joined(separator: "; "))
    }
}
