// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCull
import CuratorProtocol
import Testing

@Suite struct MarkKeysTests {
    @Test func digitsAreStarsThenLabels() {
        #expect(MarkKeys.mark(digit: "0") == .rating(0))
        #expect(MarkKeys.mark(digit: "3") == .rating(3))
        #expect(MarkKeys.mark(digit: "7") == .label("yellow"))
        #expect(MarkKeys.mark(digit: "8") == .label("green"))
        #expect(MarkKeys.mark(digit: "x") == nil)
    }

    @Test func theRequestEachMarkSends() {
        let pick = MarkKeys.request(.flag("pick"), photo: 4, label: nil, session: "s")
        #expect(pick.session == "s")
        #expect(pick.ids == [4])
        #expect(pick.flag == "pick")
        #expect(pick.rating == .unchanged)
        #expect(pick.label == .unchanged)
        #expect(MarkKeys.request(.rating(0), photo: 4, label: nil, session: "s").rating == .cleared)
        #expect(MarkKeys.request(.rating(4), photo: 4, label: nil, session: "s").rating == .value(4))
        // A label key on a photo with that label takes it off; another replaces it.
        #expect(MarkKeys.request(.label("red"), photo: 4, label: "red", session: "s").label == .cleared)
        #expect(MarkKeys.request(.label("red"), photo: 4, label: "blue", session: "s").label == .value("red"))
        #expect(MarkKeys.request(.label("red"), photo: 4, label: nil, session: "s").flag == nil)
    }

    @Test func advanceTogglesAndSaysSo() {
        var marks = MarkKeys(advance: false)
        let on = marks.toggleAdvance()
        #expect(on.hasPrefix("Advance on"))
        #expect(marks.advance)
        let off = marks.toggleAdvance()
        #expect(off.hasPrefix("Advance off"))
        #expect(!marks.advance)
        #expect(MarkKeys(advance: true).advance)
    }

    @Test func marksAreDescribedAsTheStatusLineSaysThem() {
        #expect(MarkKeys.describe(PhotoMarksValue(rating: 1, flag: "pick", label: "red")) == "1 star, picked, red")
        #expect(MarkKeys.describe(PhotoMarksValue(rating: 3, flag: "reject", label: nil)) == "3 stars, rejected, no label")
        #expect(MarkKeys.describe(PhotoMarksValue(rating: nil, flag: "none", label: nil)) == "no stars, no flag, no label")
    }
}
