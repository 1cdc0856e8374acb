// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol

/// The options that describe a view, shared by `ls` and `view`.
struct ViewOptions: ParsableArguments {
    @Option("--root", value: "ROOT", help: "The root to look at (then ROOT[/FOLDER] names a folder of it).")
    var root: String?

    @Option("--folder", value: "FOLDER", help: "The folder to look at, in its root.")
    var folder: String?

    @Option("--glob", "--filter", value: "PATTERN", help: """
        Only photos whose file name matches the shell pattern PATTERN (its whole path in the root when PATTERN has a /).
        """)
    var glob: String?

    @Option("--type", value: "TYPES", help: "Only photos of these types, comma-separated: jpeg,nef.",
            expecting: "types like jpeg,nef", transform: { $0.split(separator: ",").map(String.init) })
    var types: [String]?

    @Option("--from", value: "DATE", help: "Only photos captured on or after DATE: YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS.")
    var from: String?

    @Option("--to", value: "DATE", help: "Only photos captured on or before DATE (--to 2024: to the end of 2024).")
    var to: String?

    @OptionGroup var marks: MarksOptions

    @Option("--sort", value: "KEY", help: """
        capture, name, mtime, size, custom (each folder's own order), rating, flag (rejects first) or label.
        """)
    var sort: SortKey?

    @Flag("--desc", "--reverse", help: "Highest first.")
    var descending: Bool

    @Flag("--flat", "--no-recursive", help: "This folder only, not the ones below.")
    var flat: Bool

    @Flag("--orphans", help: "Sidecars (.xmp, .aae, ...) that no one photo takes (gone, or several), instead of photos (roots with groups).")
    var orphans: Bool

    @Flag("--duplicates", help: "Only photos with an exact copy (same content), each marked with its set; the kept one with *.")
    var duplicates: Bool

    @Flag("--stacks", help: "Only photos in a stack (a burst: one camera, seconds apart, alike), each marked with its stack; the kept one with *.")
    var stacks: Bool

    @Flag("--collapse-stacks", help: "Each stack as one position, the kept frame's, with the stack's count.")
    var collapseStacks: Bool

    /// The view these options and the place word describe: with --root a folder of
    /// it; else a real folder, a root by name or a folder of the root that has it
    /// (`PlaceResolver`).
    func spec(at location: String?, _ context: CLIContext) throws(CLIError) -> ViewSpec {
        guard let location, !location.isEmpty, root == nil else { return spec(at: location) }
        var spec = spec(at: nil)
        let place = try PlaceResolver.resolve(location, context)
        spec.root = place.root
        spec.folder = place.folder ?? folder
        return spec
    }

    /// The view these options and a positional `ROOT`, `ROOT/FOLDER` or `FOLDER` (with
    /// --root) describe, read as words alone.
    func spec(at location: String?) -> ViewSpec {
        var spec = ViewSpec()
        var filter = ViewFilter()
        filter.glob = glob
        filter.types = types
        filter.from = from
        filter.to = to
        if orphans { filter.orphans = true }
        if duplicates { filter.duplicates = true }
        if stacks { filter.stacks = true }
        if collapseStacks { filter.collapseStacks = true }
        marks.apply(to: &filter)
        if !filter.isEmpty { spec.filter = filter }
        if let sort { spec.sort = sort }
        if descending { spec.order = .desc }
        if flat { spec.recursive = false }
        spec.root = root
        spec.folder = folder
        guard let location, !location.isEmpty else { return spec }
        if spec.root == nil, let slash = location.firstIndex(of: "/") {
            spec.root = String(location[..<slash])
            let rest = String(location[location.index(after: slash)...])
            if !rest.isEmpty { spec.folder = rest }
        } else if spec.root == nil {
            spec.root = location
        } else {
            spec.folder = location
        }
        return spec
    }
}

extension SortKey: ExpressibleByArgument {}
