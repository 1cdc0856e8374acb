// SPDX-License-Identifier: GPL-2.0-or-later

/// The JPEG preview a RAW file carries, found from the file's own structure for
/// when LibRaw refuses the file: a CR3 whose image data was pruned, a truncated
/// CR2, a body newer than the LibRaw installed. Looked for where exiftool finds
/// them: in a TIFF-based RAW, IFD0's chain and its SubIFDs (PreviewImage and
/// JpgFromRaw strips, IFD1's JPEGInterchangeFormat, RW2's JpgFromRaw tag); in a
/// CR3, the `PRVW` box, else the `THMB` box. The largest decodable JPEG wins.
///
/// Bounded against hostile files: at most `maximumIFDs` IFDs of at most
/// `maximumEntries` entries, every offset checked against the file's size, and
/// a candidate's markers walked only up to its frame header.
enum EmbeddedPreview {
    struct Found: Equatable {
        /// Where the JPEG lies in the file.
        var range: Range<Int>
        /// The RAW's EXIF orientation (1 when it has none).
        var orientation: Int
    }

    static let maximumIFDs = 16
    static let maximumEntries = 512

    static func find(in bytes: UnsafeRawBufferPointer) -> Found? {
        guard bytes.count >= 16 else { return nil }
        if bytes.matches(at: 4, "ftyp") { return cr3(bytes) }
        let order = bytes.prefix(2)
        guard order.elementsEqual([0x49, 0x49]) || order.elementsEqual([0x4D, 0x4D]) else { return nil }
        return TIFFWalk(bytes: bytes, bigEndian: bytes[0] == 0x4D).preview()
    }

    // MARK: CR3

    static let previewUUID: [UInt8] = [
        0xEA, 0xF4, 0x2B, 0x5E, 0x1C, 0x98, 0x4B, 0x88, 0xB9, 0xFB, 0xB7, 0xDC, 0x40, 0x6E, 0x4D, 0x16,
    ]
    static let canonUUID: [UInt8] = [
        0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
    ]

    /// PRVW (in a top-level `uuid` box of its own) or THMB (in Canon's `uuid` box
    /// in `moov`): each a few header fields, then the JPEG to the box's end.
    private static func cr3(_ bytes: UnsafeRawBufferPointer) -> Found? {
        var orientation = 1
        var candidates: [Range<Int>] = []
        let top = boxes(bytes, 0..<bytes.count)
        if let moov = top.first(where: { $0.type == "moov" }),
           let canon = boxes(bytes, moov.payload).first(where: { $0.type == "uuid" && $0.uuid == canonUUID }) {
            let inner = boxes(bytes, canon.payload.dropFirst(16))
            if let thmb = inner.first(where: { $0.type == "THMB" }), let jpeg = jpegStart(bytes, in: thmb.payload) {
                candidates.append(jpeg)
            }
            if let cmt1 = inner.first(where: { $0.type == "CMT1" }) {
                orientation = TIFFWalk.orientation(of: UnsafeRawBufferPointer(rebasing: bytes[cmt1.payload])) ?? 1
            }
        }
        // The PRVW box comes after a few bytes of the `uuid` box's own: the JPEG is
        // found by its start in the first bytes, whatever they are.
        if let preview = top.first(where: { $0.type == "uuid" && $0.uuid == previewUUID }),
           let jpeg = jpegStart(bytes, in: preview.payload.dropFirst(16)) {
            candidates.append(jpeg)
        }
        guard let best = candidates.filter({ isDecodableJPEG(bytes, $0) }).max(by: { $0.count < $1.count }) else { return nil }
        return Found(range: best, orientation: orientation)
    }

    /// The JPEG in a preview box: from the first SOI among its first bytes to the box's end.
    private static func jpegStart(_ bytes: UnsafeRawBufferPointer, in payload: Range<Int>) -> Range<Int>? {
        let searched = payload.lowerBound..<min(payload.upperBound, payload.lowerBound + 64)
        for at in searched where at + 3 <= payload.upperBound && bytes[at] == 0xFF && bytes[at + 1] == 0xD8 && bytes[at + 2] == 0xFF {
            return at..<payload.upperBound
        }
        return nil
    }

    struct Box {
        var type: String
        var uuid: [UInt8]?
        /// After the size and type (a `uuid` box's user type included).
        var payload: Range<Int>
    }

