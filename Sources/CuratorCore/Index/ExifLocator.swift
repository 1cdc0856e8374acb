// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Finds the TIFF structure (`II*\0` or `MM\0*` and its IFDs) that holds a
/// file's EXIF, whatever the container, by following the container's own
/// offsets. The container is told by its first bytes, not by the file name:
/// phones and web exports often save HEIC or WebP under a `.jpg` name.
enum ExifLocator {
    /// libexif looks no further than this into an EXIF block (the most a JPEG
    /// APP1 segment holds, less the `Exif\0\0` header).
    static let maximumTIFFSize = 0xFFFE - 6
    /// Bounds on walking a damaged or hostile file.
    static let maximumSegments = 128

    static let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]

    static func locate(in source: inout some ExifByteSource) throws(SystemError) -> [UInt8]? {
        let magic = try source.read(at: 0, count: 16)
        switch ExifContainer(magic: magic) {
        case .jpeg: return try tiffInJPEG(&source, at: 0)
        case .tiff: return try tiffFile(&source)
        case .fujiRAF: return try tiffInRAF(&source)
        case .webP: return try tiffInWebP(&source)
        case .isoBMFF: return try ISOBMFFExifLocator.locate(in: &source)
        case nil: return nil
        }
    }

    /// The TIFF in a JPEG's `APP1 Exif` segment. Walks the marker segments from
    /// SOI and stops at the image data (SOS), before which EXIF must come.
    static func tiffInJPEG(_ source: inout some ExifByteSource, at start: Int64) throws(SystemError) -> [UInt8]? {
        var position = start + 2
        for _ in 0..<maximumSegments {
            let header = try source.read(at: position, count: 4)
            guard header.count == 4, header[0] == 0xFF else { return nil }
            let marker = header[1]
            switch marker {
            case 0xFF:
                position += 1  // fill byte before a marker
                continue
            case 0x01, 0xD0...0xD8:
                position += 2  // markers without a length
                continue
            case 0xD9, 0xDA:
                return nil
            default:
                break
            }
            guard let length = header.uint16(at: 2, bigEndian: true), length >= 2 else { return nil }
            if marker == 0xE1 && Int(length) - 2 > exifHeader.count {
                // Check the header first: XMP also lives in APP1 and can be large.
                let payloadStart = position + 4
                if try source.read(at: payloadStart, count: exifHeader.count) == exifHeader {
                    let tiffLength = min(Int(length) - 2 - exifHeader.count, maximumTIFFSize)
                    let tiff = try source.read(at: payloadStart + Int64(exifHeader.count), count: tiffLength)
                    return isTIFF(tiff) ? tiff : nil
                }
            }
            position += 2 + Int64(length)
        }
        return nil
    }

    /// A TIFF-based file (TIFF, DNG, NEF, CR2, ARW, ORF, RW2): its IFD0 and EXIF
    /// IFD, wherever they lie (see `TIFFExifBlock`). ORF and RW2 put their own
    /// magic where TIFF has 42; the block gathered has TIFF's, which libexif insists on.
    static func tiffFile(_ source: inout some ExifByteSource) throws(SystemError) -> [UInt8]? {
        try TIFFExifBlock.gather(&source)
    }

    /// Fujifilm RAF: a header whose offset 84 points at an embedded JPEG with the EXIF.
    static func tiffInRAF(_ source: inout some ExifByteSource) throws(SystemError) -> [UInt8]? {
        let pointer = try source.read(at: 84, count: 4)
        guard let jpegOffset = pointer.uint32(at: 0, bigEndian: true), jpegOffset >= 88 else { return nil }
        guard try source.read(at: Int64(jpegOffset), count: 2) == [0xFF, 0xD8] else { return nil }
        return try tiffInJPEG(&source, at: Int64(jpegOffset))
    }

    /// WebP: an `EXIF` chunk, allowed only in the extended format (`VP8X` first).
    /// It usually follows the image data, so the chunk headers are walked with
    /// positioned reads rather than reading the image.
    static func tiffInWebP(_ source: inout some ExifByteSource) throws(SystemError) -> [UInt8]? {
        let riff = try source.read(at: 0, count: 16)
        guard riff.hasPrefix(asciiBytes("VP8X"), at: 12), let riffSize = riff.uint32(at: 4, bigEndian: false) else { return nil }
        let end = min(source.size, Int64(riffSize) + 8)
        var position: Int64 = 12
        for _ in 0..<maximumSegments {
            guard position + 8 <= end else { return nil }
            let header = try source.read(at: position, count: 8)
            guard let chunkSize = header.uint32(at: 4, bigEndian: false) else { return nil }
            if header.hasPrefix(asciiBytes("EXIF")) {
                var payload = try source.read(at: position + 8, count: min(Int(chunkSize), maximumTIFFSize + exifHeader.count))
                // Some writers keep the JPEG-style header in front; the spec has none.
                if payload.hasPrefix(exifHeader) { payload.removeFirst(exifHeader.count) }
                return isTIFF(payload) ? Array(payload.prefix(maximumTIFFSize)) : nil
            }
            position += 8 + Int64(chunkSize) + Int64(chunkSize & 1)
        }
        return nil
    }

    static func isTIFF(_ bytes: [UInt8]) -> Bool {
        bytes.hasPrefix([0x49, 0x49, 0x2A, 0x00]) || bytes.hasPrefix([0x4D, 0x4D, 0x00, 0x2A])
    }
}

/// The containers EXIF is found in, told apart by their first 16 bytes.
enum ExifContainer {
    case jpeg, tiff, fujiRAF, webP, isoBMFF

    init?(magic: [UInt8]) {
        if magic.hasPrefix([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if magic.hasPrefix(asciiBytes("II*\0")) || magic.hasPrefix(asciiBytes("MM\0*"))
                    || magic.hasPrefix(asciiBytes("IIRO")) || magic.hasPrefix(asciiBytes("IIRS"))
                    || magic.hasPrefix(asciiBytes("MMOR")) || magic.hasPrefix(asciiBytes("IIU\0")) {
            self = .tiff
        } else if magic.hasPrefix(asciiBytes("FUJIFILM")) {
            self = .fujiRAF
        } else if magic.hasPrefix(asciiBytes("RIFF")) && magic.hasPrefix(asciiBytes("WEBP"), at: 8) {
            self = .webP
        } else if magic.hasPrefix(asciiBytes("ftyp"), at: 4) {
            self = .isoBMFF
        } else {
            return nil
        }
    }
}
