// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol

struct ToggleCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "toggle",
        abstract: "Select the unselected and deselect the selected, like tapping each photo.")

    @OptionGroup var photos: SelectorOptions

    func run(_ context: CLIContext) throws(CLIError) { try SelectionVerb.run(ToggleRequest.self, photos.selector, context) }
}
