// SPDX-License-Identifier: GPL-2.0-or-later

/// The rows a `PhotoLibrary` transaction changed, written to the store once each
/// before it commits, and the sidecar records (`SidecarRecord`) to store again. A
/// row added and then grouped (a RAW beside its JPEG, a sidecar) is two changes
/// and one write. Rows are appended (a row may be more than once), then sorted and
/// each written once: appending costs a cold scan no hashing, and the writes want
/// them sorted anyway.
struct PendingWrites {
    private var rows: [Int64] = []
    private var records = Set<Int64>()

    var isEmpty: Bool { rows.isEmpty && records.isEmpty }

    mutating func row(_ id: Int64) { rows.append(id) }

    mutating func record(_ record: Int64) { records.insert(record) }

    /// The rows to write, ascending (new rows go to the end of the table's
    /// B-tree); a row changed twice is there twice, side by side.
    mutating func sortedRows() -> [Int64] {
        rows.sort()
        return rows
    }

    /// The records to write, ascending; emptied.
    mutating func takeRecords() -> [Int64] {
        defer { records.removeAll(keepingCapacity: true) }
        return records.sorted()
    }

    /// The transaction ended: whatever was not taken is dropped with it.
    mutating func clear() {
        rows.removeAll(keepingCapacity: rows.capacity <= 4096)
        records.removeAll()
    }
}