    /// The boxes in `range`, up to the first that does not fit; at most 64.
    private static func boxes(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> [Box] {
        var found: [Box] = []
        var at = range.lowerBound
        while found.count < 64, at + 8 <= range.upperBound {
            guard let size32 = bytes.uint32(at: at, bigEndian: true) else { break }
            var header = 8
            var size = Int(size32)
            if size32 == 1 {
                guard let large = bytes.uint64(at: at + 8), large <= UInt64(Int.max) else { break }
                size = Int(large)
                header = 16
            } else if size32 == 0 {
                size = range.upperBound - at
            }
            guard size >= header, size <= range.upperBound - at else { break }
            let type = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(at + 4)..<(at + 8)]), as: UTF8.self)
            var uuid: [UInt8]?
            if type == "uuid", size >= header + 16 { uuid = Array(bytes[(at + header)..<(at + header + 16)]) }
            found.append(Box(type: type, uuid: uuid, payload: (at + header)..<(at + size)))
            at += size
        }
        return found
    }

    // MARK: JPEG

    /// Starts with SOI and reaches a baseline, extended or progressive frame
    /// header: a RAW's lossless JPEG (SOF3, the raw data of a CR2 or DNG) is no
    /// preview libjpeg can decode.
    static func isDecodableJPEG(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Bool {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count, range.count > 4,
              bytes[range.lowerBound] == 0xFF, bytes[range.lowerBound + 1] == 0xD8 else { return false }
        var at = range.lowerBound + 2
        for _ in 0..<64 {
            guard at + 4 <= range.upperBound, bytes[at] == 0xFF else { return false }
            let marker = bytes[at + 1]
            switch marker {
            case 0xC0, 0xC1, 0xC2: return true
            case 0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF, 0xD9, 0xDA: return false
            case 0xFF:
                at += 1
                continue
            default:
                break
            }
            guard let length = bytes.uint16(at: at + 2, bigEndian: true), length >= 2 else { return false }
            at += 2 + Int(length)
        }
        return false
    }
}

