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
            With --system, the system service instead: users sign in with the web password they set with \
            `curatorctl web passwd` (POST /api/v1/login), and the daemon, whose web_gateway_user this gateway's user \
            must be, issues their sessions. Under socket activation (curatord-web.socket) it serves the socket systemd \
            passes.
            """)

    @Option("--socket", "-S", value: "PATH", help: """
        curatord's socket. Default: $CURATORD_SOCKET, else $XDG_RUNTIME_DIR/curatord.sock.
        """)
    var socket: String?

    @Option("--port", "-p", value: "N", help: """
        Listen on 127.0.0.1 port N (default: a free port; with --system, \(GatewayArguments.systemPort)). \
        Ignored under socket activation.
        """)
    var port: Int?

    @Flag("--system", help: """
        The system service: sign-in by web password, each session's requests made as its user. Default socket: \
        \(GatewayArguments.systemSocket).
        """)
    var system: Bool

    static let systemPort = 8480
    static let systemSocket = "/run/curatord/curatord.sock"

    mutating func validate() throws(ValidationError) {
        guard (0...65535).contains(port ?? 0) else { throw ValidationError("--port must be 0 to 65535") }
    }
}
