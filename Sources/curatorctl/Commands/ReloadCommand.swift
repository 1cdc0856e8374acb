// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol

/// What `systemctl reload curatord` runs (ExecReload=): it returns when the new
/// configuration is in force, and fails with the daemon's reason when it was refused.
struct ReloadCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "reload",
        abstract: "Make curatord read its configuration again (root or curatord's own user).")

    func run(_ context: CLIContext) throws(CLIError) {
        guard let r = try context.call(ReloadRequest()) else { return }
        for warning in r.warnings { Format.error("curatorctl: warning: \(warning)") }
        var parts = ["\(Format.plural(r.roots.count, "root")): \(r.roots.joined(separator: ", "))"]
        if !r.added.isEmpty { parts.append("added " + r.added.joined(separator: ", ")) }
        if !r.removed.isEmpty { parts.append("removed " + r.removed.joined(separator: ", ")) }
        if !r.changed.isEmpty { parts.append("changed " + r.changed.joined(separator: ", ")) }
        Format.write("Reloaded the configuration: " + parts.joined(separator: "; ") + ".")
        if !r.restartNeeded.isEmpty {
            Format.write("\(r.restartNeeded.joined(separator: " and ")) changed: that takes a restart (systemctl restart curatord).")
        }
    }
}
