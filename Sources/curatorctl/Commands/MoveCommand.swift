// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol

struct MoveCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "move",
        abstract: "Move a photo to another position in its folder's custom order (view sorted by custom, no filter).")

    @Argument("POS", help: "The photo's position in the view.")
    var from: Int

    @Option("--to", value: "POS", help: "The position it moves to.")
    var to: Int

    func run(_ context: CLIContext) throws(CLIError) {
        let request = ReorderRequest(session: context.options.session, position: from, to: to)
        guard let r = try context.call(request) else { return }
        Format.write("Moved photo #\(r.id) from position \(r.from) to \(r.to).")
    }
}
