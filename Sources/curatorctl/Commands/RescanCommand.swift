// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

struct RescanCommand: CLICommand {
    static let name = "rescan"
    static let abstract = "Walk a root (or all) again and bring the index in line with the disk."
    static let usage = "rescan [ROOT]"
    var root: String?

    init(parsing arguments: inout ArgumentList) throws(CLIError) {
        let rest = try arguments.positionals()
        guard rest.count <= 1 else { throw CLIError.usage("usage: curatorctl \(Self.usage)") }
        root = rest.first
    }

    func run(_ context: CLIContext) throws(CLIError) {
        guard let r = try context.call(.rescan(RescanRequest(root: root)), as: RescanResult.self) else { return }
        Format.write("Rescanning \(r.roots.joined(separator: ", ")).")
    }
}

struct SyncCommand: CLICommand {
    static let name = "sync"
    static let abstract = "Wait until curatord has caught up with every change made so far."
    static let usage = "sync [ROOT] [--timeout MS]"
    var root: String?
    var timeout: Int?

    init(parsing arguments: inout ArgumentList) throws(CLIError) {
        timeout = try arguments.intOption("--timeout")
        let rest = try arguments.positionals()
        root = rest.first
    }

    func run(_ context: CLIContext) throws(CLIError) {
        guard let r = try context.call(.sync(SyncRequest(root: root, timeoutMs: timeout)), as: SyncResult.self) else { return }
        if !r.synced { throw CLIError.daemon(ProtocolError(.internalError, "curatord did not catch up in time")) }
        Format.write(String(format: "In sync (%.1f ms).", r.elapsedMs))
    }
}
