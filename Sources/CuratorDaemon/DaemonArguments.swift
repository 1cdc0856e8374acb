// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCore

/// `curatord`'s command line.
struct DaemonArguments {
    var configPath: String?
    var roots: [String] = []
    var socket: String?
    var stateDirectory: String?
    var checkConfig = false
    var logLevel: String?
    var showHelp = false
    var showVersion = false

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    static let help = """
        Usage: curatord [--config FILE] [--root DIR ...] [--socket PATH] [--state-dir DIR]
                        [--log-level LEVEL] [--check-config]

        Watches photo folders, keeps an index of every photo, holds selections that
        clients build over a Unix socket, and moves confirmed batches to the trash.

        Options:
          --config FILE     read settings from FILE (JSON5). Default: $XDG_CONFIG_HOME/curatord/curatord.json5
                            for a user, /etc/curatord/curatord.json5 system-wide, when it exists.
          --root DIR        watch DIR (repeatable); with no --config, no file is read.
          --socket PATH     listen on PATH (default $XDG_RUNTIME_DIR/curatord.sock; a socket
                            passed by systemd socket activation wins)
          --state-dir DIR   keep the index and the journal in DIR (default $STATE_DIRECTORY under
                            systemd, else $XDG_STATE_HOME/curatord)
          --log-level LEVEL error, warning, notice, info (default) or debug
          --check-config    validate the configuration, print the effective settings, exit
          --help            show this help
          --version         show the version

        Talk to it with curatorctl (curatorctl status, curatorctl ls) or any client that
        speaks the protocol in docs/PROTOCOL.md (newline-delimited JSON).
        Signals: SIGHUP reloads the configuration, SIGTERM stops cleanly.
        Running it as a systemd service, and every setting: man curatord (docs/man/curatord.8).
        """

    static func parse(_ arguments: [String]) throws(UsageError) -> DaemonArguments {
        var result = DaemonArguments()
        var i = 0
        func value(_ flag: String) throws(UsageError) -> String {
            i += 1
            guard i < arguments.count, !arguments[i].hasPrefix("--") else { throw UsageError(description: "\(flag) needs a value") }
            return arguments[i]
        }
        while i < arguments.count {
            let arg = arguments[i]
            var flag = arg
            var inline: String?
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                flag = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            func take() throws(UsageError) -> String {
                if let inline { return inline }
                return try value(flag)
            }
            switch flag {
            case "--config", "-c": result.configPath = try take()
            case "--root", "-r": result.roots.append(try take())
            case "--socket", "-s": result.socket = try take()
            case "--state-dir": result.stateDirectory = try take()
            case "--log-level": result.logLevel = try take()
            case "--check-config": result.checkConfig = true
            case "--help", "-h": result.showHelp = true
            case "--version", "-V": result.showVersion = true
            default: throw UsageError(description: "unknown option \(arg) (see curatord --help)")
            }
            i += 1
        }
        return result
    }
}
