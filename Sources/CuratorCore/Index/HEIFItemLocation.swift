// SPDX-License-Identifier: GPL-2.0-or-later

/// Where one item's first extent lies, from an `iloc` box.
struct HEIFItemLocation: Hashable {
    var constructionMethod: UInt16
    var offset: UInt64
    var length: UInt64

    static func find(itemID wanted: UInt32, iloc bytes: [UInt8]) -> HEIFItemLocation? {
        guard bytes.count >= 8 else { return nil }
        let version = bytes[0]
        guard version <= 2 else { return nil }
        let offsetSize = Int(bytes[4] >> 4)
        let lengthSize = Int(bytes[4] & 0x0F)
        let baseOffsetSize = Int(bytes[5] >> 4)
        let indexSize = version == 0 ? 0 : Int(bytes[5] & 0x0F)
        var p = 6
        guard let itemCount = version < 2 ? bytes.uint16(at: p, bigEndian: true).map(UInt32.init) : bytes.uint32(at: p, bigEndian: true)
        else { return nil }
        p += version < 2 ? 2 : 4
        for _ in 0..<itemCount {
            guard let id = version < 2 ? bytes.uint16(at: p, bigEndian: true).map(UInt32.init) : bytes.uint32(at: p, bigEndian: true)
            else { return nil }
            p += version < 2 ? 2 : 4
            var method: UInt16 = 0
            if version > 0 {
                guard let field = bytes.uint16(at: p, bigEndian: true) else { return nil }
                method = field & 0x0F
                p += 2
            }
            p += 2  // data_reference_index: 0, this file
            guard let base = bytes.uintBE(at: p, size: baseOffsetSize) else { return nil }
            p += baseOffsetSize
            guard let extentCount = bytes.uint16(at: p, bigEndian: true) else { return nil }
            p += 2
            // Only the first extent is used; the others are stepped over at once,
            // so a table of zero-sized fields cannot make this loop long.
            let extentSize = indexSize + offsetSize + lengthSize
            if id == wanted {
                guard extentCount > 0,
                      let offset = bytes.uintBE(at: p + indexSize, size: offsetSize),
                      let length = bytes.uintBE(at: p + indexSize + offsetSize, size: lengthSize)
                else { return nil }
                let (start, overflow) = base.addingReportingOverflow(offset)
                return overflow ? nil : HEIFItemLocation(constructionMethod: method, offset: start, length: length)
            }
            p += extentSize * Int(extentCount)
            guard p <= bytes.count else { return nil }
        }
        return nil
    }
}
