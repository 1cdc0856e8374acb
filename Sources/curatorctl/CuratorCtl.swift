// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol
import Foundation

/// curatorctl: the command-line client. One connection per invocation.
struct CuratorCtl: ParsableCommand {
    /// The commands, in the order the help lists them. A new command is a file in
    /// Commands/ and a line here (or in its group's list, for `trash list`).
    static let configuration = CommandConfiguration(
        name: "curatorctl",
        abstract: "Talks to curatord over its Unix socket, one connection per command.",
        discussion: """
            Exit status: 0 done; 1 curatord refused the request; 2 wrong usage; 3 curatord's socket cannot be used \
            (not running, or not yours); 4 the connection was lost or the answer not understood; 5 cancelled; \
            6 rm or undo did nothing (no photo moved or put back); 7 rm or undo did only part.
            """,
        subcommands: [
            StatusCommand.self,
            ListCommand.self,
            WatchCommand.self,
            RescanCommand.self,
            SyncCommand.self,
            ReloadCommand.self,
            ViewCommand.self,
            ModeCommand.self,
            SelectCommand.self,
            DeselectCommand.self,
            ToggleCommand.self,
            ClearCommand.self,
            SelectionCommand.self,
            MoveCommand.self,
            RemoveCommand.self,
            UndoCommand.self,
            HistoryCommand.self,
            RateCommand.self,
            PickCommand.self,
            RejectCommand.self,
            TrashCommand.self,
            CullCommand.self,
            SheetCommand.self,
            WebCommand.self,
        ])

    @OptionGroup var global: GlobalOptions

    @Flag("--version", help: "Show the version and the protocol version.")
    var version: Bool

    static func main(_ argv: [String]) -> Int32 {
        let line: ParsedCommandLine
        do {
            switch try CommandParser.parse(argv, root: CuratorCtl.self) {
            case .help(let text):
                Format.write(text)
                return 0
            case .run(let parsed):
                line = parsed
            }
        } catch {
            Format.error(error.text)
            return error.exitCode
        }
        guard let root = line.command(CuratorCtl.self) else { return 1 }
        if root.version {
            Format.write("curatorctl \(ProtocolInfo.serverVersion) (protocol \(ProtocolInfo.version))")
            return 0
        }
        // No command, or a group without its subcommand: what there is to choose from.
        guard let command = line.command as? any CLICommand else {
            Format.write(line.help)
            return 0
        }
        do {
            try command.run(CLIContext(options: root.global))
            return 0
        } catch {
            Format.error("curatorctl: \(TerminalText.escapedLines(error.message))")
            return error.exitCode
        }
    }
}
