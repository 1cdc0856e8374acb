// SPDX-License-Identifier: GPL-2.0-or-later

import CuratorProtocol

/// Why a selection request was refused. A refused request changed nothing.
public enum SelectionError: Error, Equatable, Sendable {
    /// Selection operations need the session to be in select mode (article 000).
    case notInSelectMode
    /// The result would pass the cap. `requested`: photos the request would add;
    /// `available`: room left for new photos beside those that stay selected.
    case selectionFull(cap: Int, requested: Int, available: Int)
    /// Positions outside the view's 1...`viewCount`, in the order typed.
    case noSuchPosition(positions: [Int], viewCount: Int)
    /// Positions were asked for, but the text names none.
    case noPositions
    /// One token of typed positions could not be read.
    case invalidPosition(token: String, problem: PositionProblem)
    /// A cap below 1.
    case invalidCap(Int)
    /// A new cap below what the selection already holds.
    case capBelowSelection(cap: Int, count: Int)
    /// The result would pass the daemon's limit on what a selection, or all of a
    /// user's selections, may hold. Fields as for `selectionFull`.
    case limitReached(SelectionLimit, requested: Int, available: Int)
}

extension SelectionError: CustomStringConvertible {
    /// Reads as a sentence, for people (the CLI shows it unless `--json`).
    public var message: String {
        switch self {
        case .notInSelectMode:
            return "The session is in view mode; switch it to select mode to change its selection."
        case let .selectionFull(cap, requested, available):
            let total = cap - available + requested
            let room = available > 0 ? " Only \(available) more \(photos(available)) would fit." : ""
            return "The selection is full: it holds at most \(cap) \(photos(cap)), and this would make \(total).\(room)"
        case let .noSuchPosition(positions, viewCount):
            let view = viewCount == 0 ? "The view is empty" : "The view has \(viewCount) \(photos(viewCount))"
            return "\(view), so there is no photo at \(positionList(positions))."
        case .noPositions:
            return "No positions were given; name them like 3 5 9-12."
        case let .invalidPosition(token, problem):
            return invalidPositionMessage(token, problem)
        case let .invalidCap(cap):
            return "A cap of \(cap) is not possible: a selection's cap must be at least 1."
        case let .capBelowSelection(cap, count):
            return "The selection already holds \(count) photos, more than a cap of \(cap); deselect some first."
        case let .limitReached(limit, requested, available):
            let room = available > 0 ? " Only \(available) more \(photos(available)) would fit." : ""
            switch limit.reason {
            case .selection:
                let total = limit.most - available + requested
                return "A selection may hold at most \(limit.configured) photos (max_selection), and this would make \(total).\(room)"
            case .user:
                let total = limit.configured - available + requested
                return "Your sessions together may hold at most \(limit.configured) selected photos (max_selected_per_user), "
                    + "and this would make \(total); deselect some here or in your other sessions.\(room)"
            }
        }
    }

    public var description: String { message }

    /// How many bad positions an error lists (on the wire, and in the sentence), so
    /// that `1-1000000` against a small view does not send a million numbers.
    static let listedPositionsLimit = 100
    static let spokenPositionsLimit = 10

    public var protocolError: ProtocolError {
        switch self {
        case .notInSelectMode:
            return ProtocolError(.notInSelectMode, message)
        case .selectionFull, .limitReached:
            return ProtocolError(.selectionFull, message)
        case let .noSuchPosition(positions, _):
            return ProtocolError(.noSuchPosition, message, positions: Array(positions.prefix(Self.listedPositionsLimit)))
        case .noPositions, .invalidPosition:
            return ProtocolError(.invalidArgument, message, argument: "positions")
        case .invalidCap, .capBelowSelection:
            return ProtocolError(.invalidArgument, message, argument: "cap")
        }
    }

    private func invalidPositionMessage(_ token: String, _ problem: PositionProblem) -> String {
        let quoted = "“\(token)”"
        switch problem {
        case .notAPosition:
            return "\(quoted) is not a position: give whole numbers like 3, or ranges like 9-12."
        case .zero:
            return "\(quoted) names position 0, but positions start at 1."
        case .negative:
            return "\(quoted) is not a position: positions start at 1, and a range is written 9-12."
        case .unfinishedRange:
            return "\(quoted) is not a finished range: write a range with both ends, like 9-12."
        case .numberTooLarge:
            return "\(quoted) is too large to be a position."
        case let .tooMany(limit):
            return "Too many positions: with \(quoted) they pass \(limit), the most one request may name."
        }
    }

    private func photos(_ n: Int) -> String { n == 1 ? "photo" : "photos" }

    private func positionList(_ positions: [Int]) -> String {
        let shown = positions.prefix(Self.spokenPositionsLimit).map(String.init)
        guard let last = shown.last else { return "those positions" }
        if shown.count == 1 { return "position \(last)" }
        let more = positions.count - shown.count
        if more > 0 { return "positions \(shown.joined(separator: ", ")) and \(more) more" }
        return "positions \(shown.dropLast().joined(separator: ", ")) or \(last)"
    }
}
