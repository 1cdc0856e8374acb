// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCull
import Testing

@Suite struct FrameTimingTests {
    static func names(_ ended: [(name: String, since: UInt64)]) -> [String] { ended.map(\.name) }

    @Test func theFirstFrameCountsOnceTheScreenIsWhole() {
        var timing = FrameTiming(startedAt: 100)
        let partial = timing.framed(viewIsEmpty: false, keysAnswered: true)
        #expect(partial.isEmpty)
        timing.screenComplete = true
        let ended = timing.framed(viewIsEmpty: false, keysAnswered: true)
        #expect(Self.names(ended) == ["first_frame_ms"])
        #expect(ended.first?.since == 100)
        let again = timing.framed(viewIsEmpty: false, keysAnswered: true)
        #expect(again.isEmpty)  // once
        // An empty view is whole at once.
        var empty = FrameTiming(startedAt: 5)
        let emptyFrame = empty.framed(viewIsEmpty: true, keysAnswered: true)
        #expect(Self.names(emptyFrame) == ["first_frame_ms"])
    }

    @Test func aKeyCountsFromTheFirstKeyReadToTheFrameThatAnswersIt() {
        var timing = FrameTiming(startedAt: 0)
        timing.screenComplete = true
        _ = timing.framed(viewIsEmpty: false, keysAnswered: true)
        timing.keysRead(at: 1_000)
        timing.keysRead(at: 2_000)  // typed ahead: the first read still counts
        let waiting = timing.framed(viewIsEmpty: false, keysAnswered: false)
        #expect(waiting.isEmpty)
        let ended = timing.framed(viewIsEmpty: false, keysAnswered: true)
        #expect(Self.names(ended) == ["key_ms"])
        #expect(ended.first?.since == 1_000)
        #expect(timing.keyReadAt == nil)
        let after = timing.framed(viewIsEmpty: false, keysAnswered: true)
        #expect(after.isEmpty)
    }
}
