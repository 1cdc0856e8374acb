// SPDX-License-Identifier: GPL-2.0-or-later

/// A type an option or an argument can hold, made from one command-line word.
public protocol ExpressibleByArgument: SendableMetatype {
    init?(argument: String)
    /// What a valid word looks like, for the error about a wrong one: "a whole number".
    static var expectation: String { get }
}

extension String: ExpressibleByArgument {
    public init?(argument: String) { self = argument }
    public static var expectation: String { "a word" }
}

extension Int: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
    public static var expectation: String { "a whole number" }
}

extension Int64: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
    public static var expectation: String { "a whole number" }
}

extension Double: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
    public static var expectation: String { "a number" }
}

/// An enumeration of words (`capture`, `name`, ...): conform it, and its cases are
/// the values, listed in the error about a wrong one.
extension ExpressibleByArgument where Self: CaseIterable & RawRepresentable, RawValue == String {
    public init?(argument: String) { self.init(rawValue: argument) }
    public static var expectation: String { "one of " + allCases.map(\.rawValue).joined(separator: ", ") }
}
