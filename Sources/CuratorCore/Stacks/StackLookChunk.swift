// SPDX-License-Identifier: GPL-2.0-or-later

/// The measures of `StackLookChunk.slots` consecutive photo ids, as one row of
/// `stack_looks`: a blob of fixed-size slots, little-endian, an empty slot all zero.
/// A row per photo cost as much in SQLite's per-row overhead (cell, rowid, record
/// header) as in measures; a row per chunk of dense ids (ids are handed out in
/// order) shares it between them. The number of slots is chosen so that rows fill
/// a 4 KiB page with little left over: eleven rows of twenty slots.
struct StackLookChunk: Equatable {
    static let slots = 20
    /// fileCheck (4), dHash (8), sharpness level (2), camera (4).
    static let slotSize = 18

    private(set) var bytes: [UInt8]

    init() { bytes = [UInt8](repeating: 0, count: Self.slots * Self.slotSize) }

    /// A stored blob; nil when it is not of this shape.
    init?(bytes: [UInt8]) {
        guard bytes.count == Self.slots * Self.slotSize else { return nil }
        self.bytes = bytes
    }

    /// Photo ids are positive.
    static func chunk(of id: Int64) -> Int64 { id / Int64(slots) }
    static func slot(of id: Int64) -> Int { Int(id % Int64(slots)) }
    static func firstID(of chunk: Int64) -> Int64 { chunk * Int64(slots) }

    var isEmpty: Bool { bytes.allSatisfy { $0 == 0 } }

    subscript(slot: Int) -> StackLook? {
        get {
            let at = slot * Self.slotSize
            let check = UInt32(truncatingIfNeeded: read(at, 4))
            guard check != 0 else { return nil }
            return StackLook(fileCheck: check, dHash: read(at + 4, 8), sharpnessLevel: UInt16(truncatingIfNeeded: read(at + 12, 2)),
                             camera: UInt32(truncatingIfNeeded: read(at + 14, 4)))
        }
        set {
            let at = slot * Self.slotSize
            guard let look = newValue else {
                for index in at..<(at + Self.slotSize) { bytes[index] = 0 }
                return
            }
            write(UInt64(look.fileCheck), at, 4)
            write(look.dHash, at + 4, 8)
            write(UInt64(look.sharpnessLevel), at + 12, 2)
            write(UInt64(look.camera), at + 14, 4)
        }
    }

    private func read(_ at: Int, _ count: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in (0..<count).reversed() { value = value << 8 | UInt64(bytes[at + index]) }
        return value
    }

    private mutating func write(_ value: UInt64, _ at: Int, _ count: Int) {
        for index in 0..<count { bytes[at + index] = UInt8(truncatingIfNeeded: value >> UInt64(8 * index)) }
    }
}
