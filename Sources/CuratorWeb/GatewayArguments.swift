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
        Listen on port N (default: a free port; with --system, \(GatewayArguments.systemPort)). \
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

    @Option("--max-connections", value: "N", help: """
        HTTP connections served at once (default 64; with --system, 256); one more is closed at once. An answer \
        that waits on curatord takes a thread of its own while it waits.
        """)
    var maxConnections: Int?

    @Option("--max-streams", value: "N", help: """
        Event streams open at once (default 8; with --system, 64); one more is refused (429). Each holds a \
        connection to curatord, counted in its max_clients_per_user, and a thread.
        """)
    var maxStreams: Int?

    @Option("--keep-files", value: "SECONDS", help: """
        Stream a photo file curatord passed for a versioned address (?v=) again to the same session for this \
        long without asking curatord (default 30; 0: ask every time). A right taken away since is seen this \
        late by a session that fetched the photo already.
        """)
    var keepFiles: Int = Int(OpenFileCache.defaultLifetime)

    @Option("--listen", value: "ADDRESS", help: """
        The IPv4 address to listen on (default 127.0.0.1). Any other than a loopback address needs \
        --tls-cert and --tls-key.
        """)
    var listen: String = "127.0.0.1"

    @Option("--tls-cert", value: "FILE", help: "Serve HTTPS (TLS 1.2 and 1.3) with this certificate chain (PEM).")
    var tlsCertificate: String?

    @Option("--tls-key", value: "FILE", help: "The private key (PEM) of --tls-cert.")
    var tlsKey: String?

    @Option("--server-name", value: "HOST[:PORT]", help: """
        A name browsers reach this gateway by (its Host), besides 127.0.0.1 and localhost on a loopback \
        address. Repeat for several.
        """)
    var serverNames: [String] = []

    @Option("--timeout", value: "SECONDS", help: """
        Close a connection that sends and takes nothing for this long (default 60; an event stream sends a \
        comment every 15 seconds).
        """)
    var timeout: Int = 60

    @Option("--trusted-proxy", value: "ADDRESS", help: """
        A reverse proxy whose X-Forwarded-For and X-Forwarded-Proto are believed. Repeat for several; \
        from any other address both are ignored.
        """)
    var trustedProxies: [String] = []

    @Option("--web", value: "DIR", help: """
        The page's files. Default: web/ beside curatord-web, else ../share/curatord/web from it (where make install puts them).
        """)
    var web: String?

    mutating func validate() throws(ValidationError) {
        guard (0...65535).contains(port ?? 0) else { throw ValidationError("--port must be 0 to 65535") }
        guard (1...4096).contains(maxConnections ?? 64) else { throw ValidationError("--max-connections must be 1 to 4096") }
        guard (1...1024).contains(maxStreams ?? 8) else { throw ValidationError("--max-streams must be 1 to 1024") }
        guard (0...3600).contains(keepFiles) else { throw ValidationError("--keep-files must be 0 to 3600 seconds") }
        guard (1...86400).contains(timeout) else { throw ValidationError("--timeout must be 1 to 86400 seconds") }
        guard (tlsCertificate == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
        guard LoopbackListener.parse(listen) != nil else { throw ValidationError("--listen takes an IPv4 address, such as 127.0.0.1") }
    }
}
