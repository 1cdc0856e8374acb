// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// EXIF in ISO base media files: HEIC/HEIF and AVIF keep it as an `Exif` item
/// found through the `meta` box (`iinf` names the item, `iloc` says where its
/// bytes are); Canon CR3 keeps it in a `CMT2` box inside Canon's `uuid` box in
/// `moov`. Only box headers and those small tables are read.
enum ISOBMFFExifLocator {
    static let canonUUID: [UInt8] = [
        0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
    ]
    /// How much of `iinf`, `iloc` and `iref` is read: tens of KiB for a grid of
    /// a thousand tiles; their walks are bounded by these bytes.
    static let maximumTableSize = 1 << 17

    static func locate(in source: inout some ExifByteSource) throws(SystemError) -> [UInt8]? {
        let ftyp = try source.read(at: 0, count: 12)
        if ftyp.hasPrefix(asciiBytes("crx "), at: 8) {
            return try tiffInCR3(&source)
        }
        return try tiffInHEIF(&source)
    }

    static func tiffInCR3(_ source: inout some ExifByteSource) throws(SystemError) -> [UInt8]? {
        guard let moov = try ISOBox.find(asciiBytes("moov"), in: &source, from: 0, to: source.size),
              let canon = try ISOBox.find(asciiBytes("uuid"), in: &source, from: moov.payload, to: moov.end, uuid: canonUUID),
              let cmt2 = try ISOBox.find(asciiBytes("CMT2"), in: &source, from: canon.payload, to: canon.end)
        else { return nil }
        let tiff = try source.read(at: cmt2.payload, count: min(Int(cmt2.end - cmt2.payload), ExifLocator.maximumTIFFSize))
        return ExifLocator.isTIFF(tiff) ? tiff : nil
    }

    static func tiffInHEIF(_ source: inout some ExifByteSource) throws(SystemError) -> [UInt8]? {
        guard let meta = try ISOBox.find(asciiBytes("meta"), in: &source, from: 0, to: source.size) else { return nil }
        // `meta` is a full box: a version and flags come before its children.
        let children = try ISOBox.all(in: &source, from: meta.payload + 4, to: meta.end)
        guard let iinf = children.first(where: { $0.type == asciiBytes("iinf") }),
              let iloc = children.first(where: { $0.type == asciiBytes("iloc") })
        else { return nil }
        let iinfBytes = try source.read(at: iinf.payload, count: min(Int(iinf.end - iinf.payload), maximumTableSize))
        guard let itemID = try exifItemID(iinf: iinfBytes, children: children, in: &source) else { return nil }
        guard let (itemStart, itemLength) = try itemExtent(itemID, iloc: iloc, children: children, in: &source) else { return nil }
        // The item starts with the offset of the TIFF header after these four bytes
        // (usually 6, skipping an `Exif\0\0`).
        guard itemLength > 4, let skip = try source.read(at: itemStart, count: 4).uint32(at: 0, bigEndian: true),
              Int64(skip) < itemLength - 4
        else { return nil }
        let tiffStart = itemStart + 4 + Int64(skip)
        let tiff = try source.read(at: tiffStart, count: Int(min(itemLength - 4 - Int64(skip), Int64(ExifLocator.maximumTIFFSize))))
        return ExifLocator.isTIFF(tiff) ? tiff : nil
    }

    /// Where item `itemID`'s bytes lie in the file, by `iloc` (its first extent),
    /// kept inside the file; nil when `iloc` does not say or says something else.
    static func itemExtent(_ itemID: UInt32, iloc: ISOBox, children: [ISOBox],
                           in source: inout some ExifByteSource) throws(SystemError) -> (start: Int64, length: Int64)? {
        let ilocBytes = try source.read(at: iloc.payload, count: min(Int(iloc.end - iloc.payload), maximumTableSize))
        guard let extent = HEIFItemLocation.find(itemID: itemID, iloc: ilocBytes) else { return nil }

        // Offsets come from the file: keep them inside it before any arithmetic.
        guard extent.offset < UInt64(source.size) else { return nil }
        var itemStart = Int64(extent.offset)
        if extent.constructionMethod == 1 {
            // Offsets into the `idat` box of `meta`, not into the file.
            guard let idat = children.first(where: { $0.type == asciiBytes("idat") }) else { return nil }
            itemStart += idat.payload
        } else if extent.constructionMethod != 0 {
            return nil
        }
        guard itemStart < source.size else { return nil }
        let itemLength = extent.length == 0 ? source.size - itemStart : Int64(clamping: min(extent.length, UInt64(source.size)))
        return (itemStart, itemLength)
    }

    /// The EXIF item of the primary image: the `Exif` item that `iref` says
    /// describes the item `pitm` names. A file may hold others (a thumbnail's,
    /// another image's) before it. Without such a link, the first `Exif` item.
    static func exifItemID(iinf: [UInt8], children: [ISOBox], in source: inout some ExifByteSource) throws(SystemError) -> UInt32? {
        try primaryDescription(among: HEIFItemReferences.exifItems(iinf: iinf), children: children, in: &source)
    }

    /// Of `candidates` (items that describe an image: EXIF, XMP), the one `iref`
    /// says describes the primary image; else the first.
    static func primaryDescription(among candidates: [UInt32], children: [ISOBox],
                                   in source: inout some ExifByteSource) throws(SystemError) -> UInt32? {
        guard let first = candidates.first else { return nil }
        guard let pitm = children.first(where: { $0.type == asciiBytes("pitm") }),
              let iref = children.first(where: { $0.type == asciiBytes("iref") }),
              let primary = HEIFItemReferences.primaryItem(pitm: try source.read(at: pitm.payload, count: 8))
        else { return first }
        let irefBytes = try source.read(at: iref.payload, count: min(Int(iref.end - iref.payload), maximumTableSize))
        return HEIFItemReferences.describing(primary, among: candidates, iref: irefBytes) ?? first
    }
}
