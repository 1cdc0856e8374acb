// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import Foundation

/// Prints a session's state after a change, the way a person reads it.
enum SessionOutput {
    /// Said when the change created the session and an idle one made room for it.
    static func evictionNote(_ r: SessionResult) {
        guard let evicted = r.evicted else { return }
        Format.write("Session \(evicted) (nothing selected, least recently used) was forgotten to make room for \(r.session).")
    }

    static func describe(_ r: SessionResult) -> String {
        var text = "Session \(r.session): \(r.mode == .select ? "select" : "view") mode"
        if r.mode == .select {
            text += ", \(Format.plural(r.count, "photo")) selected (\(Format.bytes(r.bytes)))"
            if let hidden = r.hidden, hidden > 0 { text += ", \(hidden) of them hidden by the view" }
            if let cap = r.cap { text += ", at most \(cap)" }
        }
        return text + "."
    }
}

struct ViewCommand: CLICommand {
    static let name = "view"
    static let abstract = "Set what the session looks at; another root or folder clears its selection, a filter or sort keeps it."
    static let usage = "view [ROOT[/FOLDER]] [--glob PATTERN] [--type jpeg,nef] [--from DATE] [--to DATE] [--sort capture|name|mtime|size|custom] [--desc] [--flat]"
    var view: ViewOptions

    init(parsing arguments: inout ArgumentList) throws(CLIError) {
        view = try ViewOptions(parsing: &arguments)
        let rest = try arguments.positionals()
        guard rest.count <= 1 else { throw CLIError.usage("usage: curatorctl \(Self.usage)") }
        view.applyLocation(rest.first)
    }

    func run(_ context: CLIContext) throws(CLIError) {
        let request = ViewRequest(session: context.options.session, view: view.spec)
        guard let r = try context.call(.view(request), as: SessionResult.self) else { return }
        SessionOutput.evictionNote(r)
        if let removed = r.removed, removed > 0 { Format.write("The view changed: \(Format.plural(removed, "photo")) left the selection.") }
        Format.write(SessionOutput.describe(r))
    }
}

struct ModeCommand: CLICommand {
    static let name = "mode"
    static let abstract = "Switch the session between view and select mode (leaving select mode clears the selection)."
    static let usage = "mode select|view [--cap N]"
    var mode: SessionMode
    var cap: Int?

    init(parsing arguments: inout ArgumentList) throws(CLIError) {
        cap = try arguments.intOption("--cap")
        let rest = try arguments.positionals()
        guard rest.count == 1, let mode = SessionMode(rawValue: rest[0]) else { throw CLIError.usage("usage: curatorctl \(Self.usage)") }
        self.mode = mode
    }

    func run(_ context: CLIContext) throws(CLIError) {
        guard let r = try context.call(.mode(ModeRequest(session: context.options.session, mode: mode, cap: cap)), as: SessionResult.self)
        else { return }
        SessionOutput.evictionNote(r)
        if let removed = r.removed, removed > 0 { Format.write("Left select mode: \(Format.plural(removed, "photo")) deselected.") }
        Format.write(SessionOutput.describe(r))
    }
}

/// select / deselect / toggle share their parsing.
struct SelectorOptions {
    var selector = PhotoSelector()

    init(parsing arguments: inout ArgumentList, allowAll: Bool) throws(CLIError) {
        if allowAll, arguments.flag("--all") { selector.all = true }
        selector.glob = try arguments.option("--glob")
        selector.folder = try arguments.option("--folder")
        selector.from = try arguments.option("--from")
        selector.to = try arguments.option("--to")
        if let ids = try arguments.option("--id", "--ids") {
            var parsed: [Int64] = []
            for part in ids.split(separator: ",") {
                guard let id = Int64(part.trimmingCharacters(in: .whitespaces)) else { throw CLIError.usage("--id takes photo ids, like 42,43") }
                parsed.append(id)
            }
            selector.ids = parsed
        }
        let words = try arguments.positionals()
        if !words.isEmpty { selector.positions = words.joined(separator: " ") }
        if selector == PhotoSelector() {
            throw CLIError.usage("name the photos: positions (3 5 9-12)\(allowAll ? ", --all" : ""), --glob PATTERN, --folder PATH, --from/--to DATE or --id N")
        }
    }
}

struct SelectionVerbCommand {
    enum Verb: String { case select, deselect, toggle }

    /// Sends the verb; in view mode, enters select mode first and says so (the CLI's courtesy).
    static func run(_ verb: Verb, _ selector: PhotoSelector, _ context: CLIContext) throws(CLIError) {
        let request = SelectRequest(session: context.options.session, selector: selector)
        let command: Command = switch verb {
        case .select: .select(request)
        case .deselect: .deselect(request)
        case .toggle: .toggle(request)
        }
        let result: SessionResult?
        do {
            result = try context.call(command, as: SessionResult.self)
        } catch CLIError.daemon(let error) where error.code == .notInSelectMode && verb != .deselect && !context.options.json {
            if let entered = try context.call(.mode(ModeRequest(session: context.options.session, mode: .select)), as: SessionResult.self) {
                SessionOutput.evictionNote(entered)
            }
            Format.write("Entered select mode.")
            result = try context.call(command, as: SessionResult.self)
        }
        guard let r = result else { return }
        var parts: [String] = []
        if let added = r.added, added > 0 { parts.append("\(added) selected") }
        if let removed = r.removed, removed > 0 { parts.append("\(removed) deselected") }
        if let skipped = r.skippedProtected, skipped > 0 {
            parts.append("\(Format.plural(skipped, "protected photo")) left out (protected folders cannot be selected)")
        }
        if !parts.isEmpty { Format.write(parts.joined(separator: ", ").prefix(1).uppercased() + parts.joined(separator: ", ").dropFirst() + ".") }
        Format.write(SessionOutput.describe(r))
    }
}

