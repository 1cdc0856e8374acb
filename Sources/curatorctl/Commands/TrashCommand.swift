// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorCommandLine
import CuratorProtocol
import Foundation

/// `trash`: what you trashed through curatord, listed and emptied.
struct TrashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "trash",
        abstract: "List or empty the photos you trashed through curatord (either kind of trash).",
        subcommands: [TrashListCommand.self, TrashEmptyCommand.self])
}

/// The options `trash list` and `trash empty` share.
struct TrashFilterOptions: ParsableArguments {
    @Option("--root", value: "NAME", help: "Only the photos trashed from this root.")
    var root: String?

    @Option("--older-than", value: "AGE", help: "Only photos trashed at least this long ago: days (30d, or 30) or weeks (4w).",
            expecting: "a number of days (30d) or weeks (4w)", transform: { TrashFilterOptions.days($0) })
    var olderThan: Int?

    static func days(_ text: String) -> Int? {
        let unit = text.last.map { $0.isLetter ? $0 : "d" } ?? "d"
        let number = text.last?.isLetter == true ? String(text.dropLast()) : text
        guard let n = Int(number), n >= 0, n <= 100_000 else { return nil }
        switch unit {
        case "d": return n
        case "w": return n * 7
        default: return nil
        }
    }

    var request: TrashListRequest { TrashListRequest(root: root, olderThanDays: olderThan) }
}

struct TrashListCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "list",
        abstract: "List the photos you trashed that are still in the trash: when, from where, and where they are now.")

    @OptionGroup var filter: TrashFilterOptions

    func run(_ context: CLIContext) throws(CLIError) {
        guard let r = try context.call(filter.request) else { return }
        guard r.photos.isEmpty, filter.root != nil || filter.olderThan != nil else {
            Self.write(r)
            return
        }
        // Nothing passes the filter: say what it left out, not that the trash is empty.
        let all = try context.connection().call(TrashListRequest())
        Format.write(Self.nothing(filter, besides: all))
    }

    /// "Nothing of yours has been in the trash for 30 days or more; 3 photos are, for less
    /// (curatorctl trash list)." when the filter left out what there is.
    static func nothing(_ filter: TrashFilterOptions, besides all: TrashListResult) -> String {
        var what = "Nothing of yours"
        if let root = filter.root { what += " from root \(root)" }
        what += filter.olderThan.map { " has been in the trash for \($0) day\($0 == 1 ? "" : "s") or more" } ?? " is in the trash"
        guard !all.photos.isEmpty else { return what + "." }
        let others = PhotoFileCount(all.photos)
        return what + "; \(others.phrase) \(others.photos == 1 ? "is" : "are") there"
            + (filter.olderThan != nil ? " for less" : "") + (filter.root != nil ? " from other roots" : "")
            + " (curatorctl trash list)."
    }

    static func write(_ r: TrashListResult, limit: Int? = nil) {
        if r.photos.isEmpty {
            Format.write("Nothing of yours is in the trash.")
            return
        }
        for p in r.photos.prefix(limit ?? r.photos.count) {
            Format.write("\(p.trashedAt)  batch \(Format.pad(String(p.batch), 4, right: true))  \("\(p.root)/\(p.path)".forTerminal)  "
                         + "\(Format.bytes(p.size))  \(p.kind.rawValue): \(p.location.forTerminal)")
        }
        if let limit, r.photos.count > limit { Format.write("  ... and \(r.photos.count - limit) more") }
        // Each file of a group is listed: photos and files counted apart.
        Format.write("\(PhotoFileCount(r.photos).phrase), \(Format.bytes(r.bytes)).")
    }
}

/// Asked like `rm`: the list shown, then [y/N] (or --yes), then exactly that list emptied.
struct TrashEmptyCommand: CLICommand {
    static let configuration = CommandConfiguration(
        name: "empty",
        abstract: "Delete for good the photos you trashed (or those older than --older-than), after showing them and asking.")

    @OptionGroup var filter: TrashFilterOptions

    @Flag("--yes", "-y", help: "Do not ask (for scripts): the list is shown and emptied.")
    var yes: Bool

    func run(_ context: CLIContext) throws(CLIError) {
        let client = try context.connection()
        let listing = try client.call(filter.request)
        if listing.photos.isEmpty {
            if context.options.json {
                Format.writeRaw(try client.callRaw(filter.request))
            } else {
                Format.write("Nothing of yours is in the trash" + (filter.olderThan.map { " since more than \($0) days" } ?? "") + ".")
            }
            return
        }
        if !context.options.json {
            Format.write("Delete \(PhotoFileCount(listing.photos).phrase), \(Format.bytes(listing.bytes)), for good? "
                         + "This cannot be undone.")
            TrashListCommand.write(listing, limit: 5)
        }
        if !yes {
            Format.prompt("Empty? [y/N] ")
            let answer = readLine(strippingNewline: true)?.lowercased() ?? ""
            guard answer == "y" || answer == "yes" else { throw CLIError.cancelled }
        }
        let request = TrashEmptyRequest(root: filter.root, olderThanDays: filter.olderThan, token: listing.token)
        guard let (r, writeText) = try context.callDecoding(request) else { return }
        if writeText {
            let emptied = PhotoFileCount(r.items.filter { $0.outcome == .emptied })
            Format.write("\(emptied.phrase) emptied (\(Format.bytes(r.bytes)))"
                         + (r.skipped > 0 ? ", \(Format.plural(r.skipped, "file")) not:" : "."))
            for item in r.items where item.outcome != .emptied {
                Format.write("  \("\(item.root)/\(item.path)".forTerminal): \(item.outcome.rawValue)" + (item.detail.map { " (\($0.forTerminal))" } ?? ""))
            }
        }
        // One another tool took out of the trash meanwhile (`missing`) is not left behind.
        guard r.emptied + r.items.count(where: { $0.outcome == .missing }) < r.items.count else { return }
        throw CLIError.incomplete(r.emptied == 0 ? "nothing was emptied." : "only \(r.emptied) of \(r.items.count) files were emptied.",
                                  nothingDone: r.emptied == 0)
    }
}
