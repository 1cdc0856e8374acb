// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// The EXIF of a TIFF-based file (TIFF, DNG, NEF, CR2, ARW, ORF, RW2), gathered
/// into one small TIFF block that libexif parses as it parses a JPEG's.
///
/// In such a file the IFDs may lie anywhere: libtiff writers put IFD0 after the
/// image data, Photoshop the EXIF IFD at the very end. So IFD0 and the EXIF IFD
/// are found by following their offsets with positioned reads, and their entries
/// are copied into a block of their own. Values too large to matter here (XMP,
/// ICC profiles, maker notes, strip tables) and the offsets to other structures
/// are left out. Bounded in entries per IFD and in bytes copied, whatever the
/// offsets and counts in the file say.
enum TIFFExifBlock {
    /// More entries than any real IFD has; a longer table is read only this far.
    static let maximumEntries = 512
    /// Out-of-line values larger than this are left out: every tag read is far smaller.
    static let maximumValueSize = 4096
    /// Read with the IFD's table, so that the values that follow it (where
    /// writers put them) come with the same read.
    static let valueWindow = 4096
    /// Bytes of values copied per IFD: with both tables, the block stays within
    /// what libexif reads (`ExifLocator.maximumTIFFSize`).
    static let maximumCopied = 24 * 1024

    static let exifIFDPointer: UInt16 = 0x8769
    /// Offsets into the file, meaningless in the gathered block (GPS, SubIFDs,
    /// the IFD1 JPEG, Interoperability), and maker notes, whose inner offsets are
    /// the file's.
    static let leftOut: Set<UInt16> = [0x8769, 0x8825, 0x014A, 0x0201, 0x0202, 0xA005, 0x927C]

    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var value: [UInt8]
    }

    /// The block, or nil when the file has no readable IFD0.
    static func gather(_ source: inout some ExifByteSource) throws(SystemError) -> [UInt8]? {
        let header = try source.read(at: 0, count: 8)
        guard header.count == 8, header[0] == header[1], header[0] == 0x49 || header[0] == 0x4D else { return nil }
        let bigEndian = header[0] == 0x4D
        guard let first = header.uint32(at: 4, bigEndian: bigEndian),
              let primary = try entries(&source, at: Int64(first), bigEndian: bigEndian)
        else { return nil }
        var exif: [Entry] = []
        if let pointer = primary.first(where: { $0.tag == exifIFDPointer }), pointer.count == 1,
           pointer.type == 4 || pointer.type == 13, let offset = pointer.value.uint32(at: 0, bigEndian: bigEndian),
           offset != first {
            exif = try entries(&source, at: Int64(offset), bigEndian: bigEndian) ?? []
        }
        return write(primary: primary.filter { !leftOut.contains($0.tag) }, exif: exif.filter { !leftOut.contains($0.tag) },
                     bigEndian: bigEndian)
    }

    /// The entries of the IFD at `offset`, with their values (nil when there is none).
    static func entries(_ source: inout some ExifByteSource, at offset: Int64, bigEndian: Bool) throws(SystemError) -> [Entry]? {
        guard offset >= 8, offset < source.size else { return nil }
        let head = try source.read(at: offset, count: 2 + 12 * maximumEntries + valueWindow)
        guard let declared = head.uint16(at: 0, bigEndian: bigEndian), declared > 0 else { return nil }
        let count = min(Int(declared), maximumEntries)
        var entries: [Entry] = []
        var copied = 0
        for index in 0..<count {
            let at = 2 + 12 * index
            guard let tag = head.uint16(at: at, bigEndian: bigEndian), let type = head.uint16(at: at + 2, bigEndian: bigEndian),
                  let components = head.uint32(at: at + 4, bigEndian: bigEndian), at + 12 <= head.count
            else { break }
            guard let unit = unitSize(type) else { continue }
            let (size, overflow) = Int(components).multipliedReportingOverflow(by: unit)
            guard !overflow, size > 0, size <= maximumValueSize, copied + size <= maximumCopied else { continue }
            var value: [UInt8]
            if size <= 4 {
                value = Array(head[(at + 8)..<(at + 8 + size)])
            } else {
                guard let pointer = head.uint32(at: at + 8, bigEndian: bigEndian) else { continue }
                let inHead = Int64(pointer) - offset
                if inHead >= 0, inHead + Int64(size) <= Int64(head.count) {
                    value = Array(head[Int(inHead)..<(Int(inHead) + size)])
                } else {
                    value = try source.read(at: Int64(pointer), count: size)
                }
                guard value.count == size else { continue }
                copied += size
            }
            entries.append(Entry(tag: tag, type: type, count: components, value: value))
        }
        return entries.isEmpty ? nil : entries
    }

    /// Bytes per component of a TIFF field type; nil for a type TIFF does not define.
    static func unitSize(_ type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11, 13: 4
        case 5, 10, 12: 8
        default: nil
        }
    }

    /// A TIFF of IFD0 and, when there is one, the EXIF IFD, each followed by its values.
    static func write(primary: [Entry], exif: [Entry], bigEndian: Bool) -> [UInt8] {
        var out: [UInt8] = bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
        func u16(_ value: UInt16) -> [UInt8] {
            bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
        }
        func u32(_ value: Int) -> [UInt8] {
            let v = UInt32(truncatingIfNeeded: value)
            let bytes = [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
            return bigEndian ? bytes : bytes.reversed()
        }
        func ifd(_ unsorted: [Entry], at offset: Int) -> [UInt8] {
            let sorted = unsorted.sorted { $0.tag < $1.tag }
            var table = u16(UInt16(sorted.count))
            var data: [UInt8] = []
            let dataStart = offset + 2 + 12 * sorted.count + 4
            for entry in sorted {
                table += u16(entry.tag) + u16(entry.type) + u32(Int(entry.count))
                if entry.value.count <= 4 {
                    table += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
                } else {
                    table += u32(dataStart + data.count)
                    data += entry.value
                    if data.count % 2 == 1 { data.append(0) }  // values start on word boundaries
                }
            }
            return table + u32(0) + data
        }
        out += u32(8)
        if exif.isEmpty {
            out += ifd(primary, at: 8)
            return out
        }
        // The pointer's value is where the EXIF IFD will land: after IFD0 and its values,
        // whose size does not depend on that value.
        let placeholder = Entry(tag: exifIFDPointer, type: 4, count: 1, value: u32(0))
        let exifOffset = 8 + ifd(primary + [placeholder], at: 8).count
        out += ifd(primary + [Entry(tag: exifIFDPointer, type: 4, count: 1, value: u32(exifOffset))], at: 8)
        out += ifd(exif, at: exifOffset)
        return out
    }
}
