// SPDX-License-Identifier: GPL-2.0-or-later

/// The item tables of a HEIF `meta` box that say which item is which: `pitm`
/// (the primary image), `iinf` (each item's type) and `iref` (which item
/// describes which). Each is parsed from its bytes, already bounded by the
/// caller; every walk advances by at least a box header, so its length is
/// bounded by those bytes, however many entries the file declares.
enum HEIFItemReferences {
    /// The primary item's id, from `pitm`'s payload.
    static func primaryItem(pitm bytes: [UInt8]) -> UInt32? {
        guard let version = bytes.first else { return nil }
        return version == 0 ? bytes.uint16(at: 4, bigEndian: true).map(UInt32.init) : bytes.uint32(at: 4, bigEndian: true)
    }

    /// The ids of the items whose type is `Exif`, in `iinf`'s order (from `infe`
    /// versions 2 and 3, which carry the item type). A grid image has an `infe`
    /// per tile: hundreds in a large phone photo.
    static func exifItems(iinf bytes: [UInt8]) -> [UInt32] {
        items(iinf: bytes) { typeOffset, end in
            typeOffset + 4 <= end && bytes.hasPrefix(asciiBytes("Exif"), at: typeOffset)
        }
    }

    /// The ids of the items that hold XMP, in `iinf`'s order: items of type `mime`
    /// whose content type is `application/rdf+xml` and that are not encoded
    /// (ISO/IEC 23008-12, annex A). The type's name and the content type are
    /// NUL-terminated strings after the item's type.
    static func xmpItems(iinf bytes: [UInt8]) -> [UInt32] {
        items(iinf: bytes) { typeOffset, end in
            guard typeOffset + 4 <= end, bytes.hasPrefix(asciiBytes("mime"), at: typeOffset) else { return false }
            var strings = bytes[(typeOffset + 4)..<end].split(separator: 0, maxSplits: 3, omittingEmptySubsequences: false)
            // The item's name, its content type, and an optional content encoding.
            guard strings.count >= 2 else { return false }
            strings.removeFirst()
            let encoding = strings.count >= 2 ? Array(strings[1]) : []
            return Array(strings[0]) == asciiBytes("application/rdf+xml") && encoding.isEmpty
        }
    }

    /// The ids of `iinf`'s `infe` entries (versions 2 and 3) that `matches` takes,
    /// given where the entry's item type starts and where the entry ends.
    private static func items(iinf bytes: [UInt8], matching matches: (Int, Int) -> Bool) -> [UInt32] {
        guard let version = bytes.first else { return [] }
        var found: [UInt32] = []
        forEachBox(in: bytes, from: version == 0 ? 6 : 8) { type, start, end in
            guard type == asciiBytes("infe"), start < end else { return }
            let id: UInt32?
            let typeOffset: Int
            switch bytes[start] {
            case 2:
                id = bytes.uint16(at: start + 4, bigEndian: true).map(UInt32.init)
                typeOffset = start + 8
            case 3:
                id = bytes.uint32(at: start + 4, bigEndian: true)
                typeOffset = start + 10
            default:
                return
            }
            if let id, matches(typeOffset, end) { found.append(id) }
        }
        return found
    }

    /// Of `candidates`, the first that `iref` says describes `item` (a `cdsc`
    /// reference from it to `item`).
    static func describing(_ item: UInt32, among candidates: [UInt32], iref bytes: [UInt8]) -> UInt32? {
        guard let version = bytes.first, version <= 1 else { return nil }
        let idSize = version == 0 ? 2 : 4
        func id(at index: Int) -> UInt32? {
            idSize == 2 ? bytes.uint16(at: index, bigEndian: true).map(UInt32.init) : bytes.uint32(at: index, bigEndian: true)
        }
        let wanted = Set(candidates)
        var described = Set<UInt32>()
        forEachBox(in: bytes, from: 4) { type, start, end in
            guard type == asciiBytes("cdsc"), let from = id(at: start), wanted.contains(from),
                  let count = bytes.uint16(at: start + idSize, bigEndian: true)
            else { return }
            var at = start + idSize + 2
            for _ in 0..<count {
                guard at + idSize <= end, let to = id(at: at) else { break }
                if to == item { described.insert(from) }
                at += idSize
            }
        }
        return candidates.first { described.contains($0) }
    }

    /// Calls `body` with each box's type and the range of its payload in `bytes`,
    /// from `start`; stops at the first box that does not fit.
    private static func forEachBox(in bytes: [UInt8], from start: Int, _ body: ([UInt8], Int, Int) -> Void) {
        var position = start
        while position >= 0, position + 8 <= bytes.count, let size32 = bytes.uint32(at: position, bigEndian: true) {
            let size = size32 == 0 ? bytes.count - position : Int(size32)
            guard size >= 8, size <= bytes.count - position else { return }
            body(Array(bytes[(position + 4)..<(position + 8)]), position + 8, position + size)
            position += size
        }
    }
}
