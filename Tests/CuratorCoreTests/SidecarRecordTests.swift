// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorStore
import CuratorSystem
import Testing

/// Sidecars are stored 64 ids to a record (`SidecarRecord`): every field comes back
/// as written, a record this format did not write is refused with where and why,
/// and the library keeps records in step with its sidecars through every change,
/// a restart and an index of version 2 that kept them as photo rows.
@Suite struct SidecarRecordTests {
    static func sidecar(_ id: Int64, _ name: [UInt8], type: PhotoType = .xmp, folder: Int32 = 3, group: Int64? = nil,
                        role: GroupRole = .sidecar, capture: CaptureState = .none) -> Photo {
        Photo(id: id, rootID: 1, folderID: folder, name: ByteString(name),
              identity: FileIdentity(device: UInt64.max - 1, inode: 1 << 40 + UInt64(id), size: 1234 + id, mtimeNs: -5 + id),
              type: type, capture: capture, rank: Int64(Int32.max), groupID: group, role: role)
    }

    /// The record of `sidecars` (in id order, all of one record's range), written by
    /// the `Writer` the library uses (`PhotoTable.sidecarRecord`, from its rows in place).
    static func encode(_ sidecars: [Photo]) -> [UInt8] {
        var writer = SidecarRecord.Writer()
        for photo in sidecars {
            photo.name.bytes.withUnsafeBufferPointer { name in
                writer.add(id: photo.id, folderID: photo.folderID, size: photo.size, mtimeNs: photo.identity.mtimeNs,
                           device: photo.identity.device, inode: photo.identity.inode, captureRaw: photo.capture.raw,
                           rank: photo.rank, groupID: photo.groupID, role: photo.role, type: photo.type, name: name)
            }
        }
        return writer.bytes
    }

    static func decode(_ bytes: [UInt8], record: Int64) throws(SidecarRecordError) -> [SidecarRecord.Row] {
        try bytes.withUnsafeBufferPointer { b throws(SidecarRecordError) in try SidecarRecord.decode(b, record: record) }
    }

    @Test func everyFieldComesBackAsWritten() throws {
        let long = [UInt8](repeating: UInt8(ascii: "a"), count: 251) + Array(".xmp".utf8)
        let sidecars = [
            Self.sidecar(128, Array("IMG_0001.CR2.xmp".utf8), group: 130),
            Self.sidecar(129, [0xFF, 0xFE, 0x2E, 0x61, 0x61, 0x65], type: .aae, folder: Int32.max, role: .orphan,
                         capture: .pending),
            Self.sidecar(191, long, type: .thm, group: 1 << 52, role: .undecided, capture: .known(-62_000_000_000)),
        ]
        let bytes = Self.encode(sidecars)
        let rows = try Self.decode(bytes, record: 2)
        #expect(rows.count == 3)
        for (row, photo) in zip(rows, sidecars) {
            #expect(row.id == photo.id && row.folderID == photo.folderID && row.size == photo.size)
            #expect(row.mtimeNs == photo.identity.mtimeNs && row.device == photo.identity.device && row.inode == photo.identity.inode)
            #expect(row.captureRaw == photo.capture.raw && row.rank == photo.rank && row.groupID == photo.groupID)
            #expect(row.role == photo.role && row.type == photo.type)
            #expect(Array(bytes[row.name]) == photo.name.bytes)
        }
        #expect(try Self.decode([SidecarRecord.format], record: 9).isEmpty)
    }

    @Test func aRecordThisFormatDidNotWriteIsRefusedSayingWhere() throws {
        let first = Self.sidecar(64, Array("a.xmp".utf8))
        let good = Self.encode([first, Self.sidecar(70, Array("b.pp3".utf8), type: .pp3)])
        // Cut anywhere inside a sidecar: refused, never read past the end.
        let firstEnd = Self.encode([first]).count
        #expect(try Self.decode(Array(good[..<firstEnd]), record: 1).map(\.id) == [64])
        for end in 2..<good.count where end != firstEnd {
            #expect(throws: SidecarRecordError.self, "cut at \(end)") { try Self.decode(Array(good[..<end]), record: 1) }
        }
        #expect(throws: SidecarRecordError.self) { try Self.decode([], record: 1) }
        var otherFormat = good
        otherFormat[0] = 2
        #expect(throws: SidecarRecordError.self) { try Self.decode(otherFormat, record: 1) }
        // Ids outside the record's range or out of order.
        #expect(throws: SidecarRecordError.self) { try Self.decode(good, record: 0) }
        let outOfOrder = Self.encode([Self.sidecar(70, Array("b.xmp".utf8)), Self.sidecar(64, Array("a.xmp".utf8))])
        #expect(throws: SidecarRecordError.self) { try Self.decode(outOfOrder, record: 1) }
        // A type that is no sidecar, a name of nothing.
        do {
            _ = try Self.decode(Self.encode([Self.sidecar(64, Array("a.jpg".utf8), type: .jpeg)]), record: 1)
            Issue.record("a JPEG was read as a sidecar")
        } catch {
            #expect(error.description.contains("sidecar record 1, byte 1") && error.description.contains("jpeg"), "\(error)")
        }
        #expect(throws: SidecarRecordError.self) { try Self.decode(Self.encode([Self.sidecar(64, [])]), record: 1) }
    }

