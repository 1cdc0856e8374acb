// SPDX-License-Identifier: GPL-2.0-or-later

/// The state of one pass over the words.
struct CommandLineWalk {
    let words: [String]
    private(set) var nodes: [CommandNode]
    /// Per command: the words given to each option (by key); one empty word per flag.
    private var given: [[String: [String]]] = [[:]]
    /// Per command: its positional words.
    private var positional: [[String]] = [[]]
    private var index = 0
    private var endOfOptions = false
    private(set) var helpAsked = false
    /// `help COMMAND ...`: the commands named.
    private(set) var helpTopic: [CommandNode]?

    init(words: [String], root: CommandNode) {
        self.words = words
        nodes = [root]
    }

    private var node: CommandNode { nodes[nodes.count - 1] }

    mutating func run() throws(CommandLineError) {
        while index < words.count {
            let word = words[index]
            index += 1
            if !endOfOptions {
                if word == "--" {
                    endOfOptions = true
                    continue
                }
                if word.hasPrefix("--") {
                    try longOption(word)
                    continue
                }
                if word.hasPrefix("-") && word.count > 1 {
                    try shortOptions(word)
                    continue
                }
            }
            if node.isGroup {
                if word == "help" && node.offersHelpCommand {
                    try readHelpTopic()
                    return
                }
                guard let sub = node.subcommand(word) else { throw error("unknown command \"\(word)\"") }
                nodes.append(CommandNode(sub))
                given.append([:])
                positional.append([])
                continue
            }
            positional[nodes.count - 1].append(word)
        }
    }

    /// Whether a word not yet read asks for help (said after an error in an earlier one).
    func helpFollows() -> Bool {
        words[min(index, words.count)...].prefix { $0 != "--" }.contains { node.asksForHelp($0) }
    }

    private mutating func longOption(_ word: String) throws(CommandLineError) {
        let name: String
        var inline: String?
        if let equals = word.firstIndex(of: "=") {
            name = String(word[..<equals])
            inline = String(word[word.index(after: equals)...])
        } else {
            name = word
        }
        if node.asksForHelp(name) {
            helpAsked = true
            return
        }
        let (definition, owner) = try lookUp(name)
        if definition.kind == .flag {
            guard inline == nil else { throw error("\(name) takes no value") }
            record(definition, "", for: owner)
            return
        }
        if let inline {
            record(definition, inline, for: owner)
        } else {
            record(definition, try nextWord(for: name, definition), for: owner)
        }
    }

    /// `-y`, `-n 5`, `-n5`, `-n=5`, `-yn5`.
    private mutating func shortOptions(_ word: String) throws(CommandLineError) {
        var rest = word.dropFirst()
        while let letter = rest.first {
            rest = rest.dropFirst()
            let name = "-" + String(letter)
            if node.asksForHelp(name) {
                helpAsked = true
                continue
            }
            let definition: ArgumentDefinition, owner: Int
            do {
                (definition, owner) = try lookUp(name)
            } catch {
                if word.count == 2 { throw error }
                throw self.error("unknown option \(name) (in \(word))")
            }
            if definition.kind == .flag {
                record(definition, "", for: owner)
                continue
            }
            if rest.isEmpty {
                record(definition, try nextWord(for: name, definition), for: owner)
            } else {
                record(definition, String(rest.first == "=" ? rest.dropFirst() : rest), for: owner)
            }
            return
        }
    }

    /// The option `name` and the command it belongs to (its index in `nodes`): the
    /// current command's, else one of the commands before it, whose options may come
    /// after the subcommand's name too (`curatorctl ls --json`, as gh, kubectl and
    /// docker take theirs). Where both have it, the nearer command's wins.
    private func lookUp(_ name: String) throws(CommandLineError) -> (ArgumentDefinition, Int) {
        if let definition = node.option(named: name) { return (definition, nodes.count - 1) }
        if let owner = nodes.dropLast().lastIndex(where: { $0.option(named: name) != nil }),
           let definition = nodes[owner].option(named: name) {
            return (definition, owner)
        }
        throw error("unknown option \(name)")
    }

