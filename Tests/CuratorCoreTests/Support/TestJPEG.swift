// SPDX-License-Identifier: GPL-2.0-or-later

/// A tiny but valid baseline JPEG (one 8×8 grey block) with an optional EXIF
/// segment, built byte by byte like `scripts/make-sample-photos.py` does.
enum TestJPEG {
    static func make(
        dateTimeOriginal: String? = nil, dateTimeDigitized: String? = nil, dateTime: String? = nil,
        bigEndian: Bool = false, comment: String = "curatord test", jfif: Bool = false, xmpFirst: Bool = false
    ) -> [UInt8] {
        let tiff = TestTIFF(bigEndian: bigEndian, dateTimeOriginal: dateTimeOriginal,
                            dateTimeDigitized: dateTimeDigitized, dateTime: dateTime)
        return make(exifTIFF: tiff.bytes, comment: comment, jfif: jfif, xmpFirst: xmpFirst)
    }

    /// With `exifTIFF` nil the file has no EXIF at all.
    static func make(exifTIFF: [UInt8]?, comment: String = "curatord test", jfif: Bool = false, xmpFirst: Bool = false) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        if jfif {
            out += segment(0xE0, Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])
        }
        if xmpFirst {
            let xmp = "http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>"
            out += segment(0xE1, Array(xmp.utf8))
        }
        if let exifTIFF {
            out += segment(0xE1, Array("Exif\0\0".utf8) + exifTIFF)
        }
        out += segment(0xFE, Array(comment.utf8))
        out += image
        return out
    }

    /// Quantisation and Huffman tables, frame, scan and entropy data for one
    /// block whose DC difference is 0 (mid grey) and whose AC starts with EOB.
    static let image: [UInt8] = {
        var out: [UInt8] = []
        out += segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))
        out += segment(0xC0, [8, 0, 8, 0, 8, 1, 1, 0x11, 0])
        // One code of length 1 ("0") in each table: DC category 0, AC end-of-block.
        out += segment(0xC4, [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0x00])
        out += segment(0xC4, [0x10, 1] + [UInt8](repeating: 0, count: 15) + [0x00])
        out += segment(0xDA, [1, 1, 0x00, 0, 63, 0])
        out += [0b0011_1111]  // DC "0", EOB "0", padded with ones
        out += [0xFF, 0xD9]
        return out
    }()

    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        precondition(length <= 0xFFFF, "a JPEG segment holds at most 65533 bytes")
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }
}
