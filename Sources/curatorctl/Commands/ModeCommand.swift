// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol

struct ModeCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "mode",
        abstract: "Switch the session between view and select mode (leaving select mode clears the selection).")

    @Argument("MODE", help: "select or view.")
    var mode: SessionMode

    @Option("--cap", value: "N", help: "Entering select mode: select at most N photos.")
    var cap: Int?

    func run(_ context: CLIContext) throws(CLIError) {
        guard let r = try context.call(ModeRequest(session: context.options.session, mode: mode, cap: cap))
        else { return }
        SessionOutput.evictionNote(r)
        if let removed = r.removed, removed > 0 { Format.write("Left select mode: \(Format.plural(removed, "photo")) deselected.") }
        Format.write(SessionOutput.describe(r))
    }
}

extension SessionMode: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument) }
    public static var expectation: String { "select or view" }
}
