// SPDX-License-Identifier: GPL-2.0-or-later

/// A HEIC shaped like a large phone photo's: the primary image is a grid (item 1)
/// of `tiles` coded tiles, each an item with its own `infe` and `iloc` entry, and
/// a thumbnail beside it. Two EXIF items: the thumbnail's comes first in `iinf`,
/// the primary's last; `iref` links each (`cdsc`) to the image it describes.
enum TestHEIFGrid {
    static let thumbnailExifID: UInt16 = 9001
    static let primaryExifID: UInt16 = 9002

    static func make(tiles: Int, primaryTIFF: [UInt8], thumbnailTIFF: [UInt8]?, linkPrimaryExif: Bool = true) -> [UInt8] {
        typealias C = TestContainers
        let thumbnailID = UInt16(tiles + 2)
        let ftyp = C.box("ftyp", Array("heic".utf8) + C.be32(0) + Array("mif1heic".utf8))
        let pixels = C.junk(4000)
        let primaryExif = C.be32(6) + Array("Exif\0\0".utf8) + primaryTIFF
        let thumbnailExif = thumbnailTIFF.map { C.be32(6) + Array("Exif\0\0".utf8) + $0 }

        func infe(_ id: UInt16, _ type: String) -> [UInt8] {
            C.fullBox("infe", 2, C.be16(id) + C.be16(0) + Array(type.utf8) + [0])
        }
        func reference(_ type: String, from: UInt16, to: [UInt16]) -> [UInt8] {
            C.box(type, C.be16(from) + C.be16(UInt16(to.count)) + to.flatMap(C.be16))
        }
        func meta(pixelsAt: UInt32, primaryExifAt: UInt32, thumbnailExifAt: UInt32) -> [UInt8] {
            let hdlr = C.fullBox("hdlr", 0, C.be32(0) + Array("pict".utf8) + C.be32(0) + C.be32(0) + C.be32(0) + [0])
            let pitm = C.fullBox("pitm", 0, C.be16(1))
            var items: [UInt8] = []
            var count: UInt16 = 0
            if thumbnailExif != nil {
                items += infe(thumbnailExifID, "Exif")
                count += 1
            }
            items += infe(1, "grid")
            for tile in 0..<tiles { items += infe(UInt16(tile + 2), "hvc1") }
            items += infe(thumbnailID, "hvc1") + infe(primaryExifID, "Exif")
            count += UInt16(tiles) + 3
            let iinf = C.fullBox("iinf", 0, C.be16(count) + items)
            var refs = reference("dimg", from: 1, to: (0..<tiles).map { UInt16($0 + 2) })
                + reference("thmb", from: thumbnailID, to: [1])
            if thumbnailExif != nil { refs += reference("cdsc", from: thumbnailExifID, to: [thumbnailID]) }
            if linkPrimaryExif { refs += reference("cdsc", from: primaryExifID, to: [1]) }
            let iref = C.fullBox("iref", 0, refs)
            // Version 1, 4-byte offsets and lengths; every tile points into the pixels.
            var located: [(UInt16, UInt32, Int)] = (0..<tiles).map { (UInt16($0 + 2), pixelsAt, pixels.count) }
            located += [(thumbnailID, pixelsAt, 100), (primaryExifID, primaryExifAt, primaryExif.count)]
            if let thumbnailExif { located.append((thumbnailExifID, thumbnailExifAt, thumbnailExif.count)) }
            var iloc: [UInt8] = [0x44, 0x00] + C.be16(UInt16(located.count))
            for (id, offset, length) in located {
                iloc += C.be16(id) + C.be16(0) + C.be16(0) + C.be16(1) + C.be32(offset) + C.be32(UInt32(length))
            }
            return C.fullBox("meta", 0, hdlr + pitm + iinf + iref + C.fullBox("iloc", 1, iloc))
        }

        let metaSize = meta(pixelsAt: 0, primaryExifAt: 0, thumbnailExifAt: 0).count
        let pixelsAt = UInt32(ftyp.count + metaSize + 8)
        let thumbnailExifAt = pixelsAt + UInt32(pixels.count)
        let primaryExifAt = thumbnailExifAt + UInt32(thumbnailExif?.count ?? 0)
        let mdat = C.box("mdat", pixels + (thumbnailExif ?? []) + primaryExif)
        return ftyp + meta(pixelsAt: pixelsAt, primaryExifAt: primaryExifAt, thumbnailExifAt: thumbnailExifAt) + mdat
    }
}