/// IFD walks in a TIFF-based RAW held in memory.
private struct TIFFWalk {
    let bytes: UnsafeRawBufferPointer
    let bigEndian: Bool

    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        /// Where the entry's value field is (its value, or the offset of it).
        var field: Int
    }

    /// The EXIF orientation in a TIFF block (a CR3's CMT1), or nil.
    static func orientation(of block: UnsafeRawBufferPointer) -> Int? {
        guard block.count >= 8, block[0] == block[1], block[0] == 0x49 || block[0] == 0x4D else { return nil }
        let walk = TIFFWalk(bytes: block, bigEndian: block[0] == 0x4D)
        guard let first = block.uint32(at: 4, bigEndian: walk.bigEndian) else { return nil }
        return walk.entries(at: Int(first)).entries.first { $0.tag == 0x0112 }.flatMap(walk.firstValue).map(Int.init)
            .flatMap { (1...8).contains($0) ? $0 : nil }
    }

    func preview() -> EmbeddedPreview.Found? {
        guard let first = bytes.uint32(at: 4, bigEndian: bigEndian) else { return nil }
        var queue = [Int(first)]
        var visited = Set<Int>()
        var candidates: [Range<Int>] = []
        var orientation = 1
        while let offset = queue.first, visited.count < EmbeddedPreview.maximumIFDs {
            queue.removeFirst()
            guard visited.insert(offset).inserted else { continue }
            let (entries, next) = entries(at: offset)
            if visited.count == 1, let value = entries.first(where: { $0.tag == 0x0112 }).flatMap(firstValue),
               (1...8).contains(value) {
                orientation = Int(value)
            }
            candidates += jpegs(in: entries)
            if let next, next != 0 { queue.append(next) }
            // SubIFDs (DNG, NEF, ARW): their offsets, one per IFD.
            if let sub = entries.first(where: { $0.tag == 0x014A }) {
                queue += values(of: sub).prefix(EmbeddedPreview.maximumIFDs).map { Int($0) }
            }
        }
        guard let best = candidates.filter({ EmbeddedPreview.isDecodableJPEG(bytes, $0) }).max(by: { $0.count < $1.count })
        else { return nil }
        return EmbeddedPreview.Found(range: best, orientation: orientation)
    }

    /// The JPEGs an IFD points at: JPEGInterchangeFormat and its length, a single
    /// strip (a CR2's IFD0 preview, a DNG's or NEF's preview SubIFD), RW2's JpgFromRaw.
    private func jpegs(in entries: [Entry]) -> [Range<Int>] {
        func value(_ tag: UInt16) -> UInt32? { entries.first { $0.tag == tag }.flatMap(firstValue) }
        var found: [Range<Int>] = []
        if let start = value(0x0201), let length = value(0x0202) { found.append(range(start, length)) }
        if let strips = entries.first(where: { $0.tag == 0x0111 }), let counts = entries.first(where: { $0.tag == 0x0117 }),
           strips.count == 1, counts.count == 1, let start = firstValue(strips), let length = firstValue(counts) {
            found.append(range(start, length))
        }
        if let raw = entries.first(where: { $0.tag == 0x002E }), raw.type == 7, raw.count > 4,
           let start = bytes.uint32(at: raw.field, bigEndian: bigEndian) {
            found.append(range(start, raw.count))
        }
        return found.filter { !$0.isEmpty }
    }

    /// The range of `length` bytes at `start`, empty when it leaves the file.
    private func range(_ start: UInt32, _ length: UInt32) -> Range<Int> {
        let (end, overflow) = Int(start).addingReportingOverflow(Int(length))
        guard !overflow, end <= bytes.count else { return 0..<0 }
        return Int(start)..<end
    }

    func entries(at offset: Int) -> (entries: [Entry], next: Int?) {
        guard offset >= 8, let declared = bytes.uint16(at: offset, bigEndian: bigEndian) else { return ([], nil) }
        var entries: [Entry] = []
        let count = min(Int(declared), EmbeddedPreview.maximumEntries)
        for index in 0..<count {
            let at = offset + 2 + 12 * index
            guard at + 12 <= bytes.count, let tag = bytes.uint16(at: at, bigEndian: bigEndian),
                  let type = bytes.uint16(at: at + 2, bigEndian: bigEndian), let components = bytes.uint32(at: at + 4, bigEndian: bigEndian)
            else { return (entries, nil) }
            entries.append(Entry(tag: tag, type: type, count: components, field: at + 8))
        }
        let next = Int(declared) == count ? bytes.uint32(at: offset + 2 + 12 * count, bigEndian: bigEndian).map { Int($0) } : nil
        return (entries, next)
    }

    /// A SHORT or LONG entry's first value, when its values fit in the entry.
    func firstValue(_ entry: Entry) -> UInt32? {
        switch entry.type {
        case 3 where (1...2).contains(entry.count): bytes.uint16(at: entry.field, bigEndian: bigEndian).map(UInt32.init)
        case 4 where entry.count == 1, 13 where entry.count == 1: bytes.uint32(at: entry.field, bigEndian: bigEndian)
        default: nil
        }
    }

    /// A LONG (or IFD) entry's values, inline or at their offset.
    private func values(of entry: Entry) -> [UInt32] {
        guard entry.type == 4 || entry.type == 13 else { return [] }
        let count = min(Int(entry.count), EmbeddedPreview.maximumIFDs)
        guard count > 1 else { return firstValue(entry).map { [$0] } ?? [] }
        guard let start = bytes.uint32(at: entry.field, bigEndian: bigEndian) else { return [] }
        return (0..<count).compactMap { bytes.uint32(at: Int(start) + 4 * $0, bigEndian: bigEndian) }
    }
}

private extension UnsafeRawBufferPointer {
    func uint16(at index: Int, bigEndian: Bool) -> UInt16? {
        guard index >= 0, index + 2 <= count else { return nil }
        let a = UInt16(self[index]), b = UInt16(self[index + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func uint32(at index: Int, bigEndian: Bool) -> UInt32? {
        guard let first = uint16(at: index, bigEndian: bigEndian), let second = uint16(at: index + 2, bigEndian: bigEndian) else { return nil }
        return bigEndian ? UInt32(first) << 16 | UInt32(second) : UInt32(second) << 16 | UInt32(first)
    }

    func uint64(at index: Int) -> UInt64? {
        guard let high = uint32(at: index, bigEndian: true), let low = uint32(at: index + 4, bigEndian: true) else { return nil }
        return UInt64(high) << 32 | UInt64(low)
    }

    func matches(at index: Int, _ ascii: String) -> Bool {
        let code = Array(ascii.utf8)
        return index >= 0 && index + code.count <= count && self[index..<(index + code.count)].elementsEqual(code)
    }
}
