// SPDX-License-Identifier: GPL-2.0-or-later

/// Positions in a view as a person types them: `3 5 9-12`, `3,5,9-12`, `9-12 3`.
/// Tokens are separated by spaces and/or commas; each is a number from 1 or a range
/// `a-b`. The order as typed is the order of selection (`5 3` numbers 5 first). A
/// reversed range `12-9` counts down (12, 11, 10, 9), in keeping with that order.
/// A position named twice counts where it first appears.
public struct PositionSpec: Equatable, Sendable {
    /// The most positions one text may name, ranges expanded and repeats included,
    /// so that `1-999999999` is refused before anything is allocated.
    public static let maximumPositions = 1_000_000

    /// 1-based positions in the order typed, without repeats.
    public let positions: [Int]

    public init(parsing text: String) throws(SelectionError) {
        let tokens = text.split { $0.isWhitespace || $0 == "," }
        guard !tokens.isEmpty else { throw .noPositions }
        var named = 0
        var seen = Set<Int>()
        var positions: [Int] = []
        for token in tokens {
            let (first, last) = try Self.bounds(of: token)
            // Both ends are from 1 to Int.max, so their distance is too; the count is
            // checked against what is left, never summed past it.
            let span = (first <= last ? last - first : first - last)
            guard span < Self.maximumPositions - named else {
                throw .invalidPosition(token: String(token), problem: .tooMany(limit: Self.maximumPositions))
            }
            named += span + 1
            let step = first <= last ? 1 : -1
            for position in stride(from: first, through: last, by: step) where seen.insert(position).inserted {
                positions.append(position)
            }
        }
        self.positions = positions
    }

    /// The positions, checked against a view of `count` photos; any beyond it are
    /// refused together (`no_such_position` lists them).
    public func resolve(count: Int) throws(SelectionError) -> [Int] {
        let missing = positions.filter { $0 > count }
        guard missing.isEmpty else { throw .noSuchPosition(positions: missing, viewCount: count) }
        return positions
    }

    /// The elements of `view` at the positions, in the order typed.
    public func resolve<View: RandomAccessCollection>(in view: View) throws(SelectionError) -> [View.Element] {
        try resolve(count: view.count).map { view[view.index(view.startIndex, offsetBy: $0 - 1)] }
    }

    /// A token's first and last position (equal for a single number).
    private static func bounds(of token: Substring) throws(SelectionError) -> (Int, Int) {
        func refuse(_ problem: PositionProblem) -> SelectionError {
            .invalidPosition(token: String(token), problem: problem)
        }
        let parts = token.split(separator: "-", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            let n = try number(parts[0], refuse)
            return (n, n)
        case 2 where parts[0].isEmpty:
            throw refuse(isDigits(parts[1]) ? .negative : .notAPosition)
        case 2:
            let first = try number(parts[0], refuse)
            guard isDigits(parts[1]) else { throw refuse(.unfinishedRange) }
            return (first, try number(parts[1], refuse))
        default:
            throw refuse(.notAPosition)
        }
    }

    private static func number(
        _ text: Substring, _ refuse: (PositionProblem) -> SelectionError
    ) throws(SelectionError) -> Int {
        // Only ASCII digits: Int("+3") would pass, and so would other scripts' digits.
        guard isDigits(text) else { throw refuse(.notAPosition) }
        guard let n = Int(text) else { throw refuse(.numberTooLarge) }
        guard n > 0 else { throw refuse(.zero) }
        return n
    }

    private static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
