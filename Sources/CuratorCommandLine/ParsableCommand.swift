// SPDX-License-Identifier: GPL-2.0-or-later

/// A set of declared arguments, parsed from a command line: the shape of
/// swift-argument-parser. Every stored property is an `@Option`, `@Flag`,
/// `@Argument` or `@OptionGroup`; the parser finds them by reflecting on `init()`
/// (so help and usage come from the declarations) and fills them by decoding.
public protocol ParsableArguments: Decodable, SendableMetatype {
    init()
    /// Checks what the declarations alone cannot say, such as "at least one of".
    mutating func validate() throws(ValidationError)
}

extension ParsableArguments {
    public mutating func validate() throws(ValidationError) {}
}

/// A command: its declared arguments and its configuration (name, one-line
/// abstract, subcommands). A command with subcommands is a group.
public protocol ParsableCommand: ParsableArguments {
    static var configuration: CommandConfiguration { get }
}

/// What a command says about itself; the help is generated from it and from the
/// declarations.
public struct CommandConfiguration: Sendable {
    /// The word that names the command (the program's name for the root).
    public var name: String
    /// One line: what the command does.
    public var abstract: String
    /// Paragraphs shown after the options, for what does not belong to one option.
    public var discussion: String
    /// The commands below this one, in the order the help lists them.
    public var subcommands: [any ParsableCommand.Type]

    public init(name: String, abstract: String, discussion: String = "", subcommands: [any ParsableCommand.Type] = []) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.subcommands = subcommands
    }
}

/// What a command's `validate()` throws: a sentence for people. The parser adds
/// the usage and the exit status of a usage error.
public struct ValidationError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
