// SPDX-License-Identifier: GPL-2.0-or-later

import CuratorCore
import CuratorProtocol
import Testing

@Suite struct PositionSpecTests {
    @Test(arguments: [
        ("3 5 9-12", [3, 5, 9, 10, 11, 12]),
        ("3,5,9-12", [3, 5, 9, 10, 11, 12]),
        ("3, 5 ,9-12", [3, 5, 9, 10, 11, 12]),
        (" 7 ", [7]),
        ("\t4\n2", [4, 2]),
        ("9-12 3", [9, 10, 11, 12, 3]),
        ("5 3", [5, 3]),
        ("4-4", [4]),
        ("007", [7]),
        (",,3,,", [3]),
    ])
    func readsWhatPeopleType(text: String, expected: [Int]) throws {
        #expect(try PositionSpec(parsing: text).positions == expected)
    }

    @Test func aReversedRangeCountsDown() throws {
        #expect(try PositionSpec(parsing: "12-9").positions == [12, 11, 10, 9])
        #expect(try PositionSpec(parsing: "2 12-9 1").positions == [2, 12, 11, 10, 9, 1])
    }

    @Test(arguments: [
        ("3 5 3", [3, 5]),
        ("1-5 3", [1, 2, 3, 4, 5]),
        ("9-12 10 1", [9, 10, 11, 12, 1]),
        ("5 3-6", [5, 3, 4, 6]),
        ("4-6 6-4", [4, 5, 6]),
    ])
    func aPositionNamedTwiceCountsWhereItFirstAppears(text: String, expected: [Int]) throws {
        #expect(try PositionSpec(parsing: text).positions == expected)
    }

    @Test(arguments: [
        ("x", SelectionError.invalidPosition(token: "x", problem: .notAPosition)),
        ("0", .invalidPosition(token: "0", problem: .zero)),
        ("-3", .invalidPosition(token: "-3", problem: .negative)),
        ("3-", .invalidPosition(token: "3-", problem: .unfinishedRange)),
        ("3-x", .invalidPosition(token: "3-x", problem: .unfinishedRange)),
        ("x-3", .invalidPosition(token: "x-3", problem: .notAPosition)),
        ("0-5", .invalidPosition(token: "0-5", problem: .zero)),
        ("5-0", .invalidPosition(token: "5-0", problem: .zero)),
        ("-", .invalidPosition(token: "-", problem: .notAPosition)),
        ("1-2-3", .invalidPosition(token: "1-2-3", problem: .notAPosition)),
        ("+3", .invalidPosition(token: "+3", problem: .notAPosition)),
        ("3.5", .invalidPosition(token: "3.5", problem: .notAPosition)),
        ("\u{FF13}", .invalidPosition(token: "\u{FF13}", problem: .notAPosition)),
        ("99999999999999999999", .invalidPosition(token: "99999999999999999999", problem: .numberTooLarge)),
        ("3 x 5 y", .invalidPosition(token: "x", problem: .notAPosition)),
        ("", .noPositions),
        ("   ", .noPositions),
        (", ,", .noPositions),
    ])
    func refusesWhatIsNotAPosition(text: String, expected: SelectionError) {
        #expect(throws: expected) { try PositionSpec(parsing: text) }
    }

