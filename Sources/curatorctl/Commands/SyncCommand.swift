// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol
import Foundation

struct SyncCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "sync",
        abstract: "Wait until curatord has caught up with every change made so far.")

    @Argument("ROOT", help: "The root whose changes to wait for (default: every root).")
    var root: String?

    @Option("--timeout", value: "MS", help: "Give up after MS milliseconds (default 10000, at most 120000).")
    var timeout: Int?

    func run(_ context: CLIContext) throws(CLIError) {
        guard let r = try context.call(SyncRequest(root: root, timeoutMs: timeout)) else { return }
        if !r.synced { throw CLIError.daemon(ProtocolError(.internalError, "curatord did not catch up in time")) }
        Format.write(String(format: "In sync (%.1f ms).", r.elapsedMs))
    }
}
