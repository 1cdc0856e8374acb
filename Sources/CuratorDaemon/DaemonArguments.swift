// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine

/// `curatord`'s command line; `curatord --help` is generated from it.
struct DaemonArguments: ParsableCommand, Sendable {
    static let configuration = CommandConfiguration(
        name: "curatord",
        abstract: """
            Watches photo folders, keeps an index of every photo, holds selections that clients build over a Unix \
            socket, and moves confirmed batches to the trash.
            """,
        discussion: """
            Talk to it with curatorctl (curatorctl status, curatorctl ls) or any client that speaks the protocol in \
            docs/PROTOCOL.md (newline-delimited JSON).
            Signals: SIGHUP reloads the configuration, SIGTERM stops cleanly.
            Running it as a systemd service, and every setting: man curatord (docs/man/curatord.8).
            """)

    @Option("--config", "-c", value: "FILE", help: """
        Read the settings from FILE (JSON5). Default: $XDG_CONFIG_HOME/curatord/curatord.json5 for a user, \
        /etc/curatord/curatord.json5 system-wide, when it exists.
        """)
    var configPath: String?

    @Option("--root", "-r", value: "DIR", help: "Watch DIR (repeatable); with no --config, no file is read.")
    var roots: [String] = []

    @Option("--socket", "-s", value: "PATH", help: """
        Listen on PATH (default $XDG_RUNTIME_DIR/curatord.sock; a socket passed by systemd socket activation wins).
        """)
    var socket: String?

    @Option("--state-dir", value: "DIR", help: """
        Keep the index and the journal in DIR (default $STATE_DIRECTORY under systemd, else $XDG_STATE_HOME/curatord).
        """)
    var stateDirectory: String?

    // A word, checked with the configuration it overrides (the file's log_level): a wrong
    // one makes the configuration invalid, exit status 1, as --check-config promises.
    @Option("--log-level", value: "LEVEL", help: "error, warning, notice, info (the default) or debug.")
    var logLevel: String?

    @Flag("--check-config", help: "Validate the configuration, print the effective settings, and exit.")
    var checkConfig: Bool

    @Flag("--version", "-V", help: "Show the version and the protocol version.")
    var showVersion: Bool
}