    @Test func errorMessagesNameTheBadToken() {
        #expect(SelectionError.invalidPosition(token: "x", problem: .notAPosition).message
            == "“x” is not a position: give whole numbers like 3, or ranges like 9-12.")
        #expect(SelectionError.invalidPosition(token: "0", problem: .zero).message
            == "“0” names position 0, but positions start at 1.")
        #expect(SelectionError.invalidPosition(token: "-3", problem: .negative).message
            == "“-3” is not a position: positions start at 1, and a range is written 9-12.")
        #expect(SelectionError.invalidPosition(token: "3-", problem: .unfinishedRange).message
            == "“3-” is not a finished range: write a range with both ends, like 9-12.")
        #expect(SelectionError.noPositions.message == "No positions were given; name them like 3 5 9-12.")
        let error = SelectionError.invalidPosition(token: "x", problem: .notAPosition).protocolError
        #expect(error.code == .invalidArgument)
        #expect(error.argument == "positions")
    }

    @Test func aMillionPositionsIsTheMostOneTextMayName() throws {
        let limit = PositionSpec.maximumPositions
        #expect(limit == 1_000_000)
        #expect(try PositionSpec(parsing: "1-\(limit)").positions.count == limit)
        // Repeats count towards the limit: it bounds the work, not the result.
        #expect(throws: SelectionError.invalidPosition(token: "1", problem: .tooMany(limit: limit))) {
            try PositionSpec(parsing: "1-\(limit) 1")
        }
        #expect(throws: SelectionError.invalidPosition(token: "1-999999999999", problem: .tooMany(limit: limit))) {
            try PositionSpec(parsing: "3 1-999999999999")
        }
        // A range as long as an Int can count is refused, not summed past Int.max.
        let longest = "1-\(Int.max)"
        #expect(throws: SelectionError.invalidPosition(token: longest, problem: .tooMany(limit: limit))) {
            try PositionSpec(parsing: "1 " + longest)
        }
        #expect(throws: SelectionError.invalidPosition(token: "\(Int.max)-1", problem: .tooMany(limit: limit))) {
            try PositionSpec(parsing: "5-9 \(Int.max)-1")
        }
        #expect(try PositionSpec(parsing: "\(Int.max)-\(Int.max) \(Int.max)").positions == [Int.max])
        #expect(SelectionError.invalidPosition(token: "1-2000000", problem: .tooMany(limit: limit)).message
            == "Too many positions: with “1-2000000” they pass 1000000, the most one request may name.")
    }

    // MARK: Resolving against a view

    @Test func resolvesWithinTheView() throws {
        let spec = try PositionSpec(parsing: "10 1-3")
        #expect(try spec.resolve(count: 10) == [10, 1, 2, 3])
    }

    @Test func positionsPastTheViewAreRefusedTogether() throws {
        let spec = try PositionSpec(parsing: "3 12 5 15")
        let expected = SelectionError.noSuchPosition(positions: [12, 15], viewCount: 10)
        #expect(throws: expected) { try spec.resolve(count: 10) }
        #expect(expected.message == "The view has 10 photos, so there is no photo at positions 12 or 15.")
        let error = expected.protocolError
        #expect(error.code == .noSuchPosition)
        #expect(error.positions == [12, 15])
    }

    @Test func anEmptyViewHasNoPositions() throws {
        #expect(throws: SelectionError.noSuchPosition(positions: [1], viewCount: 0)) {
            try PositionSpec(parsing: "1").resolve(count: 0)
        }
        #expect(SelectionError.noSuchPosition(positions: [1], viewCount: 0).message
            == "The view is empty, so there is no photo at position 1.")
    }

    @Test func aHugeMissListIsShortenedOnTheWire() throws {
        let spec = try PositionSpec(parsing: "1-1000000")
        do {
            _ = try spec.resolve(count: 10)
            Issue.record("resolved a million positions against 10 photos")
        } catch {
            #expect(error.protocolError.positions == Array(11...110))
            #expect(error.message == "The view has 10 photos, so there is no photo at positions "
                + "11, 12, 13, 14, 15, 16, 17, 18, 19, 20 and 999980 more.")
        }
    }

    @Test func resolvesToTheViewsElementsInTheOrderTyped() throws {
        let view: [Int64] = [100, 200, 300, 400, 500]
        #expect(try PositionSpec(parsing: "4 1").resolve(in: view) == [400, 100])
        // A slice keeps its parent's indices; position 1 is still its first element.
        #expect(try PositionSpec(parsing: "1 3").resolve(in: view[2...]) == [300, 500])
        #expect(throws: SelectionError.noSuchPosition(positions: [4], viewCount: 3)) {
            try PositionSpec(parsing: "4").resolve(in: view[2...])
        }
    }
}
