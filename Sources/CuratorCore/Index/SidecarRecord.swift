// SPDX-License-Identifier: GPL-2.0-or-later

/// The sidecars (`.xmp`, `.aae`, ...) whose ids fall in one range of 64, stored
/// as one value of the index (`IndexStore`'s `sidecars` table) where each photo is
/// a row of its own. A sidecar is no photo: it is never listed alone, and a first
/// scan of a tree of RAW+JPEG pairs files one for a tenth of its photos. A SQLite
/// row each (an insert of twelve bound values, ~9 300 instructions) was half of
/// what grouping added to the index thread's cold start (issue 15); a record of up
/// to 64 is written once per folder a scan adds, and read back in one step.
///
/// Ranges of ids, not folders: rewriting a record after a change reads at most 64
/// rows by id, however many sidecars the folder holds.
///
/// Format 1, little-endian: a format byte, then per sidecar in id order its id,
/// size, mtime, device, inode, capture, rank and group (8 bytes each), folder (4),
/// role (1), type's wire name (a length byte and the bytes), name (2 length bytes
/// and the bytes).
struct SidecarRecord {
    static let format: UInt8 = 1
    /// Ids per record, as bits: record `k` holds the sidecars of ids `64k..<64(k+1)`.
    static let idBits: Int64 = 6

    static func record(of id: Int64) -> Int64 { id >> idBits }
    static func ids(of record: Int64) -> Range<Int64> { record << idBits..<(record + 1) << idBits }

    /// One sidecar read back; its name is `bytes[name]` of the record read.
    struct Row: Equatable {
        var id: Int64
        var folderID: Int32
        var size: Int64
        var mtimeNs: Int64
        var device: UInt64
        var inode: UInt64
        var captureRaw: Int64
        var rank: Int64
        var groupID: Int64
        var role: GroupRole
        var type: PhotoType
        var name: Range<Int>
    }

    /// A record's bytes, one sidecar after another (in id order).
    struct Writer {
        private(set) var bytes: [UInt8] = [SidecarRecord.format]
        private(set) var count = 0

        mutating func add(id: Int64, folderID: Int32, size: Int64, mtimeNs: Int64, device: UInt64, inode: UInt64,
                          captureRaw: Int64, rank: Int64, groupID: Int64, role: GroupRole, type: PhotoType,
                          name: UnsafeBufferPointer<UInt8>) {
            count += 1
            var wire = type.wireName
            wire.withUTF8 { wire in
                // Sized once and written in place: an append per field was most of a record's cost.
                let start = bytes.count
                bytes.append(contentsOf: repeatElement(0, count: 64 + 4 + 1 + 1 + wire.count + 2 + name.count))
                bytes.withUnsafeMutableBytes { all in
                    var at = start
                    func put<T>(_ value: T) {
                        all.storeBytes(of: value, toByteOffset: at, as: T.self)
                        at += MemoryLayout<T>.size
                    }
                    func put(_ source: UnsafeBufferPointer<UInt8>) {
                        if let base = source.baseAddress {
                            UnsafeMutableRawBufferPointer(rebasing: all[at..<at + source.count]).copyMemory(from: UnsafeRawBufferPointer(start: base, count: source.count))
                        }
                        at += source.count
                    }
                    put(id.littleEndian)
                    put(size.littleEndian)
                    put(mtimeNs.littleEndian)
                    put(device.littleEndian)
                    put(inode.littleEndian)
                    put(captureRaw.littleEndian)
                    put(rank.littleEndian)
                    put(groupID.littleEndian)
                    put(folderID.littleEndian)
                    put(role.rawValue)
                    put(UInt8(truncatingIfNeeded: wire.count))
                    put(wire)
                    put(UInt16(truncatingIfNeeded: name.count).littleEndian)
                    put(name)
                }
            }
        }
    }

