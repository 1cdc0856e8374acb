// SPDX-License-Identifier: GPL-2.0-or-later

/// Builds a TIFF/EXIF structure (header, IFD0 and an EXIF sub-IFD holding ASCII
/// tags), the block that JPEG, WebP, HEIF and the RAW formats carry.
struct TestTIFF {
    static let dateTime: UInt16 = 0x0132
    static let make: UInt16 = 0x010F
    static let dateTimeOriginal: UInt16 = 0x9003
    static let dateTimeDigitized: UInt16 = 0x9004
    static let exifIFDPointer: UInt16 = 0x8769

    var bigEndian = false
    /// ASCII tags in IFD0, each value without its NUL.
    var primary: [(tag: UInt16, value: [UInt8])] = []
    /// ASCII tags in the EXIF IFD; the pointer to it is added when there are any.
    var exif: [(tag: UInt16, value: [UInt8])] = []
    /// SHORT (type 3) tags of one value in IFD0 (Orientation) and LONG (type 4) ones
    /// in the EXIF IFD (PixelXDimension): values that fit in their entries.
    var primaryShorts: [(tag: UInt16, value: UInt16)] = []
    var exifLongs: [(tag: UInt16, value: UInt32)] = []

    init(bigEndian: Bool = false, dateTimeOriginal: String? = nil, dateTimeDigitized: String? = nil, dateTime: String? = nil) {
        self.bigEndian = bigEndian
        primary.append((Self.make, Array("CuratorTestCam".utf8)))
        if let dateTime { primary.append((Self.dateTime, Array(dateTime.utf8))) }
        if let dateTimeOriginal { exif.append((Self.dateTimeOriginal, Array(dateTimeOriginal.utf8))) }
        if let dateTimeDigitized { exif.append((Self.dateTimeDigitized, Array(dateTimeDigitized.utf8))) }
    }

    var bytes: [UInt8] {
        var out: [UInt8] = bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
        out += u32(8)
        let hasExif = !exif.isEmpty || !exifLongs.isEmpty
        let primaryCount = primary.count + primaryShorts.count + (hasExif ? 1 : 0)
        let primarySize = ifdSize(entries: primaryCount, values: primary)
        let exifOffset = 8 + primarySize
        var entries = primary.map { (tag: $0.tag, type: UInt16(2), value: $0.value + [0]) }
        entries += primaryShorts.map { (tag: $0.tag, type: UInt16(3), value: u16($0.value)) }
        if hasExif { entries.append((Self.exifIFDPointer, 4, u32(UInt32(exifOffset)))) }
        out += ifd(entries, at: 8)
        if hasExif {
            out += ifd(exif.map { (tag: $0.tag, type: UInt16(2), value: $0.value + [0]) }
                       + exifLongs.map { (tag: $0.tag, type: UInt16(4), value: u32($0.value)) }, at: exifOffset)
        }
        return out
    }

    private func ifdSize(entries: Int, values: [(tag: UInt16, value: [UInt8])]) -> Int {
        let data = values.map { $0.value.count + 1 }.filter { $0 > 4 }.reduce(0) { $0 + ($1 + 1) / 2 * 2 }
        return 2 + 12 * entries + 4 + data
    }

    /// One IFD at `offset`, its values longer than four bytes placed right after it.
    private func ifd(_ unsorted: [(tag: UInt16, type: UInt16, value: [UInt8])], at offset: Int) -> [UInt8] {
        let entries = unsorted.sorted { $0.tag < $1.tag }
        var table = u16(UInt16(entries.count))
        var data: [UInt8] = []
        var dataOffset = offset + 2 + 12 * entries.count + 4
        for entry in entries {
            table += u16(entry.tag) + u16(entry.type)
            let count = entry.type == 4 || entry.type == 3 ? 1 : entry.value.count
            table += u32(UInt32(count))
            if entry.value.count <= 4 {
                table += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                table += u32(UInt32(dataOffset))
                var value = entry.value
                if value.count % 2 == 1 { value.append(0) }  // values start on word boundaries
                data += value
                dataOffset += value.count
            }
        }
        table += u32(0)  // no next IFD
        return table + data
    }

    private func u16(_ value: UInt16) -> [UInt8] {
        bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
    }

    private func u32(_ value: UInt32) -> [UInt8] {
        let bytes = [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        return bigEndian ? bytes : bytes.reversed()
    }
}
