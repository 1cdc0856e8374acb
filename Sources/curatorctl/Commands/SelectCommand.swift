// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol

struct SelectCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "select",
        abstract: "Select photos by position in the view (3 5 9-12), --all, --glob, --folder, --from/--to, or --id.")

    @OptionGroup var photos: SelectorOptions

    func run(_ context: CLIContext) throws(CLIError) { try SelectionVerb.run(SelectRequest.self, photos.selector, context) }
}