    /// The sidecars of record `record` from its stored bytes; an error saying what
    /// is wrong (where) for bytes this format did not write.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, record: Int64) throws(SidecarRecordError) -> [Row] {
        var reader = Reader(bytes: bytes)
        guard let format = reader.byte(), format == Self.format else {
            throw SidecarRecordError(record: record, offset: 0, "format \(bytes.first.map(String.init) ?? "none"), not \(Self.format)")
        }
        let range = ids(of: record)
        var rows: [Row] = []
        while !reader.atEnd {
            let start = reader.offset
            guard let id = reader.int64(), let size = reader.int64(), let mtime = reader.int64(), let device = reader.int64(),
                  let inode = reader.int64(), let capture = reader.int64(), let rank = reader.int64(), let group = reader.int64(),
                  let folder = reader.int(bytes: 4), let roleByte = reader.byte(), let typeLength = reader.byte(),
                  let typeBytes = reader.bytes(Int(typeLength)), let nameLength = reader.int(bytes: 2),
                  let name = reader.range(Int(nameLength))
            else { throw SidecarRecordError(record: record, offset: start, "a sidecar cut short") }
            guard range.contains(id), id > (rows.last?.id ?? 0) else {
                throw SidecarRecordError(record: record, offset: start, "id \(id) out of order or outside \(range)")
            }
            guard let type = PhotoType(wireName: typeBytes), type.isSidecar else {
                throw SidecarRecordError(record: record, offset: start, "id \(id): \(String(decoding: typeBytes, as: UTF8.self)) is no sidecar type")
            }
            guard !name.isEmpty else { throw SidecarRecordError(record: record, offset: start, "id \(id): an empty name") }
            // A role out of range is a guess, as for a photo row: the folder's next grouping sets it.
            rows.append(Row(id: id, folderID: Int32(truncatingIfNeeded: folder), size: size, mtimeNs: mtime,
                            device: UInt64(bitPattern: device), inode: UInt64(bitPattern: inode), captureRaw: capture, rank: rank,
                            groupID: group, role: GroupRole(rawValue: roleByte) ?? .undecided, type: type, name: name))
        }
        return rows
    }

    /// Reads fields off the front of a record's bytes; nil past its end.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0

        var atEnd: Bool { offset >= bytes.count }

        mutating func range(_ count: Int) -> Range<Int>? {
            guard count <= bytes.count - offset else { return nil }
            defer { offset += count }
            return offset..<offset + count
        }

        mutating func bytes(_ count: Int) -> UnsafeBufferPointer<UInt8>? {
            range(count).map { UnsafeBufferPointer(rebasing: bytes[$0]) }
        }

        mutating func byte() -> UInt8? { range(1).map { bytes[$0.lowerBound] } }

        mutating func int(bytes count: Int) -> UInt64? {
            guard let range = range(count) else { return nil }
            var value: UInt64 = 0
            for k in range.reversed() { value = value << 8 | UInt64(bytes[k]) }
            return value
        }

        mutating func int64() -> Int64? { int(bytes: 8).map { Int64(bitPattern: $0) } }
    }
}

/// A stored sidecar record this format cannot read: which, where, and what.
struct SidecarRecordError: Error, CustomStringConvertible {
    var record: Int64
    var offset: Int
    var what: String

    init(record: Int64, offset: Int, _ what: String) {
        self.record = record
        self.offset = offset
        self.what = what
    }

    var description: String { "sidecar record \(record), byte \(offset): \(what)" }
}

extension PhotoTable {
    /// The record of the sidecars among rows of ids `SidecarRecord.ids(of: record)`
    /// (none: nil), read off the rows in place.
    func sidecarRecord(_ record: Int64) -> (bytes: [UInt8], count: Int)? {
        var writer = SidecarRecord.Writer()
        for id in SidecarRecord.ids(of: record) {
            guard let row = row(id), row.type.isSidecar else { continue }
            withName(of: row) { name in
                writer.add(id: id, folderID: row.folderID, size: row.size, mtimeNs: row.mtimeNs, device: device(of: row),
                           inode: row.inode, captureRaw: row.captureRaw, rank: row.rank, groupID: groupID(of: row),
                           role: row.role, type: row.type, name: name)
            }
        }
        return writer.count == 0 ? nil : (writer.bytes, writer.count)
    }
}
