// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol

struct ListCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "ls",
        abstract: "List photos of the session's view (or of the view given), numbered, by folder.")

    @Argument("ROOT[/FOLDER]", help: "The root or folder to list (a folder alone when there is one root).")
    var location: String?

    @OptionGroup var view: ViewOptions

    @Option("--offset", value: "N", help: "Skip the first N photos of the view.",
            expecting: "a whole number, 0 or more", transform: { Int($0).flatMap { $0 >= 0 ? $0 : nil } })
    var offset: Int?

    @Option("--limit", "-n", value: "N", help: "Show at most N photos.",
            expecting: "a whole number, 0 or more", transform: { Int($0).flatMap { $0 >= 0 ? $0 : nil } })
    var limit: Int?

    func run(_ context: CLIContext) throws(CLIError) {
        let spec = try view.spec(at: location, context)
        let request = ListRequest(session: context.options.session, view: spec == ViewSpec() ? nil : spec, offset: offset, limit: limit)
        guard let r = try context.call(request) else { return }
        var index = 0
        let width = String(r.total).count
        // The orphans' view lists sidecars whose photo is gone: they are no photos.
        let noun = r.view.filter?.orphans == true ? "orphaned sidecar" : "photo"
        for folder in r.folders {
            // A page may show part of a folder: "2 of 312 photos".
            let count = folder.count < folder.total ? "\(folder.count) of \(Format.plural(folder.total, noun))"
                                                    : Format.plural(folder.count, noun)
            Format.write("\("\(folder.root)/\(folder.path.isEmpty ? "" : folder.path + "/")".forTerminal)  (\(count))")
            for _ in 0..<folder.count where index < r.photos.count {
                let p = r.photos[index]
                index += 1
                // The selection number sits beside the photo like a picker's badge.
                let badge = p.selected.map { "[\($0)]" } ?? ""
                let flags = (p.protected == true ? " protected" : "") + (p.offline == true ? " offline" : "")
                    + (p.duplicateSet.map { " set \($0)" + (p.keeper == true ? "*" : "") } ?? "")
                    + (p.stack.map { " stack \($0) (\(p.stackCount ?? 0))" + (p.stackKeeper == true ? "*" : "") } ?? "")
                let marks = RateOutput.brief(rating: p.rating, flag: p.flag, label: p.label)
                let name = (p.path.split(separator: "/").last.map(String.init) ?? p.path).forTerminal
                // Each file beside its own size; a group's other files (named: they are in its
                // folder) below it, then their sum, which the selection and a delete count.
                Format.write("  \(Format.pad(String(p.position ?? 0), width, right: true)) \(Format.pad(badge, 5)) \(Format.pad(name, 28)) "
                             + "\(Format.pad(Format.bytes(p.size), 8, right: true))  \(p.captureTime ?? "-")\(flags)"
                             + (marks.isEmpty ? "" : "  " + marks))
                let members = p.members ?? []
                for member in members {
                    Format.write("  \(Format.pad("", width)) \(Format.pad("", 5)) + \(Format.pad(member.name.forTerminal, 26)) "
                                 + "\(Format.pad(Format.bytes(member.size), 8, right: true))  \(member.kind)")
                }
                if !members.isEmpty, let total = p.totalSize {
                    Format.write("  \(Format.pad("", width)) \(Format.pad("", 5)) = \(Format.pad("the group's \(members.count + 1) files", 26)) "
                                 + "\(Format.pad(Format.bytes(total), 8, right: true))")
                }
            }
        }
        let shown = r.photos.count
        // Groups count once as photos; their files are said when they are more.
        let files = r.files > r.total ? ", \(Format.plural(r.files, "file"))" : ""
        if shown < r.total {
            Format.write("(\(r.offset + 1)-\(r.offset + shown) of \(r.total)\(files); --offset/--limit for more)")
        } else {
            Format.write("(\(Format.plural(r.total, noun))\(files))")
        }
    }
}
