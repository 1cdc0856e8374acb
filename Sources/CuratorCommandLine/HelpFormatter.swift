// SPDX-License-Identifier: GPL-2.0-or-later

/// The usage line and the help of a command, generated from its declarations so
/// that they cannot drift from what the parser takes.
struct HelpFormatter {
    /// From the root to the command described.
    let nodes: [CommandNode]

    init(_ nodes: [CommandNode]) { self.nodes = nodes }

    private var node: CommandNode { nodes[nodes.count - 1] }
    var path: String { nodes.map(\.configuration.name).joined(separator: " ") }

    func error(_ message: String) -> CommandLineError {
        CommandLineError(message: message, usage: usage(), commandPath: path)
    }

    // MARK: usage

    /// `curatorctl sync [ROOT] [--timeout MS]`, wrapped to follow "Usage: ".
    func usage() -> String {
        var atoms: [String] = []
        if node.isGroup {
            atoms = node.options.map(Self.usageAtom) + ["COMMAND [ARGS]"]
        } else {
            atoms = node.positionals.map(Self.usageAtom) + node.options.map(Self.usageAtom)
        }
        let lead = "Usage: \(path) "
        let indent = lead.count <= 40 ? lead.count : 8
        let lines = TextWrapper.fill(atoms, first: lead.count, indent: indent)
        let filler = String(repeating: " ", count: indent)
        return ([path + (atoms.isEmpty ? "" : " " + lines[0])] + lines.dropFirst().map { filler + $0 }).joined(separator: "\n")
    }

    static func usageAtom(_ definition: ArgumentDefinition) -> String {
        switch definition.kind {
        case .flag:
            return "[\(definition.displayName)]"
        case .option(let valueName):
            let core = "\(definition.displayName) \(valueName)"
            return definition.isRepeating ? "[\(core) ...]" : definition.isRequired ? core : "[\(core)]"
        case .positional(let valueName):
            return definition.isRepeating ? "[\(valueName) ...]" : definition.isRequired ? valueName : "[\(valueName)]"
        }
    }

    // MARK: help

    func help() -> String {
        var sections: [(title: String, rows: [(label: String, text: String)])] = []
        if !node.positionals.isEmpty {
            sections.append(("Arguments:", node.positionals.map { ($0.valueName ?? "", Self.helpText($0)) }))
        }
        var options = node.options.map { (label: Self.label($0), text: Self.helpText($0)) }
        if node.option(named: "--help") == nil {
            options.append((node.option(named: "-h") == nil ? "-h, --help" : "--help", "Show this help."))
        }
        sections.append(("Options:", options))
        if node.isGroup {
            var commands = node.configuration.subcommands.map { (label: $0.configuration.name, text: $0.configuration.abstract) }
            if node.offersHelpCommand { commands.append(("help", "Show the help of a command: \(path) help COMMAND.")) }
            sections.append(("Commands:", commands))
        }
        // One column for the texts of every section, so that they line up.
        let column = 2 + min(sections.flatMap(\.rows).map(\.label.count).max() ?? 0, 24) + 2
        var out = ["Usage: " + usage(), ""]
        out += TextWrapper.wrap(node.configuration.abstract)
        for section in sections {
            out += ["", section.title] + Self.rows(section.rows, column: column)
        }
        if !node.configuration.discussion.isEmpty {
            out += [""] + TextWrapper.wrap(node.configuration.discussion)
        }
        let notes = ancestorNotes()
        if !notes.isEmpty { out += [""] + notes }
        return out.joined(separator: "\n")
    }

    /// Where the options of the commands before this one go.
    private func ancestorNotes() -> [String] {
        var notes: [String] = []
        for position in nodes.indices.dropLast() where !nodes[position].options.isEmpty {
            let owner = nodes[...position].map(\.configuration.name).joined(separator: " ")
            let after = nodes[(position + 1)...].map(\.configuration.name).joined(separator: " ")
            let names = nodes[position].options.map(\.displayName).joined(separator: ", ")
            notes += TextWrapper.wrap("The options of \(owner) (\(names)) go before \"\(after)\": see \(owner) --help.")
        }
        return notes
    }

    /// `-n, --limit N`: short names first, as people scan for them.
    static func label(_ definition: ArgumentDefinition) -> String {
        let names = definition.names.filter { !$0.hasPrefix("--") } + definition.names.filter { $0.hasPrefix("--") }
        let value = definition.valueName.map { " " + $0 } ?? ""
        return names.joined(separator: ", ") + value
    }

    static func helpText(_ definition: ArgumentDefinition) -> String {
        guard let value = definition.defaultDescription else { return definition.help }
        return definition.help + " (default: \(value))"
    }

    /// Two columns: the label at 2, the text at `column`; a label too long for
    /// the gap has its text on the next line.
    static func rows(_ rows: [(label: String, text: String)], column: Int) -> [String] {
        var lines: [String] = []
        let filler = String(repeating: " ", count: column)
        for row in rows {
            let text = TextWrapper.wrap(row.text, first: column, indent: column)
            let head = "  " + row.label
            if head.count + 2 <= column {
                lines.append(head + String(repeating: " ", count: column - head.count) + text[0])
            } else {
                lines.append(head)
                lines.append(filler + text[0])
            }
            lines += text.dropFirst().map { filler + $0 }
        }
        return lines
    }
}
