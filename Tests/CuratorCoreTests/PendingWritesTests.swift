// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import Testing

/// The rows and sidecar records a transaction writes before it commits, alone:
/// rows ascending, records each once, all dropped when the transaction ends.
struct PendingWritesTests {
    @Test func rowsComeAscendingRecordsOnce() {
        var pending = PendingWrites()
        #expect(pending.isEmpty)
        for id: Int64 in [9, 3, 9, 1] { pending.row(id) }
        pending.record(40)
        pending.record(20)
        pending.record(40)
        #expect(pending.sortedRows() == [1, 3, 9, 9], "a row changed twice is written once by the reader of the sorted list")
        #expect(pending.takeRecords() == [20, 40])
        #expect(pending.takeRecords().isEmpty, "taken records are gone")
        #expect(!pending.isEmpty, "rows stay until the transaction ends")
        pending.clear()
        #expect(pending.isEmpty && pending.sortedRows().isEmpty)
    }
}
