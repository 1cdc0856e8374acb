// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import Glibc

/// Where the EXIF locators read from: positioned reads, so that a container's
/// offsets can be followed without reading what lies between.
protocol ExifByteSource {
    var size: Int64 { get }
    /// Up to `count` bytes at `offset`: fewer at the end of the file, and none
    /// once the read budget is spent.
    mutating func read(at offset: Int64, count: Int) throws(SystemError) -> [UInt8]
}

/// Bytes already in memory (tests, or a head the caller has read).
struct ExifMemorySource: ExifByteSource {
    let bytes: [UInt8]
    var size: Int64 { Int64(bytes.count) }

    mutating func read(at offset: Int64, count: Int) throws(SystemError) -> [UInt8] {
        guard offset >= 0, offset < size, count > 0 else { return [] }
        let start = Int(offset)
        return Array(bytes[start..<min(bytes.count, start + count)])
    }
}

/// An open file read with pread(2) under a budget of bytes. The first chunk is
/// read at once and served from memory, since nearly every format keeps its
/// EXIF there (a JPEG's APP1 segment, a TIFF's first IFDs).
struct ExifFileSource: ExifByteSource {
    let descriptor: FileDescriptor
    let size: Int64
    private(set) var budget: Int
    private let head: [UInt8]

    init(descriptor: FileDescriptor, size: Int64, budget: Int, headSize: Int) throws(SystemError) {
        self.descriptor = descriptor
        self.size = size
        let wanted = Int(min(Int64(min(headSize, budget)), size))
        self.head = try ExifFileSource.pread(descriptor, at: 0, count: wanted)
        self.budget = budget - head.count
    }

    mutating func read(at offset: Int64, count: Int) throws(SystemError) -> [UInt8] {
        guard offset >= 0, offset < size, count > 0 else { return [] }
        if offset + Int64(count) <= Int64(head.count) || Int64(head.count) == size {
            let start = Int(offset)
            return Array(head[start..<min(head.count, start + count)])
        }
        let allowed = min(count, budget)
        guard allowed > 0 else { return [] }
        let bytes = try ExifFileSource.pread(descriptor, at: offset, count: allowed)
        budget -= bytes.count
        return bytes
    }

    private static func pread(_ descriptor: FileDescriptor, at offset: Int64, count: Int) throws(SystemError) -> [UInt8] {
        guard count > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: count)
        let filled = try buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SystemError) in try descriptor.read(at: offset, into: raw) }
        }.get()
        buffer.removeSubrange(filled...)
        return buffer
    }
}

// MARK: integers in byte arrays

extension Array where Element == UInt8 {
    func uint16(at index: Int, bigEndian: Bool) -> UInt16? {
        guard index >= 0, index + 2 <= count else { return nil }
        let a = UInt16(self[index]), b = UInt16(self[index + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func uint32(at index: Int, bigEndian: Bool) -> UInt32? {
        guard let high = uint16(at: bigEndian ? index : index + 2, bigEndian: bigEndian),
              let low = uint16(at: bigEndian ? index + 2 : index, bigEndian: bigEndian)
        else { return nil }
        return UInt32(high) << 16 | UInt32(low)
    }

    func uint64BE(at index: Int) -> UInt64? {
        guard let high = uint32(at: index, bigEndian: true), let low = uint32(at: index + 4, bigEndian: true) else { return nil }
        return UInt64(high) << 32 | UInt64(low)
    }

    /// A big-endian unsigned integer of 0, 4 or 8 bytes, as ISOBMFF's `iloc` sizes them.
    func uintBE(at index: Int, size: Int) -> UInt64? {
        switch size {
        case 0: 0
        case 4: uint32(at: index, bigEndian: true).map(UInt64.init)
        case 8: uint64BE(at: index)
        default: nil
        }
    }

    func hasPrefix(_ prefix: [UInt8], at index: Int = 0) -> Bool {
        index >= 0 && index + prefix.count <= count && self[index..<(index + prefix.count)].elementsEqual(prefix)
    }
}

/// The bytes of an ASCII literal: four-character codes and magic numbers.
func asciiBytes(_ code: StaticString) -> [UInt8] {
    code.withUTF8Buffer { Array($0) }
}
