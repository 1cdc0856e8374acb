// SPDX-License-Identifier: GPL-2.0-or-later

/// A command line that cannot be run as written: what is wrong, the usage of the
/// command it was meant for, and the exit status to leave (2, as usage errors do).
public struct CommandLineError: Error, Sendable, Equatable {
    /// One sentence, naming the word at fault: `unexpected argument "b"`.
    public var message: String
    /// The command's usage line(s), `curatorctl sync [ROOT] [--timeout MS]`.
    public var usage: String
    /// The command's words, `curatorctl sync`, for the pointer to its help.
    public var commandPath: String
    public var exitCode: Int32 = 2

    /// What the program prints on standard error.
    public var text: String {
        let program = commandPath.split(separator: " ").first.map(String.init) ?? commandPath
        return "\(program): \(message)\nUsage: \(usage)\nSee \(commandPath) --help."
    }
}

/// A value the command line gave that its declaration cannot take.
public struct ValueError: Error, Sendable, Equatable {
    /// The word as given.
    public var text: String
    /// What would have been right: "a whole number", "one of view, select".
    public var expected: String

    public init(text: String, expected: String) {
        self.text = text
        self.expected = expected
    }
}
