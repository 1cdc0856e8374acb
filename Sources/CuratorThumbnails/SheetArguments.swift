// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine

/// `curatord-thumbnailer sheet`'s command line. The ranges of the numbers are
/// checked where the sheet's defaults are known (`SheetLimits`, by the renderer).
public struct SheetArguments: ParsableCommand, Sendable {
    public static let configuration = CommandConfiguration(
        name: "sheet",
        abstract: "Renders a contact sheet from a JSON list of items.",
        discussion: """
            Writes OUT.png, then OUT-2.png, OUT-3.png... for further pages, and prints \
            {"pages":[...],"ms":...} on stdout.
            """)

    @Argument("ITEMS.json", help: "The folders and photos to draw, in order.")
    public var items: String

    @Option("--output", "-o", value: "OUT", help: "The first page: OUT.png or OUT.jpg.")
    public var output: String

    @Option("--columns", value: "N", help: "Photos per row.")
    public var columns: Int?

    @Option("--cell", value: "PX", help: "The square each photo is fitted into, pixels.")
    public var cell: Int?

    @Option("--max-page-height", value: "PX", help: "The tallest page, pixels.")
    public var maxPageHeight: Int?

    @Option("--title", value: "TEXT", help: "The line above the first page.")
    public var title: String?

    @Flag("--selecting", help: "The session is in select mode (unselected photos show an empty circle).")
    public var selecting: Bool

    public init() {}
}
