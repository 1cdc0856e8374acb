// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import Testing

@Suite("A batch's last log line: where its time went")
struct BatchTimelineTests {
    @Test func secondsHaveThreeDecimalsRoundedToTheMillisecond() {
        #expect(BatchTimeline.seconds(0) == "0.000 s")
        #expect(BatchTimeline.seconds(52_400_000) == "0.052 s")
        #expect(BatchTimeline.seconds(52_600_000) == "0.053 s")
        #expect(BatchTimeline.seconds(1_093_000_000) == "1.093 s")
        #expect(BatchTimeline.seconds(12_005_000_000) == "12.005 s")
    }

    @Test func theSummaryGivesEachPhaseFromTheStart() {
        var timeline = BatchTimeline(started: 1_000_000_000)
        timeline.journaled = 1_052_000_000
        timeline.firstMove = 1_081_000_000
        timeline.finishing = 71_000_000
        #expect(timeline.summary(chunks: 9, now: 2_093_000_000)
            == " in 1.093 s (journaled at 0.052 s, first move at 0.081 s; 9 chunks, 0.071 s settling them)")
    }

    @Test func aBatchThatNeverMovedSaysOnlyWhatItReached() {
        var timeline = BatchTimeline(started: 5_000)
        timeline.journaled = 2_005_000
        #expect(timeline.summary(chunks: 1, now: 3_005_000) == " in 0.003 s (journaled at 0.002 s; 1 chunk, 0.000 s settling them)")
        #expect(BatchTimeline(started: 0).summary(chunks: 0, now: 0) == " in 0.000 s (0 chunks, 0.000 s settling them)")
    }
}
