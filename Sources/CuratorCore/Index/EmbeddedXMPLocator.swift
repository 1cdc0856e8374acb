// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Finds the XMP packet a JPEG carries (Lightroom, Bridge and cameras write a
/// JPEG's marks there, never in a sidecar): the `APP1` segment that starts with
/// Adobe's namespace (XMP part 3), walked to as the EXIF is (`ExifLocator`), by the
/// segments' own lengths, from the descriptor. Only this segment is handed to the
/// XMP Toolkit: no image decoder, and none of the toolkit's file handlers, reads
/// the file. Extended XMP (further segments) holds no marks and is not read.
enum EmbeddedXMPLocator {
    static let header = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    static func packet(in source: inout some ExifByteSource) throws(SystemError) -> [UInt8]? {
        let magic = try source.read(at: 0, count: 3)
        guard magic == [0xFF, 0xD8, 0xFF] else { return nil }
        var position: Int64 = 2
        for _ in 0..<ExifLocator.maximumSegments {
            let head = try source.read(at: position, count: 4)
            guard head.count == 4, head[0] == 0xFF else { return nil }
            let marker = head[1]
            switch marker {
            case 0xFF:
                position += 1
                continue
            case 0x01, 0xD0...0xD8:
                position += 2
                continue
            case 0xD9, 0xDA:
                return nil
            default:
                break
            }
            guard let length = head.uint16(at: 2, bigEndian: true), length >= 2 else { return nil }
            if marker == 0xE1 && Int(length) - 2 > header.count,
               try source.read(at: position + 4, count: header.count) == header {
                return try source.read(at: position + 4 + Int64(header.count), count: Int(length) - 2 - header.count)
            }
            position += 2 + Int64(length)
        }
        return nil
    }
}