struct SelectCommand: CLICommand {
    static let name = "select"
    static let abstract = "Select photos by position in the view (3 5 9-12), --all, --glob, --folder, --from/--to, or --id."
    static let usage = "select POSITIONS... | --all | --glob PATTERN | --folder PATH | --from DATE [--to DATE] | --id N,M"
    var options: SelectorOptions
    init(parsing arguments: inout ArgumentList) throws(CLIError) { options = try SelectorOptions(parsing: &arguments, allowAll: true) }
    func run(_ context: CLIContext) throws(CLIError) { try SelectionVerbCommand.run(.select, options.selector, context) }
}

struct DeselectCommand: CLICommand {
    static let name = "deselect"
    static let abstract = "Deselect photos; the numbers of those selected after them shift down."
    static let usage = "deselect POSITIONS... | --all | --glob PATTERN | --folder PATH | --from DATE [--to DATE] | --id N,M"
    var options: SelectorOptions
    init(parsing arguments: inout ArgumentList) throws(CLIError) { options = try SelectorOptions(parsing: &arguments, allowAll: true) }
    func run(_ context: CLIContext) throws(CLIError) { try SelectionVerbCommand.run(.deselect, options.selector, context) }
}

struct ToggleCommand: CLICommand {
    static let name = "toggle"
    static let abstract = "Select the unselected and deselect the selected, like tapping each photo."
    static let usage = "toggle POSITIONS... | --glob PATTERN | --folder PATH | --id N,M"
    var options: SelectorOptions
    init(parsing arguments: inout ArgumentList) throws(CLIError) { options = try SelectorOptions(parsing: &arguments, allowAll: true) }
    func run(_ context: CLIContext) throws(CLIError) { try SelectionVerbCommand.run(.toggle, options.selector, context) }
}

struct ClearCommand: CLICommand {
    static let name = "clear"
    static let abstract = "Deselect everything (the session stays in select mode)."
    static let usage = "clear"
    init(parsing arguments: inout ArgumentList) throws(CLIError) { try arguments.noMore() }
    func run(_ context: CLIContext) throws(CLIError) {
        guard let r = try context.call(.clear(SessionRequest(session: context.options.session)), as: SessionResult.self) else { return }
        Format.write(SessionOutput.describe(r))
    }
}

struct SelectionCommand: CLICommand {
    static let name = "selection"
    static let abstract = "Show the selection in the order chosen, numbered, with totals."
    static let usage = "selection"
    init(parsing arguments: inout ArgumentList) throws(CLIError) { try arguments.noMore() }
    func run(_ context: CLIContext) throws(CLIError) {
        guard let r = try context.call(.selection(SessionRequest(session: context.options.session)), as: SelectionResult.self) else { return }
        if r.items.isEmpty {
            Format.write(r.mode == .select ? "Nothing is selected." : "Nothing is selected (the session is in view mode).")
            return
        }
        let width = String(r.items.count).count
        for item in r.items {
            Format.write("\(Format.pad(String(item.number), width, right: true)). \(item.root)/\(item.path)  \(Format.bytes(item.size))"
                         + (item.captureTime.map { "  \($0)" } ?? "") + "  #\(item.id)" + (item.hidden == true ? "  (hidden by the view)" : ""))
        }
        let hidden = (r.hidden ?? 0) > 0 ? "; \(r.hidden ?? 0) hidden by the view" : ""
        Format.write("\(Format.plural(r.count, "photo")), \(Format.bytes(r.bytes))" + (r.cap.map { " (at most \($0))" } ?? "") + hidden)
    }
}

struct MoveCommand: CLICommand {
    static let name = "move"
    static let abstract = "Move a photo to another position in its folder's custom order (view sorted by custom, no filter)."
    static let usage = "move POS --to POS"
    var from: Int
    var to: Int

    init(parsing arguments: inout ArgumentList) throws(CLIError) {
        guard let to = try arguments.intOption("--to") else { throw CLIError.usage("usage: curatorctl \(Self.usage)") }
        let rest = try arguments.positionals()
        guard rest.count == 1, let from = Int(rest[0]) else { throw CLIError.usage("usage: curatorctl \(Self.usage)") }
        self.from = from
        self.to = to
    }

    func run(_ context: CLIContext) throws(CLIError) {
        let request = ReorderRequest(session: context.options.session, position: from, to: to)
        guard let r = try context.call(.reorder(request), as: ReorderResult.self) else { return }
        Format.write("Moved photo #\(r.id) from position \(r.from) to \(r.to).")
    }
}
