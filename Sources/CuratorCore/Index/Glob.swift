// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// A shell-style pattern matched against file names as bytes: `*`, `?`, `[a-z]`,
/// `[!...]` or `[^...]`, and `\` to escape. `?` and `[...]` consume one character
/// when the bytes are UTF-8 there, and one byte where they are not, so names in
/// any encoding can be matched. A malformed pattern never fails: an unclosed `[`
/// and a trailing `\` stand for themselves, as in the shell.
///
/// Matching runs the pattern as a set of reachable positions over the name, so it
/// takes time proportional to pattern × name whatever the stars, never exponential.
public struct Glob: Hashable, Sendable, CustomStringConvertible {
    public struct Options: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Letters match either case (Unicode simple case mapping).
        public static let caseInsensitive = Options(rawValue: 1 << 0)
        /// For whole relative paths: `*`, `?` and `[...]` never match `/`, `**` does,
        /// and `**/` also matches no directory at all (`**/*.jpg` matches `a.jpg`).
        public static let pathname = Options(rawValue: 1 << 1)
    }

    public let pattern: String
    public let options: Options
    private let tokens: [GlobToken]

    public init(pattern: String, options: Options = []) {
        self.pattern = pattern
        self.options = options
        self.tokens = GlobCompiler(pattern: pattern, options: options).compile()
    }

    public var description: String { pattern }

    /// True when the pattern has no wildcard: a caller may then compare names directly.
    public var isLiteral: Bool {
        tokens.allSatisfy { if case .literal = $0 { true } else { false } }
    }

    public func matches(_ name: ByteString) -> Bool {
        let units = GlobUnits.decode(name.bytes, foldingCase: options.contains(.caseInsensitive))
        let count = units.count
        let pathname = options.contains(.pathname)
        // reachable[p]: the tokens so far can consume exactly units[0..<p].
        var reachable = [Bool](repeating: false, count: count + 1)
        var next = reachable
        reachable[0] = true
        for token in tokens {
            for p in next.indices { next[p] = false }
            switch token {
            case .literal, .anyOne, .set:
                for p in 0..<count where reachable[p] && accepts(token, units[p], pathname: pathname) {
                    next[p + 1] = true
                }
            case .star, .globstar:
                let stopsAtSlash = pathname && token == .star
                var running = false
                for p in 0...count {
                    if reachable[p] { running = true }
                    if running { next[p] = true }
                    if stopsAtSlash && p < count && units[p] == GlobUnits.slash { running = false }
                }
            case .directories:
                var seen = false
                for p in 0...count {
                    if seen && p > 0 && units[p - 1] == GlobUnits.slash { next[p] = true }
                    if reachable[p] {
                        next[p] = true
                        seen = true
                    }
                }
            }
            swap(&reachable, &next)
            if !reachable.contains(true) { return false }
        }
        return reachable[count]
    }

    public func matches(_ name: String) -> Bool { matches(ByteString(name)) }

    private func accepts(_ token: GlobToken, _ unit: UInt32, pathname: Bool) -> Bool {
        if pathname && unit == GlobUnits.slash { return token == .literal(GlobUnits.slash) }
        switch token {
        case .literal(let scalar): return unit == scalar
        case .anyOne: return true
        case .set(let set):
            guard options.contains(.caseInsensitive) else { return set.contains(unit) }
            // `unit` is already lowercased; `[A-Z]` must still match it.
            return set.contains(unit, or: GlobUnits.uppercased(unit))
        case .star, .globstar, .directories: return false
        }
    }
}

/// One step of a compiled pattern. Characters are Unicode scalar values; a byte
/// that is not part of valid UTF-8 becomes a value above U+10FFFF (see `GlobUnits`).
enum GlobToken: Hashable, Sendable {
    case literal(UInt32)
    case anyOne
    case set(GlobScalarSet)
    /// `*`: any run, which stops at `/` in pathname mode.
    case star
    /// `**` in pathname mode: any run, slashes included.
    case globstar
    /// `**/` in pathname mode: nothing, or any run that ends with `/`.
    case directories
}

/// The members of a `[...]` bracket expression.
struct GlobScalarSet: Hashable, Sendable {
    var ranges: [ClosedRange<UInt32>] = []
    var negated = false

    func contains(_ unit: UInt32) -> Bool {
        ranges.contains { $0.contains(unit) } != negated
    }

    /// Whether either spelling of one character is in the set; negation applies
    /// to the pair, so `[!a-z]` rejects `I` whose lowercase is listed.
    func contains(_ unit: UInt32, or other: UInt32) -> Bool {
        ranges.contains { $0.contains(unit) || $0.contains(other) } != negated
    }
}
