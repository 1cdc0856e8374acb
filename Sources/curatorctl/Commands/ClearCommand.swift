// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol

struct ClearCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "clear",
        abstract: "Deselect everything (the session stays in select mode).")

    func run(_ context: CLIContext) throws(CLIError) {
        guard let r = try context.call(ClearRequest(session: context.options.session)) else { return }
        Format.write(SessionOutput.describe(r))
    }
}
