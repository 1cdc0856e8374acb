// SPDX-License-Identifier: GPL-2.0-or-later

/// Turns a pattern string into `Glob` tokens.
struct GlobCompiler {
    private let scalars: [UInt32]
    private let options: Glob.Options
    private var index = 0
    private var tokens: [GlobToken] = []

    init(pattern: String, options: Glob.Options) {
        self.scalars = pattern.unicodeScalars.map(\.value)
        self.options = options
    }

    consuming func compile() -> [GlobToken] {
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case ascii("\\"):
                if index < scalars.count {
                    appendLiteral(scalars[index])
                    index += 1
                } else {
                    appendLiteral(scalar)
                }
            case ascii("?"):
                tokens.append(.anyOne)
            case ascii("*"):
                compileStars()
            case ascii("["):
                if let set = bracketExpression() {
                    tokens.append(.set(set))
                } else {
                    appendLiteral(scalar)
                }
            default:
                appendLiteral(scalar)
            }
        }
        return tokens
    }

    private mutating func appendLiteral(_ scalar: UInt32) {
        tokens.append(.literal(options.contains(.caseInsensitive) ? GlobUnits.lowercased(scalar) : scalar))
    }

    private mutating func compileStars() {
        var count = 1
        while index < scalars.count && scalars[index] == ascii("*") {
            count += 1
            index += 1
        }
        guard options.contains(.pathname), count >= 2 else {
            if tokens.last != .star { tokens.append(.star) }
            return
        }
        let startsComponent = tokens.isEmpty || tokens.last == .literal(GlobUnits.slash)
        if startsComponent && index < scalars.count && scalars[index] == GlobUnits.slash {
            index += 1
            tokens.append(.directories)
        } else {
            tokens.append(.globstar)
        }
    }

    /// Parses after a `[`; nil (and no input consumed) when it is never closed.
    private mutating func bracketExpression() -> GlobScalarSet? {
        var position = index
        var set = GlobScalarSet()
        if position < scalars.count && (scalars[position] == ascii("!") || scalars[position] == ascii("^")) {
            set.negated = true
            position += 1
        }
        var first = true
        while position < scalars.count {
            var low = scalars[position]
            if low == ascii("]") && !first {
                index = position + 1
                return set
            }
            first = false
            position += 1
            if low == ascii("\\") && position < scalars.count {
                low = scalars[position]
                position += 1
            }
            var high = low
            // `a-z` is a range; a `-` before the closing `]` is itself.
            if position + 1 < scalars.count && scalars[position] == ascii("-") && scalars[position + 1] != ascii("]") {
                position += 1
                high = scalars[position]
                position += 1
                if high == ascii("\\") && position < scalars.count {
                    high = scalars[position]
                    position += 1
                }
            }
            // A reversed range (`[z-a]`) matches nothing, as in the shell.
            if low <= high { set.ranges.append(low...high) }
        }
        return nil
    }
}

@inline(__always)
private func ascii(_ character: Unicode.Scalar) -> UInt32 { character.value }