    private mutating func nextWord(for name: String, _ definition: ArgumentDefinition) throws(CommandLineError) -> String {
        guard index < words.count else {
            throw error("\(name) needs a value (\(definition.valueName ?? "VALUE"))")
        }
        index += 1
        return words[index - 1]
    }

    private mutating func record(_ definition: ArgumentDefinition, _ value: String, for owner: Int) {
        given[owner][definition.key, default: []].append(value)
    }

    /// `help [COMMAND ...]`: each word names a subcommand of the one before.
    private mutating func readHelpTopic() throws(CommandLineError) {
        var topic = nodes
        for word in words[index...] {
            guard let last = topic.last, let sub = last.subcommand(word) else {
                let path = topic.map(\.configuration.name).joined(separator: " ")
                throw error(topic.last?.isGroup == true ? "unknown command \"\(word)\"" : "\(path) has no subcommand \"\(word)\"")
            }
            topic.append(CommandNode(sub))
        }
        index = words.count
        helpTopic = topic
    }

    /// The command at `position` with its values, checked by its `validate()`.
    func makeCommand(_ position: Int) throws(CommandLineError) -> any ParsableCommand {
        let node = nodes[position]
        let context = HelpFormatter(Array(nodes.prefix(through: position)))
        var values: [String: Any] = [:]
        for definition in node.options {
            values[definition.key] = try resolve(definition, given[position][definition.key] ?? [], context)
        }
        let assigned = try assign(positional[position], to: node.positionals, context)
        for definition in node.positionals {
            values[definition.key] = try resolve(definition, assigned[definition.key] ?? [], context)
        }
        var command: any ParsableCommand
        do {
            command = try node.type.init(from: ArgumentDecoder(values: values, path: []))
        } catch let failure as ValidationError {
            throw context.error(failure.message)
        } catch {
            // Every value was resolved from the declarations: a failure is a command's bug.
            preconditionFailure("\(node.configuration.name): \(error)")
        }
        do {
            try command.validate()
        } catch {
            throw context.error(error.message)
        }
        return command
    }

    private func resolve(_ definition: ArgumentDefinition, _ words: [String], _ context: HelpFormatter)
        throws(CommandLineError) -> Any {
        let value: Any?
        do {
            value = try definition.resolve(words)
        } catch {
            throw context.error("\(definition.displayName) needs \(error.expected), not \"\(error.text)\"")
        }
        guard let value else {
            let what = definition.valueName.map { "\(definition.displayName) \($0)" } ?? definition.displayName
            throw context.error(definition.isPositional ? "missing \(definition.displayName)" : "missing \(what)")
        }
        return value
    }

    /// Gives positional words to the declared arguments in order: required ones
    /// first served, an optional one takes a word when enough are left for the
    /// required after it, a repeating one takes the rest. Words left over are an error.
    private func assign(_ words: [String], to definitions: [ArgumentDefinition], _ context: HelpFormatter)
        throws(CommandLineError) -> [String: [String]] {
        var result: [String: [String]] = [:]
        var next = 0
        for (position, definition) in definitions.enumerated() {
            let requiredAfter = definitions[(position + 1)...].count(where: \.isRequired)
            let available = max(0, words.count - next - requiredAfter)
            let count = definition.isRepeating ? available : min(1, available)
            if count == 0 {
                if definition.isRequired { throw context.error("missing \(definition.displayName)") }
                continue
            }
            result[definition.key] = Array(words[next..<(next + count)])
            next += count
        }
        if next < words.count {
            let extra = words[next]
            throw context.error("unexpected argument \"\(extra)\"" + (words.count - next > 1 ? " (and \(words.count - next - 1) more)" : ""))
        }
        return result
    }

    private func error(_ message: String) -> CommandLineError { HelpFormatter(nodes).error(message) }
}
