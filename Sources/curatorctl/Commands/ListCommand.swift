// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol

/// Options that describe a view, shared by `ls` and `view`.
struct ViewOptions {
    var spec = ViewSpec()

    init(parsing arguments: inout ArgumentList) throws(CLIError) {
        var filter = ViewFilter()
        filter.glob = try arguments.option("--glob", "--filter")
        if let types = try arguments.option("--type") { filter.types = types.split(separator: ",").map(String.init) }
        filter.from = try arguments.option("--from")
        filter.to = try arguments.option("--to")
        if !filter.isEmpty { spec.filter = filter }
        if let sort = try arguments.option("--sort") {
            guard let key = SortKey(rawValue: sort) else {
                throw CLIError.usage("--sort must be one of \(SortKey.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            spec.sort = key
        }
        if arguments.flag("--desc", "--reverse") { spec.order = .desc }
        if arguments.flag("--flat", "--no-recursive") { spec.recursive = false }
        spec.root = try arguments.option("--root")
        spec.folder = try arguments.option("--folder")
    }

    /// A positional `ROOT`, `ROOT/FOLDER` or `FOLDER` (when there is one root).
    mutating func applyLocation(_ text: String?) {
        guard let text, !text.isEmpty else { return }
        if spec.root == nil, let slash = text.firstIndex(of: "/") {
            spec.root = String(text[..<slash])
            let rest = String(text[text.index(after: slash)...])
            if !rest.isEmpty { spec.folder = rest }
        } else if spec.root == nil {
            spec.root = text
        } else {
            spec.folder = text
        }
    }

    var isEmpty: Bool { spec == ViewSpec() }
}

struct ListCommand: CLICommand {
    static let name = "ls"
    static let abstract = "List photos of the session's view (or of the view given), numbered, by folder."
    static let usage = "ls [ROOT[/FOLDER]] [--glob PATTERN] [--type jpeg,nef] [--from DATE] [--to DATE] [--sort capture|name|mtime|size|custom] [--desc] [--offset N] [--limit N]"
    var view: ViewOptions
    var offset: Int?
    var limit: Int?

    init(parsing arguments: inout ArgumentList) throws(CLIError) {
        view = try ViewOptions(parsing: &arguments)
        offset = try arguments.intOption("--offset")
        limit = try arguments.intOption("--limit", "-n")
        let rest = try arguments.positionals()
        guard rest.count <= 1 else { throw CLIError.usage("usage: curatorctl \(Self.usage)") }
        view.applyLocation(rest.first)
    }

    func run(_ context: CLIContext) throws(CLIError) {
        let request = ListRequest(session: context.options.session, view: view.isEmpty ? nil : view.spec, offset: offset, limit: limit)
        guard let r = try context.call(.list(request), as: ListResult.self) else { return }
        var index = 0
        let width = String(r.total).count
        for folder in r.folders {
            // A page may show part of a folder: "2 of 312 photos".
            let count = folder.count < folder.total ? "\(folder.count) of \(Format.plural(folder.total, "photo"))"
                                                    : Format.plural(folder.count, "photo")
            Format.write("\(folder.root)/\(folder.path.isEmpty ? "" : folder.path + "/")  (\(count))")
            for _ in 0..<folder.count where index < r.photos.count {
                let p = r.photos[index]
                index += 1
                // The selection number sits beside the photo like a picker's badge.
                let badge = p.selected.map { "[\($0)]" } ?? ""
                let flags = (p.protected == true ? " protected" : "") + (p.offline == true ? " offline" : "")
                let name = p.path.split(separator: "/").last.map(String.init) ?? p.path
                Format.write("  \(Format.pad(String(p.position ?? 0), width, right: true)) \(Format.pad(badge, 5)) \(Format.pad(name, 28)) "
                             + "\(Format.pad(Format.bytes(p.size), 8, right: true))  \(p.captureTime ?? "-")\(flags)")
            }
        }
        let shown = r.photos.count
        if shown < r.total {
            Format.write("(\(r.offset + 1)-\(r.offset + shown) of \(r.total); --offset/--limit for more)")
        } else {
            Format.write("(\(Format.plural(r.total, "photo")))")
        }
    }
}
