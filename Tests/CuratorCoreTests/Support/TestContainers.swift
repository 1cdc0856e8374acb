// SPDX-License-Identifier: GPL-2.0-or-later

/// Minimal files of the other formats that carry EXIF, each shaped like the real
/// thing where the reader looks (headers, boxes, chunks, offsets) and filled
/// with junk elsewhere.
enum TestContainers {
    /// A TIFF-based RAW: the TIFF itself, with `magic` in place of 42 (ORF: "RO", RW2: "U\0").
    static func tiffRaw(_ tiff: TestTIFF, magic: [UInt8]? = nil) -> [UInt8] {
        var bytes = tiff.bytes
        if let magic { bytes.replaceSubrange(2..<4, with: magic) }
        return bytes + junk(4096)
    }

    /// Fujifilm RAF: a 100-byte header whose offset 84 points at an embedded JPEG.
    static func raf(jpeg: [UInt8]) -> [UInt8] {
        var header = Array("FUJIFILMCCD-RAW 0201FF129502".utf8)
        header += [UInt8](repeating: 0, count: 84 - header.count)
        header += be32(160) + be32(UInt32(jpeg.count))
        header += [UInt8](repeating: 0, count: 160 - header.count)
        return header + jpeg + junk(2048)
    }

    /// WebP: VP8X (EXIF flag set), the image data, then the EXIF chunk at the end
    /// as the format puts it. `extended: false` gives a simple lossy file (no metadata possible).
    static func webP(tiff: [UInt8]?, exifHeader: Bool = false, extended: Bool = true, imageSize: Int = 1001) -> [UInt8] {
        var chunks: [UInt8] = []
        if extended {
            chunks += riffChunk("VP8X", [tiff == nil ? 0 : 0x08, 0, 0, 0, 7, 0, 0, 7, 0, 0])
        }
        chunks += riffChunk("VP8 ", junk(imageSize))
        if let tiff {
            chunks += riffChunk("EXIF", (exifHeader ? Array("Exif\0\0".utf8) : []) + tiff)
        }
        return Array("RIFF".utf8) + le32(UInt32(4 + chunks.count)) + Array("WEBP".utf8) + chunks
    }

    /// HEIC: ftyp, meta (iinf names item 1 `Exif`, iloc locates it), and mdat
    /// holding the image item first and the EXIF item after it. With `inIdat`,
    /// the EXIF item lives in meta's idat box instead (iloc version 1, method 1).
    /// `exifOffset` replaces the EXIF item's offset (then written with 8 bytes) to test hostile values.
    static func heic(
        tiff: [UInt8], ilocVersion: UInt8 = 0, infeVersion: UInt8 = 2, inIdat: Bool = false, exifOffset hostile: UInt64? = nil
    ) -> [UInt8] {
        let exifItem = be32(6) + Array("Exif\0\0".utf8) + tiff
        let image = junk(5000)
        let ftyp = box("ftyp", Array("heic".utf8) + be32(0) + Array("mif1heic".utf8))

        func meta(imageOffset: UInt32, exifOffset: UInt32) -> [UInt8] {
            let wide = hostile != nil
            let hdlr = fullBox("hdlr", 0, be32(0) + Array("pict".utf8) + be32(0) + be32(0) + be32(0) + [0])
            let pitm = fullBox("pitm", 0, be16(2))
            let iinf = fullBox("iinf", 0, be16(2) + infe(1, "Exif") + infe(2, "hvc1"))
            let exifMethod: UInt16 = inIdat ? 1 : 0
            // 4-byte (or 8-byte) offsets, 4-byte lengths, no base offset, no index.
            var iloc: [UInt8] = [wide ? 0x84 : 0x44, 0x00] + be16(2)
            for (id, method, offset, length) in [(UInt16(2), UInt16(0), UInt64(imageOffset), image.count),
                                                 (1, exifMethod, hostile ?? UInt64(exifOffset), exifItem.count)] {
                iloc += be16(id)
                if ilocVersion == 1 { iloc += be16(method) }
                iloc += be16(0) + be16(1)
                iloc += wide ? be32(UInt32(offset >> 32)) + be32(UInt32(offset & 0xFFFF_FFFF)) : be32(UInt32(offset))
                iloc += be32(UInt32(length))
            }
            var children = hdlr + pitm + iinf + fullBox("iloc", ilocVersion, iloc)
            if inIdat { children += box("idat", exifItem) }
            return fullBox("meta", 0, children)
        }
        func infe(_ id: UInt16, _ type: String) -> [UInt8] {
            let idField = infeVersion == 3 ? be32(UInt32(id)) : be16(id)
            return fullBox("infe", infeVersion, idField + be16(0) + Array(type.utf8) + [0])
        }

        // The sizes do not depend on the offsets, so lay out once to learn them.
        let metaSize = meta(imageOffset: 0, exifOffset: 0).count
        let mdatPayload = UInt32(ftyp.count + metaSize + 8)
        let exifOffset = inIdat ? 0 : mdatPayload + UInt32(image.count)
        let mdat = box("mdat", image + (inIdat ? [] : exifItem))
        return ftyp + meta(imageOffset: mdatPayload, exifOffset: exifOffset) + mdat
    }

    /// Canon CR3: moov holds Canon's uuid box, whose CMT1 is IFD0 and CMT2 the
    /// EXIF IFD, each as a TIFF of its own.
    static func cr3(cmt1: [UInt8], cmt2: [UInt8]) -> [UInt8] {
        let ftyp = box("ftyp", Array("crx ".utf8) + be32(1) + Array("crx isom".utf8))
        let canonUUID: [UInt8] = [
            0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48,
        ]
        let canon = box("uuid", canonUUID + box("CNCV", Array("CanonCR3_001/00.09.00/00.00.00".utf8))
                        + box("CMT1", cmt1) + box("CMT2", cmt2))
        let otherUUID = box("uuid", [UInt8](repeating: 0x11, count: 16) + junk(40))
        let moov = box("moov", otherUUID + canon + fullBox("mvhd", 0, junk(96)))
        return ftyp + moov + box("mdat", junk(3000))
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    static func fullBox(_ type: String, _ version: UInt8, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version, 0, 0, 0] + payload)
    }

    static func riffChunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        Array(type.utf8) + le32(UInt32(payload.count)) + payload + (payload.count % 2 == 1 ? [0] : [])
    }

    /// Deterministic filler that contains no marker a reader could mistake.
    static func junk(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(0x20 + $0 % 64) }
    }

    static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
    static func le32(_ value: UInt32) -> [UInt8] { be32(value).reversed() }
}
