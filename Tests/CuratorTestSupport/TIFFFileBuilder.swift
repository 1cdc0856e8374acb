// SPDX-License-Identifier: GPL-2.0-or-later

/// A whole TIFF laid out as editors and RAW cameras lay theirs out, not as a
/// reader would wish: the header, then the data blocks (an image strip, an
/// embedded JPEG), then IFD0, IFD1 and, last of all, the EXIF IFD, each IFD's
/// longer values right after its table. Photoshop saves a TIFF this way, and a
/// CR2 or NEF holds its previews as blocks that IFD entries point at.
public struct TIFFFileBuilder {
    public enum Value {
        case ascii(String)
        case shorts([UInt16])
        case long(UInt32)
        case undefined([UInt8])
        /// A LONG: where block `index` lies in the file.
        case offsetOfBlock(Int)
        /// A LONG: block `index`'s length.
        case lengthOfBlock(Int)
    }

    public typealias Field = (tag: UInt16, value: Value)

    public var bigEndian = false
    /// Replaces 42 after the byte order (ORF: "RO", RW2: "U\0").
    public var magic: [UInt8]?
    public var blocks: [[UInt8]] = []
    public var ifd0: [Field] = []
    /// Chained after IFD0 when not empty (a thumbnail's IFD).
    public var ifd1: [Field] = []
    /// Pointed at from IFD0 (tag 0x8769) when not empty, and written at the end.
    public var exif: [Field] = []

    public init(bigEndian: Bool = false) { self.bigEndian = bigEndian }

    public var bytes: [UInt8] {
        var out: [UInt8] = bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
        if let magic { out.replaceSubrange(2..<4, with: magic) }
        out += u32(0)  // IFD0's offset, once known
        var blockOffsets: [Int] = []
        for block in blocks {
            if out.count % 2 == 1 { out.append(0) }
            blockOffsets.append(out.count)
            out += block
        }
        if out.count % 2 == 1 { out.append(0) }
        let ifd0Offset = out.count
        out.replaceSubrange(4..<8, with: u32(UInt32(ifd0Offset)))
        // Sizes do not depend on the offsets written, so each IFD's place is known ahead.
        var primary = ifd0
        if !exif.isEmpty { primary.append((0x8769, .long(0))) }
        let ifd1Offset = ifd0Offset + ifd(primary, at: ifd0Offset, next: 0, blockOffsets).count
        let exifOffset = ifd1Offset + (ifd1.isEmpty ? 0 : ifd(ifd1, at: ifd1Offset, next: 0, blockOffsets).count)
        if !exif.isEmpty { primary[primary.count - 1] = (0x8769, .long(UInt32(exifOffset))) }
        out += ifd(primary, at: ifd0Offset, next: ifd1.isEmpty ? 0 : ifd1Offset, blockOffsets)
        if !ifd1.isEmpty { out += ifd(ifd1, at: ifd1Offset, next: 0, blockOffsets) }
        if !exif.isEmpty { out += ifd(exif, at: exifOffset, next: 0, blockOffsets) }
        return out
    }

    private func ifd(_ fields: [Field], at offset: Int, next: Int, _ blockOffsets: [Int]) -> [UInt8] {
        let sorted = fields.sorted { $0.tag < $1.tag }
        var table = u16(UInt16(sorted.count))
        var data: [UInt8] = []
        let dataStart = offset + 2 + 12 * sorted.count + 4
        for (tag, value) in sorted {
            let (type, count, bytes): (UInt16, Int, [UInt8])
            switch value {
            case .ascii(let text): (type, count, bytes) = (2, text.utf8.count + 1, Array(text.utf8) + [0])
            case .shorts(let values): (type, count, bytes) = (3, values.count, values.flatMap(u16))
            case .long(let value): (type, count, bytes) = (4, 1, u32(value))
            case .undefined(let value): (type, count, bytes) = (7, value.count, value)
            case .offsetOfBlock(let index): (type, count, bytes) = (4, 1, u32(UInt32(blockOffsets[index])))
            case .lengthOfBlock(let index): (type, count, bytes) = (4, 1, u32(UInt32(blocks[index].count)))
            }
            table += u16(tag) + u16(type) + u32(UInt32(count))
            if bytes.count <= 4 {
                table += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
            } else {
                table += u32(UInt32(dataStart + data.count))
                data += bytes
                if data.count % 2 == 1 { data.append(0) }
            }
        }
        return table + u32(UInt32(next)) + data
    }

    private func u16(_ value: UInt16) -> [UInt8] {
        bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
    }

    private func u32(_ value: UInt32) -> [UInt8] {
        let bytes = [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        return bigEndian ? bytes : bytes.reversed()
    }

    /// An RGB image of `width` x `height` 8-bit pixels in one uncompressed strip,
    /// stored as block 0 before IFD0: what libtiff writers and Photoshop save.
    public static func rgbImage(width: Int, height: Int, bigEndian: Bool = false) -> TIFFFileBuilder {
        var tiff = TIFFFileBuilder(bigEndian: bigEndian)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for i in pixels.indices { pixels[i] = UInt8(truncatingIfNeeded: i * 7 / 3) }
        tiff.blocks = [pixels]
        tiff.ifd0 = [
            (0x0100, .shorts([UInt16(width)])), (0x0101, .shorts([UInt16(height)])), (0x0102, .shorts([8, 8, 8])),
            (0x0103, .shorts([1])), (0x0106, .shorts([2])), (0x0111, .offsetOfBlock(0)), (0x0115, .shorts([3])),
            (0x0116, .shorts([UInt16(height)])), (0x0117, .lengthOfBlock(0)), (0x011C, .shorts([1])),
        ]
        return tiff
    }
}
