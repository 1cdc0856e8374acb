// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine

/// `curatord-web`'s command line; `curatord-web --help` is generated from it.
struct GatewayArguments: ParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        name: "curatord-web",
        abstract: "Serves your curatord to a browser on this computer: HTTP on 127.0.0.1, the daemon over its socket.",
        discussion: """
            Prints an address with a secret that works once: open it in your browser, which then holds the session. \
            Anyone else (other users of this computer share 127.0.0.1) gets only the login page.
            Usually started by `curatorctl web`. The API and its security: docs/WEB.md and docs/PROTOCOL.md.
            """)

    @Option("--socket", "-S", value: "PATH", help: """
        curatord's socket. Default: $CURATORD_SOCKET, else $XDG_RUNTIME_DIR/curatord.sock.
        """)
    var socket: String?

    @Option("--port", "-p", value: "N", help: "Listen on 127.0.0.1 port N (default: a free port).")
    var port: Int = 0

    @Option("--web", value: "DIR", help: """
        The page's files. Default: web/ beside curatord-web, else ../share/curatord/web from it (where make install puts them).
        """)
    var web: String?

    mutating func validate() throws(ValidationError) {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
    }
}
