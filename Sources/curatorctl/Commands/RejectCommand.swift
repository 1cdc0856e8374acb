// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol

struct RejectCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "reject",
        abstract: "Flag photos as rejected (the selection, or --id), in their XMP sidecars.")

    @Option("--id", "--ids", value: "IDS", help: "These photos, by id, comma-separated: 42,43 (default: the selection).",
            expecting: "photo ids, like 42,43", transform: SelectorOptions.ids)
    var ids: [Int64]?

    func run(_ context: CLIContext) throws(CLIError) {
        try RateOutput.send(RateRequest(session: context.options.session, ids: ids, flag: PickFlagName.reject), context)
    }
}
