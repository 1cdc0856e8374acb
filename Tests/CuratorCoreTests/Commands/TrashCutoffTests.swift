// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import Testing

/// `older_than_days` is any number from 0 (docs/PROTOCOL.md): one too large for a
/// time stands for "before any time", never an arithmetic trap (issue 55).
struct TrashCutoffTests {
    @Test func daysPastAnyTimeAreTheEarliestTime() {
        let now: Int64 = 1_765_000_000
        #expect(TrashEmptyCommand.cutoff(now: now, olderThanDays: 0) == now)
        #expect(TrashEmptyCommand.cutoff(now: now, olderThanDays: 30) == now - 30 * 86_400)
        #expect(TrashEmptyCommand.cutoff(now: now, olderThanDays: 106_751_991_167_301) == .min)
        #expect(TrashEmptyCommand.cutoff(now: now, olderThanDays: Int.max) == .min)
        // Just inside the range: computed, not clamped.
        let days = Int((Int64.max / 86_400))
        #expect(TrashEmptyCommand.cutoff(now: 0, olderThanDays: days) == -Int64(days) * 86_400)
    }
}
