// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import Foundation

/// curatorctl: the command-line client. One connection per invocation.
enum CuratorCtl {
    static var commands: [any CLICommand.Type] { [
        StatusCommand.self, ListCommand.self, WatchCommand.self, RescanCommand.self, SyncCommand.self, ReloadCommand.self,
        ViewCommand.self, ModeCommand.self, SelectCommand.self, DeselectCommand.self, ToggleCommand.self, ClearCommand.self,
        SelectionCommand.self, MoveCommand.self, RemoveCommand.self, UndoCommand.self, HistoryCommand.self,
    ] }

    static func help() -> String {
        var lines = [
            "Usage: curatorctl [--socket PATH] [--json] [--session NAME] COMMAND [ARGS]",
            "",
            "Talks to curatord over its Unix socket (default $XDG_RUNTIME_DIR/curatord.sock, or $CURATORD_SOCKET).",
            "",
            "Commands:",
        ]
        for c in commands { lines.append("  \(Format.pad(c.name, 10)) \(c.abstract)") }
        lines += ["", "curatorctl help COMMAND shows a command's arguments.", "--json prints the daemon's raw JSON responses."]
        return lines.joined(separator: "\n")
    }

    static func main(_ argv: [String]) -> Int32 {
        var arguments = ArgumentList(argv)
        do {
            var options = GlobalOptions(socket: GlobalOptions.defaultSocket())
            if let socket = try arguments.option("--socket", "-S") { options.socket = socket }
            options.json = arguments.flag("--json")
            options.session = try arguments.option("--session")
            if arguments.flag("--help", "-h") || arguments.isEmpty {
                Format.write(help())
                return 0
            }
            if arguments.flag("--version") {
                Format.write("curatorctl \(ProtocolInfo.serverVersion) (protocol \(ProtocolInfo.version))")
                return 0
            }
            var words = arguments.items
            let name = words.removeFirst()
            if name == "help" {
                if let topic = words.first, let c = commands.first(where: { $0.name == topic }) {
                    Format.write("curatorctl \(c.usage)\n\n\(c.abstract)")
                } else {
                    Format.write(help())
                }
                return 0
            }
            guard let type = commands.first(where: { $0.name == name }) else {
                throw CLIError.usage("unknown command \"\(name)\"; see curatorctl --help")
            }
            var rest = ArgumentList(words)
            let command = try type.init(parsing: &rest)
            try command.run(CLIContext(options: options))
            return 0
        } catch let error as CLIError {
            Format.error("curatorctl: \(error.message)")
            return error.exitCode
        } catch {
            Format.error("curatorctl: \(error)")
            return 1
        }
    }
}
