// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol

struct StatusCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "status",
        abstract: "Show the roots, what is indexed, and whether scans are running.")

    func run(_ context: CLIContext) throws(CLIError) {
        guard let s = try context.call(StatusRequest()) else { return }
        Format.write("curatord \(s.version), pid \(s.pid), up \(s.uptimeMs / 1000) s: \(Format.plural(s.photos, "photo")), "
                     + "\(Format.plural(s.clients, "client")), \(Format.plural(s.sessions, "session"))"
                     + (s.scanning ? ", scanning" : "") + (s.batchRunning ? ", a batch is running" : ""))
        for r in s.roots {
            // A share whose server hangs is still mounted (online) but answers nothing.
            let presence = r.unresponsiveSince.map { "UNRESPONSIVE since \($0)" } ?? (r.online ? "online" : "OFFLINE")
            var line = "  \(r.name)  \(r.path)  \(presence)  \(r.watching)  "
                + "\(Format.plural(r.photos, "photo")) (\(Format.bytes(r.bytes))), \(Format.plural(r.watches, "watch"))"
            if r.scanning { line += ", scanning (\(r.scanFiles) files in \(r.scanDirectories) folders so far)" }
            if r.capturePending > 0 { line += ", \(r.capturePending) capture times to read" }
            if r.batchRunning == true { line += ", a batch is running" }
            if r.overflows > 0 || r.rescans > 0 { line += ", \(r.overflows) overflows, \(r.rescans) rescans" }
            Format.write(line.forTerminal)
            if let note = r.note { Format.write("      \(note.forTerminal)") }
        }
        if let t = s.thumbnails {
            Format.write("  thumbnails  \(t.cache.forTerminal)  \(t.ready) ready, \(t.failed) failed, \(t.backlog) to look at"
                         + (t.note.map { "  (\($0))" } ?? ""))
        }
        if let pending = s.hashPending, pending > 0 { Format.write("  duplicates  \(pending) files to read") }
        if let pending = s.xmpPending, pending > 0 { Format.write("  marks       \(pending) sidecars to read") }
    }
}
