// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorProtocol

/// A `list` answer, written a piece at a time outside the state lock. It holds
/// copies of what the listing shows, taken under the lock when the request came:
/// the photo table, the view's order, folders, roots, the selection. They are
/// copy-on-write, so taking them costs nothing, and the listing stays consistent
/// however the state moves on; a change made while a listing is still being
/// sent copies the changed table once (7 MB at 100 000 photos).
///
/// Why in pieces: the whole answer is 15 MB for 100 000 photos. Written first and
/// sent after, the client waited for all of it to be written, and a buffer of
/// 15 MB was touched fresh each time (page faults, and the daemon's peak memory).
/// In pieces, the client reads one while the next is written, and one buffer of
/// `ListingStream.pieceBytes` is reused.
public struct ListingStream: Sendable {
    /// About this many bytes are written per piece: a little more than a Unix
    /// socket's default send buffer (208 KiB), so that a piece fills it.
    public static let pieceBytes = 256 << 10

    private enum Phase: Sendable {
        case opening
        case folders(from: Int)
        case photos(from: Int)
        case closing
        case done
    }

    private let id: RequestID?
    private let table: PhotoTable
    private let slots: [Int32]
    /// Photos of each folder in the whole view, by folder id.
    private let folderTotals: [Int32: Int]
    private let positions: Range<Int>
    private let offset: Int
    private let total: Int
    private let files: Int
    private let view: [UInt8]
    private var photos: ListingPhotoWriter
    private var phase = Phase.opening
    /// Where the last piece left the JSON (pieces may go into different writers).
    private var separatorPending = false

    init(id: RequestID?, table: PhotoTable, slots: [Int32], folderTotals: [Int32: Int], positions: Range<Int>,
         offset: Int, view: [UInt8], photos: ListingPhotoWriter, files: Int? = nil) {
        self.files = files ?? slots.count
        self.id = id
        self.table = table
        self.slots = slots
        self.folderTotals = folderTotals
        self.positions = positions
        self.offset = offset
        total = slots.count
        self.view = view
        self.photos = photos
    }

    /// The photos the listing shows.
    public var photoCount: Int { positions.count }

    public var isFinished: Bool {
        if case .done = phase { return true }
        return false
    }

    /// Writes the next piece: at least `bytes` more, unless the line ends first.
    /// Returns true once the whole line (with its newline) is written.
    @discardableResult
    public mutating func writeNext(to w: inout JSONWriter, bytes: Int = pieceBytes) -> Bool {
        let limit = w.written + bytes
        w.separatorPending = separatorPending
        defer { separatorPending = w.separatorPending }
        while w.written < limit {
            switch phase {
            case .opening:
                ListingLine.writeOpening(id: id, files: files, to: &w)
                phase = .folders(from: positions.lowerBound)
            case .folders(let start):
                guard start < positions.upperBound else {
                    ListingLine.writeMiddle(offset: offset, to: &w)
                    phase = .photos(from: positions.lowerBound)
                    continue
                }
                // A folder's section covers the run of its photos that starts here.
                let end = table.rows.withUnsafeBufferPointer { rows in
                    slots.withUnsafeBufferPointer { order in
                        let folder = rows[Int(order[start])].folderID
                        var end = start + 1
                        while end < positions.upperBound, rows[Int(order[end])].folderID == folder { end += 1 }
                        return end
                    }
                }
                let first = table.rows[Int(slots[start])]
                photos.folderSection(of: first, count: end - start, total: folderTotals[first.folderID] ?? end - start,
                                     firstPosition: start + 1).write(to: &w)
                phase = .folders(from: end)
            case .photos(let start):
                let end = positions.upperBound
                let index = table.rows.withUnsafeBufferPointer { rows in
                    table.names.bytes.withUnsafeBufferPointer { names in
                        slots.withUnsafeBufferPointer { order in
                            var index = start
                            while index < end, w.written < limit {
                                if index + 2 * Self.prefetchDistance < end {
                                    Self.prefetchRow(rows, Int(order[index + 2 * Self.prefetchDistance]))
                                }
                                if index + Self.prefetchDistance < end {
                                    Self.prefetchName(rows, names, Int(order[index + Self.prefetchDistance]))
                                }
                                let row = rows[Int(order[index])]
                                let name = UnsafeBufferPointer(rebasing: names[Int(row.name.offset)..<Int(row.name.offset) + Int(row.name.count)])
                                photos.write(row, name: name, names: names, position: index + 1, to: &w)
                                index += 1
                            }
                            return index
                        }
                    }
                }
                phase = index < end ? .photos(from: index) : .closing
            case .closing:
                ListingLine.writeClosing(total: total, view: view, to: &w)
                phase = .done
            case .done:
                return true
            }
        }
        return isFinished
    }

    /// How many photos ahead a name is asked for.
    private static let prefetchDistance = 12

    /// A view in any order but the scan's reads rows, and their names in the
    /// arena, out of sequence: a cache miss per photo. Asking for a photo's row
    /// twice as far ahead as its name (whose place the row holds) overlaps those
    /// misses.
    @inline(__always)
    private static func prefetchRow(_ rows: UnsafeBufferPointer<PhotoRow>, _ slot: Int) {
        guard let base = rows.baseAddress else { return }
        curator_prefetch(UnsafeRawPointer(base + slot))
    }

    @inline(__always)
    private static func prefetchName(_ rows: UnsafeBufferPointer<PhotoRow>, _ names: UnsafeBufferPointer<UInt8>, _ slot: Int) {
        guard let arena = names.baseAddress else { return }
        curator_prefetch(UnsafeRawPointer(arena + Int(rows[slot].name.offset)))
    }

    /// The whole line at once (tests, and callers that want it whole).
    public mutating func line() -> [UInt8] {
        var w = JSONWriter(reservingCapacity: 4096 + 160 * positions.count)
        while !writeNext(to: &w, bytes: Int.max / 2) {}
        return w.bytes
    }
}
