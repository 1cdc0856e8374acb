// SPDX-License-Identifier: GPL-2.0-or-later

/// Why one token of typed positions (`3 5 9-12`) was refused.
public enum PositionProblem: Equatable, Sendable {
    /// Not a number or a range: `x`, `3.5`, `+3`, `-`.
    case notAPosition
    /// `0`, or a range that starts or ends at 0: positions start at 1.
    case zero
    /// `-3`: a dash before the number.
    case negative
    /// `3-` or `3-x`: a range without a valid end.
    case unfinishedRange
    /// More digits than any position could have.
    case numberTooLarge
    /// The positions typed so far, ranges expanded, pass `limit`.
    case tooMany(limit: Int)
}
