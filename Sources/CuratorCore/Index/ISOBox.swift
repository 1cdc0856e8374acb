// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// An ISO base media box: its type, where its children or data begin, and its end.
struct ISOBox {
    var type: [UInt8]
    var payload: Int64
    var end: Int64

    /// The first box of `type` among the boxes in `start..<end`.
    static func find(
        _ type: [UInt8], in source: inout some ExifByteSource, from start: Int64, to end: Int64, uuid: [UInt8]? = nil
    ) throws(SystemError) -> ISOBox? {
        var position = start
        for _ in 0..<ExifLocator.maximumSegments {
            guard let (box, usertype) = try header(in: &source, at: position, end: end) else { return nil }
            if box.type == type && (uuid == nil || usertype == uuid) { return box }
            position = box.end
        }
        return nil
    }

    static func all(in source: inout some ExifByteSource, from start: Int64, to end: Int64) throws(SystemError) -> [ISOBox] {
        var boxes: [ISOBox] = []
        var position = start
        for _ in 0..<ExifLocator.maximumSegments {
            guard let (box, _) = try header(in: &source, at: position, end: end) else { break }
            boxes.append(box)
            position = box.end
        }
        return boxes
    }

    /// The box at `position`, nil at the end or when its size does not fit its parent.
    private static func header(
        in source: inout some ExifByteSource, at position: Int64, end: Int64
    ) throws(SystemError) -> (ISOBox, [UInt8]?)? {
        guard position + 8 <= end else { return nil }
        let bytes = try source.read(at: position, count: 32)
        guard let size32 = bytes.uint32(at: 0, bigEndian: true), bytes.count >= 8 else { return nil }
        let type = Array(bytes[4..<8])
        var headerSize: Int64 = 8
        var size: Int64
        switch size32 {
        case 0:
            size = end - position  // extends to the end of its parent
        case 1:
            guard let large = bytes.uint64BE(at: 8), large <= UInt64(Int64.max) else { return nil }
            size = Int64(large)
            headerSize = 16
        default:
            size = Int64(size32)
        }
        var usertype: [UInt8]?
        if type == asciiBytes("uuid") {
            guard bytes.count >= Int(headerSize) + 16 else { return nil }
            usertype = Array(bytes[Int(headerSize)..<Int(headerSize + 16)])
            headerSize += 16
        }
        guard size >= headerSize, size <= end - position else { return nil }
        return (ISOBox(type: type, payload: position + headerSize, end: position + size), usertype)
    }
}
