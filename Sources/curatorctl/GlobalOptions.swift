// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import Foundation

/// The options of curatorctl itself, which every command uses; they go before the
/// command's name or after it (`curatorctl --json ls`, `curatorctl ls --json`).
struct GlobalOptions: ParsableArguments {
    @Option("--socket", "-S", value: "PATH", help: """
        curatord's socket. Default: $CURATORD_SOCKET, else $XDG_RUNTIME_DIR/curatord.sock, else \
        /run/curatord/curatord.sock for root. The system-wide service's is /run/curatord/curatord.sock.
        """)
    var socketOption: String?

    @Flag("--json", help: "Print curatord's JSON responses (and events) as they come, one per line.")
    var json: Bool

    @Option("--session", value: "NAME", help: """
        The session to work in (a session belongs to the user who made it and outlives the connection).
        """)
    var session: String?

    /// The socket to connect to: --socket, else the environment's.
    var socket: String { socketOption ?? Self.defaultSocket() }

    static func defaultSocket() -> String {
        let env = ProcessInfo.processInfo.environment
        if let path = env["CURATORD_SOCKET"], !path.isEmpty { return path }
        if let runtime = env["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { return runtime + "/curatord.sock" }
        if getuid() == 0 { return "/run/curatord/curatord.sock" }
        return "/tmp/curatord-\(getuid())/curatord.sock"
    }
}
