// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// An image's pixel size from its own header, without decoding it: a JPEG's
/// start-of-frame segment, PNG's IHDR, GIF's screen descriptor, WebP's VP8X
/// canvas or VP8/VP8L frame header. Other formats (RAW, HEIF) give nil: their EXIF
/// says it (`PhotoFactsReader`). Bounded like `ExifLocator`: offsets followed by
/// positioned reads, at most `ExifLocator.maximumSegments` JPEG segments.
enum ImageDimensions {
    static func read(from source: inout some ExifByteSource) throws(SystemError) -> (width: Int, height: Int)? {
        let head = try source.read(at: 0, count: 32)
        if head.hasPrefix([0xFF, 0xD8, 0xFF]) { return try jpeg(&source) }
        if head.hasPrefix([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), head.hasPrefix(asciiBytes("IHDR"), at: 12),
           let width = head.uint32(at: 16, bigEndian: true), let height = head.uint32(at: 20, bigEndian: true) {
            return positive(Int(width), Int(height))
        }
        if head.hasPrefix(asciiBytes("GIF8")), let width = head.uint16(at: 6, bigEndian: false),
           let height = head.uint16(at: 8, bigEndian: false) {
            return positive(Int(width), Int(height))
        }
        if head.hasPrefix(asciiBytes("RIFF")), head.hasPrefix(asciiBytes("WEBP"), at: 8) { return webP(head) }
        return nil
    }

    /// The first SOFn segment before the image data: height at +5, width at +7.
    private static func jpeg(_ source: inout some ExifByteSource) throws(SystemError) -> (width: Int, height: Int)? {
        var position: Int64 = 2
        for _ in 0..<ExifLocator.maximumSegments {
            let header = try source.read(at: position, count: 9)
            guard header.count >= 4, header[0] == 0xFF else { return nil }
            let marker = header[1]
            switch marker {
            case 0xFF:
                position += 1
                continue
            case 0x01, 0xD0...0xD8:
                position += 2
                continue
            case 0xD9, 0xDA:
                return nil
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                guard header.count == 9, let height = header.uint16(at: 5, bigEndian: true),
                      let width = header.uint16(at: 7, bigEndian: true) else { return nil }
                return positive(Int(width), Int(height))
            default:
                break
            }
            guard let length = header.uint16(at: 2, bigEndian: true), length >= 2 else { return nil }
            position += 2 + Int64(length)
        }
        return nil
    }

    private static func webP(_ head: [UInt8]) -> (width: Int, height: Int)? {
        func u24(_ at: Int) -> Int { Int(head[at]) | Int(head[at + 1]) << 8 | Int(head[at + 2]) << 16 }
        guard head.count >= 30 else { return nil }
        if head.hasPrefix(asciiBytes("VP8X"), at: 12) { return positive(u24(24) + 1, u24(27) + 1) }
        if head.hasPrefix(asciiBytes("VP8 "), at: 12), head[23] == 0x9D, head[24] == 0x01, head[25] == 0x2A,
           let width = head.uint16(at: 26, bigEndian: false), let height = head.uint16(at: 28, bigEndian: false) {
            return positive(Int(width & 0x3FFF), Int(height & 0x3FFF))
        }
        if head.hasPrefix(asciiBytes("VP8L"), at: 12), head[20] == 0x2F {
            let bits = Int(head[21]) | Int(head[22]) << 8 | Int(head[23]) << 16 | Int(head[24]) << 24
            return positive((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        }
        return nil
    }

    private static func positive(_ width: Int, _ height: Int) -> (width: Int, height: Int)? {
        width > 0 && height > 0 ? (width, height) : nil
    }
}
