// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol
import Foundation

/// How select, deselect and toggle name photos: by position, or in bulk.
struct SelectorOptions: ParsableArguments {
    @Argument("POSITIONS", help: "Positions in the view as shown by ls: 3 5 9-12 (the order typed is the selection order).")
    var positions: [String] = []

    @Flag("--all", help: "Every photo of the view (what it shows: photos its filter hides are not named).")
    var all: Bool

    @Option("--glob", value: "PATTERN", help: "Every photo of the view whose file name matches the shell pattern PATTERN.")
    var glob: String?

    @Option("--folder", value: "PATH", help: "Every photo of the view in this folder and below.")
    var folder: String?

    @Option("--from", value: "DATE", help: "Every photo of the view captured on or after DATE.")
    var from: String?

    @Option("--to", value: "DATE", help: "Every photo of the view captured on or before DATE.")
    var to: String?

    @Option("--id", "--ids", value: "IDS", help: "These photos, by id, comma-separated: 42,43.",
            expecting: "photo ids, like 42,43", transform: Self.ids)
    var ids: [Int64]?

    @Flag("--duplicates", help: """
        Every copy but the kept one of each set of exact duplicates in the view (select only; never a protected photo).
        """)
    var duplicates: Bool

    @Flag("--stack-rest", help: """
        Every frame but the kept one (the highest rated, else the sharpest) of each stack in the view (select only; never a protected photo).
        """)
    var stackRest: Bool

    @OptionGroup var marks: MarksOptions

    var selector: PhotoSelector {
        var selector = PhotoSelector()
        if all { selector.all = true }
        selector.glob = glob
        selector.folder = folder
        selector.from = from
        selector.to = to
        selector.ids = ids
        if duplicates { selector.duplicates = .rest }
        if stackRest { selector.stacks = .rest }
        if !marks.isEmpty { marks.apply(to: &selector) }
        if !positions.isEmpty { selector.positions = positions.joined(separator: " ") }
        return selector
    }

    func validate() throws(ValidationError) {
        if selector == PhotoSelector() {
            throw ValidationError("name the photos: positions (3 5 9-12), --all, --glob PATTERN, --folder PATH, --from/--to DATE, --id N, --duplicates, --stack-rest, --rating STARS, --picked, --rejected, --unflagged or --label COLOURS")
        }
    }

    @Sendable static func ids(_ text: String) -> [Int64]? {
        var parsed: [Int64] = []
        for part in text.split(separator: ",") {
            guard let id = Int64(part.trimmingCharacters(in: .whitespaces)) else { return nil }
            parsed.append(id)
        }
        return parsed
    }
}
