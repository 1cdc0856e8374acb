// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// The XMP packet of an ISO base media file, found as its EXIF is
/// (`ISOBMFFExifLocator`, by the boxes' own sizes and offsets): HEIC/HEIF and
/// AVIF keep it as an item of type `mime` and content type `application/rdf+xml`
/// that describes the primary image; Canon CR3 in a top-level `uuid` box with
/// XMP's own UUID. The XMP Toolkit has no handler for these formats (it would
/// scan every byte of the file for a packet), and libheif, which has one, is a
/// decoder kept out of the daemon (THUMBNAILS.md); only box headers, the item
/// tables and the packet itself are read here.
enum ISOBMFFXMPLocator {
    /// XMP's UUID in a `uuid` box (XMP specification, part 3).
    static let xmpUUID: [UInt8] = [
        0xBE, 0x7A, 0xCF, 0xCB, 0x97, 0xA9, 0x42, 0xE8, 0x9C, 0x71, 0x99, 0x94, 0x91, 0xE3, 0xAF, 0xAC,
    ]
    /// More than any packet of marks and camera data; a larger item is not read.
    static let maximumPacketSize = 4 << 20

    static func packet(in source: inout some ExifByteSource) throws(SystemError) -> [UInt8]? {
        let ftyp = try source.read(at: 0, count: 12)
        guard ftyp.hasPrefix(asciiBytes("ftyp"), at: 4) else { return nil }
        if ftyp.hasPrefix(asciiBytes("crx "), at: 8) {
            guard let box = try ISOBox.find(asciiBytes("uuid"), in: &source, from: 0, to: source.size, uuid: xmpUUID),
                  box.end - box.payload <= Int64(maximumPacketSize)
            else { return nil }
            return try source.read(at: box.payload, count: Int(box.end - box.payload))
        }
        guard let meta = try ISOBox.find(asciiBytes("meta"), in: &source, from: 0, to: source.size) else { return nil }
        // `meta` is a full box: a version and flags come before its children.
        let children = try ISOBox.all(in: &source, from: meta.payload + 4, to: meta.end)
        guard let iinf = children.first(where: { $0.type == asciiBytes("iinf") }),
              let iloc = children.first(where: { $0.type == asciiBytes("iloc") })
        else { return nil }
        let table = try source.read(at: iinf.payload, count: min(Int(iinf.end - iinf.payload), ISOBMFFExifLocator.maximumTableSize))
        guard let item = try ISOBMFFExifLocator.primaryDescription(among: HEIFItemReferences.xmpItems(iinf: table),
                                                                   children: children, in: &source),
              let (start, length) = try ISOBMFFExifLocator.itemExtent(item, iloc: iloc, children: children, in: &source),
              length <= Int64(maximumPacketSize)
        else { return nil }
        return try source.read(at: start, count: Int(length))
    }
}
