// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCore
import CuratorProtocol
import CuratorSystem
import Glibc
import Synchronization

/// Reads the configuration again and applies it, for SIGHUP and for the `reload`
/// command (which `systemctl reload` runs through curatorctl: no `kill` binary is
/// needed, and the command returns only when the reload is over, as ExecReload=
/// must). Who may ask is the command's business (`ReloadCommand`, which
/// `Curator.handReloadsTo` hands this reloader). Roots are added, dropped or
/// restarted; sessions, the index and a running batch are untouched. A configuration that does not load or validate is refused
/// with a log line (and, to a client, `config_invalid`), and the old one stays.
final class ConfigReloader: ConfigurationReloading {
    let curator: Curator
    let arguments: DaemonArguments
    /// One reload at a time: a signal and a client, or two clients, must not interleave.
    private let serial = Mutex<Void>(())

    init(curator: Curator, arguments: DaemonArguments) {
        self.curator = curator
        self.arguments = arguments
    }

    /// Reloads and logs the outcome; `askedBy` says who, for the log. A client
    /// waits until the watcher has the new roots in hand (it is answered "in
    /// force"); the main thread, on SIGHUP, does not (it also feeds the watchdog).
    @discardableResult
    func reload(askedBy: String, waitForWatcher: Bool = false) -> Result<ReloadResult, ProtocolError> {
        serial.withLock { _ in
            // systemd 252 has no Type=notify-reload: we say RELOADING=1 and READY=1 ourselves.
            SystemdNotifier.reloading()
            defer { SystemdNotifier.send("READY=1") }
            return apply(askedBy: askedBy, waitForWatcher: waitForWatcher)
        }
    }

    private func apply(askedBy: String, waitForWatcher: Bool) -> Result<ReloadResult, ProtocolError> {
        let config: Configuration
        var warnings: [String]
        do {
            (config, warnings) = try Daemon.loadConfiguration(arguments)
        } catch {
            return refuse("\(error)")
        }
        // Said to the one who reloaded, and logged: a root whose trash cannot work.
        let problems = TrashReadiness.problems(config, servesOthers: SettingsCheck.servesOthers(config))
        if let refused = problems.first(where: \.refusesRoot) { return refuse(refused.description) }
        let trash = problems.map(\.description)
        for problem in trash { log.warning(problem) }
        warnings += trash
        let old = curator.configuration
        var restartNeeded: [String] = []
        if config.socketPath != old.socketPath { restartNeeded.append("socket") }
        if config.stateDirectory != old.stateDirectory { restartNeeded.append("state_dir") }
        if !restartNeeded.isEmpty {
            log.warning("reload: \(restartNeeded.joined(separator: " and ")) changes take effect at the next restart")
        }
        do {
            if try !curator.reconfigure(config, waitingUpTo: waitForWatcher ? 10 : nil) {
                log.warning("reload: the watcher has not taken the new roots yet; it will when it finishes its step")
            }
        } catch {
            return refuse("\(error)")
        }
        log.level = config.logLevel
        let before = Set(old.roots.map(\.name))
        let after = Set(config.roots.map(\.name))
        let result = ReloadResult(
            roots: config.roots.map(\.name),
            added: after.subtracting(before).sorted(),
            removed: before.subtracting(after).sorted(),
            changed: config.roots.filter { new in old.roots.contains { $0.name == new.name && $0 != new } }.map(\.name),
            restartNeeded: restartNeeded, warnings: warnings)
        var parts = ["\(config.roots.count) root(s)"]
        if !result.added.isEmpty { parts.append("added " + result.added.joined(separator: ", ")) }
        if !result.removed.isEmpty { parts.append("removed " + result.removed.joined(separator: ", ")) }
        if !result.changed.isEmpty { parts.append("changed " + result.changed.joined(separator: ", ")) }
        log.notice("reloaded the configuration (asked by \(askedBy)): " + parts.joined(separator: "; "))
        return .success(result)
    }

    private func refuse(_ why: String) -> Result<ReloadResult, ProtocolError> {
        log.error("reload refused, the previous configuration stays in force: \(why)")
        return .failure(ProtocolError(.configInvalid, "The configuration was refused; the one in force stays. \(why)"))
    }
}
