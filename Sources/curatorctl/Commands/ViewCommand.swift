// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol

struct ViewCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "view",
        abstract: "Set what the session looks at; another root or folder clears its selection, a filter or sort keeps it.")

    @Argument("ROOT[/FOLDER]", help: "The root or folder to look at (a folder alone when there is one root).")
    var location: String?

    @OptionGroup var view: ViewOptions

    func run(_ context: CLIContext) throws(CLIError) {
        let request = ViewRequest(session: context.options.session, view: try view.spec(at: location, context))
        guard let r = try context.call(request) else { return }
        SessionOutput.evictionNote(r)
        if let removed = r.removed, removed > 0 { Format.write("The view changed: \(Format.plural(removed, "photo")) left the selection.") }
        Format.write(SessionOutput.describe(r))
    }
}
