// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import FoundationEssentials

/// A listing of ids alone (`fields: ["id"]`): the view's shape.
struct ShapeListing: Decodable {
    struct Entry: Decodable { var id: Int64 }
    var total: Int
    var view: ViewSpec
    var folders: [FolderSection]
    var photos: [Entry]

    private struct Envelope: Decodable {
        var ok: Bool
        var result: ShapeListing?
        var error: ProtocolError?
    }

    /// Reads the answer line. The photos' part, `[{"id":N},...]` (100 000 of them at
    /// 100 000 photos), is scanned for its numbers rather than decoded object by object,
    /// which takes JSONDecoder seconds; the rest is decoded as usual.
    static func read(_ line: [UInt8]) -> Result<ShapeListing, ProtocolError> {
        let key = Array(#""photos":["#.utf8)
        var ids: [Int64]?
        var rest = line
        if let start = line.firstRange(of: key), let end = line[start.upperBound...].firstIndex(of: UInt8(ascii: "]")) {
            var found: [Int64] = []
            var value: Int64 = 0
            var inNumber = false
            for byte in line[start.upperBound..<end] {
                if byte >= 0x30 && byte <= 0x39 {
                    value = value &* 10 &+ Int64(byte - 0x30)
                    inNumber = true
                } else if inNumber {
                    found.append(value)
                    (value, inNumber) = (0, false)
                }
            }
            ids = found
            rest = Array(line[..<start.upperBound]) + Array(line[end...])
        }
        guard let envelope = try? Wire.makeDecoder().decode(Envelope.self, from: Data(rest)) else {
            return .failure(ProtocolError(.internalError, "a listing this curatorctl does not understand"))
        }
        guard envelope.ok, var listing = envelope.result else {
            return .failure(envelope.error ?? ProtocolError(.internalError, "curatord gave no listing"))
        }
        if let ids { listing.photos = ids.map(Entry.init) }
        return .success(listing)
    }
}

/// What the grid knows of the session's view: its shape (every position's photo id
/// and the folder runs, from one listing of ids alone, so that 100 000 photos cost a
/// couple of megabytes) and the details of the photos it has needed so far (fetched
/// a page at a time around what is on screen).
struct ViewData {
    /// The view as the daemon resolved it.
    var view = ViewSpec()
    /// Photo id at each position (index 0 is position 1).
    private(set) var ids: [Int64] = []
    private(set) var runs: [FolderRun] = []
    private var positions: [Int64: Int] = [:]
    /// Photos whose details have been listed, by id.
    private(set) var details: [Int64: PhotoSummary] = [:]
    /// Pages of details asked for and not answered yet (page index).
    var pagesInFlight: Set<Int> = []
    /// Bumped when the shape is replaced: answers for an older shape are dropped.
    private(set) var generation = 0
    /// Photos in the view, as the daemon last counted them.
    private(set) var total = 0
    /// False while only the first page is known (`seed`): the start draws the first
    /// screen from it, and the whole shape follows.
    private(set) var isComplete = true

    static let pageSize = 256
    /// The keys a page of details asks for.
    static let detailFields = ["id", "root", "path", "size", "mtime_ns", "type", "capture_time", "protected", "offline", "rating"]

    func id(at position: Int) -> Int64? {
        position >= 1 && position <= ids.count ? ids[position - 1] : nil
    }

    func position(of id: Int64) -> Int? { positions[id] }

    func photo(at position: Int) -> PhotoSummary? { id(at: position).flatMap { details[$0] } }

    /// The first page with its details, before the whole shape: enough for the first
    /// screen. Its folder sections are the page's; the last may go on past it.
    mutating func seed(with page: ListResult) {
        view = page.view
        total = page.total
        ids = page.photos.map(\.id)
        isComplete = ids.count >= total
        positions = [:]
        for (index, id) in ids.enumerated() { positions[id] = index + 1 }
        runs = page.folders.map {
            FolderRun(root: $0.root, path: $0.path, start: $0.firstPosition, count: $0.count, total: $0.total)
        }
        details = [:]
        store(page.photos)
        pagesInFlight = []
        generation += 1
    }

    /// A new shape from a listing of ids.
    mutating func replaceShape(with listing: ShapeListing) {
        view = listing.view
        total = listing.total
        isComplete = true
        ids = listing.photos.map(\.id)
        positions = [:]
        positions.reserveCapacity(ids.count)
        for (index, id) in ids.enumerated() { positions[id] = index + 1 }
        runs = listing.folders.map {
            FolderRun(root: $0.root, path: $0.path, start: $0.firstPosition, count: $0.count, total: $0.total)
        }
        // Details of photos no longer in the view are dropped; the rest stay valid
        // (changes to them come as events, which drop them).
        details = details.filter { positions[$0.key] != nil }
        pagesInFlight = []
        generation += 1
    }

    mutating func store(_ photos: [PhotoSummary]) {
        for photo in photos { details[photo.id] = photo }
    }

    /// New marks for a photo whose details are known (`metadata`, a `rate` answer).
    mutating func setMarks(_ id: Int64, rating: Int?, flag: String?, label: String?) {
        guard var photo = details[id] else { return }
        photo.rating = rating
        photo.flag = flag == "none" ? nil : flag
        photo.label = label
        details[id] = photo
    }

    /// A photo that changed or moved: listed again when next shown.
    mutating func forget(_ id: Int64) { details[id] = nil }

    /// The pages holding positions `range` whose details are missing and not asked for.
    func missingPages(_ range: ClosedRange<Int>) -> [Int] {
        guard !ids.isEmpty else { return [] }
        let low = max(1, range.lowerBound), high = min(ids.count, range.upperBound)
        guard low <= high else { return [] }
        var pages: [Int] = []
        for page in ((low - 1) / Self.pageSize)...((high - 1) / Self.pageSize) where !pagesInFlight.contains(page) {
            let first = page * Self.pageSize + 1
            let last = min(ids.count, first + Self.pageSize - 1)
            if (first...last).contains(where: { details[ids[$0 - 1]] == nil }) { pages.append(page) }
        }
        return pages
    }
}
