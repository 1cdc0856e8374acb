// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol

struct DeselectCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "deselect",
        abstract: "Deselect photos; the numbers of those selected after them shift down.")

    @OptionGroup var photos: SelectorOptions

    func run(_ context: CLIContext) throws(CLIError) { try SelectionVerb.run(DeselectRequest.self, photos.selector, context) }
}