    /// The library writes a sidecar's record, not a row, and keeps it right through
    /// adds, moves, removals and a restart; the ids stay.
    @Test func sidecarsLiveInRecordsThroughChangesAndRestarts() throws {
        let index = try GroupIndexTests.Index()
        let other = try index.library.ensureFolder(root: index.root, path: "other")
        try index.library.batch {
            for name in ["IMG_0001.CR2", "IMG_0001.JPG", "IMG_0001.xmp", "IMG_0001.CR2.xmp", "IMG_0002.xmp"] as [ByteString] {
                try index.add(name)
            }
        }
        let shape = index.shape()
        let ids = try ["IMG_0001.xmp", "IMG_0001.CR2.xmp", "IMG_0002.xmp"].map { try #require(index.id($0)) }
        let stored = try index.store.database.prepare("SELECT COUNT(*) FROM photos").firstRow { $0.int64(0) }
        #expect(stored == 2, "the two photos are rows; their sidecars are not")
        #expect(try index.store.sidecarCount() == 3)
        #expect(try index.store.maxPhotoID() == ids.max())

        try index.reopen()
        #expect(index.shape() == shape)
        #expect(try ["IMG_0001.xmp", "IMG_0001.CR2.xmp", "IMG_0002.xmp"].map { try #require(index.id($0)) } == ids)
        #expect(index.library.storeWrites == 0, "an unchanged restart writes nothing")

        // Moved to another folder, changed, removed: each seen after a restart.
        _ = try index.library.move(ids[2], toFolder: other, name: "moved.xmp")
        _ = try index.library.upsert(root: index.root, folder: index.folder, name: "IMG_0001.xmp",
                                     identity: FileIdentity(device: 1, inode: 555, size: 99, mtimeNs: 7), type: .xmp)
        _ = try index.library.remove(ids[1])
        try index.reopen()
        #expect(index.id("IMG_0001.CR2.xmp") == nil)
        #expect(index.id("IMG_0002.xmp") == nil)
        #expect(index.id("moved.xmp", in: other) == ids[2])
        let rewritten = try #require(index.row("IMG_0001.xmp"))
        #expect(rewritten.id == ids[0] && rewritten.size == 99 && rewritten.identity.inode == 555 && rewritten.role == .sidecar)
        #expect(try index.store.sidecarCount() == 2)
    }

    /// A new photo after a restart takes an id past every stored sidecar's, where
    /// nothing else records how far ids went.
    @Test func idsGoOnPastTheLastSidecar() throws {
        let index = try GroupIndexTests.Index()
        try index.add("a.jpg")
        let sidecar = try index.add("b.xmp")
        try index.store.database.execute("DELETE FROM meta WHERE key = 'reserved_photo_id'")
        try index.reopen()
        #expect(try index.add("c.jpg") > sidecar)
    }

    /// An index of version 2 kept sidecars as photo rows: they move into records, ids
    /// and groups kept, and the next start finds nothing to move.
    @Test func sidecarRowsOfAVersionTwoIndexMoveIntoRecords() throws {
        let index = try GroupIndexTests.Index()
        try index.library.batch {
            for name in ["IMG_0001.JPG", "IMG_0001.xmp", "IMG_0002.JPG", "IMG_0002.JPG.xmp"] as [ByteString] { try index.add(name) }
        }
        let shape = index.shape()
        let ids = try ["IMG_0001.xmp", "IMG_0002.JPG.xmp"].map { try #require(index.id($0)) }
        // As a version 2 daemon left the file: the sidecars are rows, there are no records.
        for id in ids {
            let photo = try #require(index.library.photo(id))
            try index.store.upsertPhoto(photo)
        }
        try index.store.database.execute("DROP TABLE sidecars")
        try index.store.database.setUserVersion(2)

        try index.reopen()
        #expect(try index.store.database.userVersion() == IndexStore.schemaVersion)
        #expect(index.shape() == shape)
        #expect(try ids.map { try #require(index.id($0 == ids[0] ? "IMG_0001.xmp" : "IMG_0002.JPG.xmp")) } == ids)
        let rows = try index.store.database.prepare("SELECT COUNT(*) FROM photos WHERE type = 'xmp'").firstRow { $0.int64(0) }
        #expect(rows == 0)
        #expect(try index.store.sidecarCount() == 2)
        try index.reopen()
        #expect(index.library.storeWrites == 0)
        #expect(index.shape() == shape)
    }

    /// A record that cannot be read is dropped and said; the photos and the other
    /// records load.
    @Test func anUnreadableRecordIsDroppedAndSaid() throws {
        let index = try GroupIndexTests.Index()
        try index.add("a.jpg")
        let kept = try index.add("a.xmp")
        try index.store.database.execute("INSERT INTO sidecars VALUES(\(SidecarRecord.record(of: kept) + 5), 1, x'01ff')")
        try index.reopen()
        #expect(index.id("a.jpg") != nil && index.id("a.xmp") == kept)
        #expect(index.store.droppedRows.count == 1, "\(index.store.droppedRows)")
        #expect(index.store.droppedRows.first?.contains("cut short") == true)
        #expect(try index.store.sidecarCount() == 1)
    }
}
