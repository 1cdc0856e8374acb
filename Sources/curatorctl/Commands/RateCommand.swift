// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol

struct RateCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "rate",
        abstract: "Give photos stars (0-5, or none), a flag or a colour label, in their XMP sidecars.")

    @Argument("STARS", help: "0 to 5 stars, or none to clear them.")
    var stars: String?

    @Option("--label", value: "COLOUR", help: "A colour label: red, yellow, green, blue or purple; none clears it.")
    var label: String?

    @Option("--flag", value: "FLAG", help: "pick, reject or none.")
    var flag: String?

    @Option("--id", "--ids", value: "IDS", help: "These photos, by id, comma-separated: 42,43 (default: the selection).",
            expecting: "photo ids, like 42,43", transform: SelectorOptions.ids)
    var ids: [Int64]?

    func validate() throws(ValidationError) {
        guard stars != nil || label != nil || flag != nil else {
            throw ValidationError("say what to give: STARS (0-5 or none), --label COLOUR or --flag FLAG")
        }
        if let stars, stars != "none", Int(stars).map({ (0...5).contains($0) }) != true {
            throw ValidationError("STARS is 0 to 5, or none; not \(stars)")
        }
    }

    func run(_ context: CLIContext) throws(CLIError) {
        var request = RateRequest(ids: ids, flag: flag)
        request.session = context.options.session
        if let stars { request.rating = stars == "none" ? .cleared : .value(Int(stars) ?? 0) }
        if let label { request.label = label == "none" ? .cleared : .value(label) }
        try RateOutput.send(request, context)
    }
}
