// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Testing

/// The dense photo table against a plain dictionary, through random changes.
struct PhotoTableTests {
    static func photo(_ id: Int64, size: Int64 = 1) -> Photo {
        Photo(id: id, rootID: 1, folderID: 1, name: ByteString("p\(id).jpg"),
              identity: FileIdentity(device: 1, inode: UInt64(bitPattern: id), size: size, mtimeNs: 0), type: .jpeg, capture: .pending, rank: 1)
    }

    @Test func behavesLikeADictionary() {
        var table = PhotoTable()
        var model: [Int64: Photo] = [:]
        var generator = SplitMix64(seed: 42)
        let ids: [Int64] = Array(1...500) + [Int64(PhotoTable.flatLimitForTests) + 7, 0, -3]
        for step in 0..<20_000 {
            let id = ids[Int(generator.next() % UInt64(ids.count))]
            if generator.next() % 3 == 0 {
                table[id] = nil
                model[id] = nil
            } else {
                let p = Self.photo(id, size: Int64(step))
                table[id] = p
                model[id] = p
            }
            if step % 997 == 0 {
                #expect(table.count == model.count)
                for candidate in ids { #expect(table[candidate] == model[candidate]) }
            }
        }
        #expect(Set(table.values.map(\.id)) == Set(model.keys))
    }

    /// A million photos live in this table: 56-byte rows (groups' ids as a 24-bit
    /// distance beside the capture time, root and device one 8-bit index, type and
    /// role one byte), names in the arena at their own
    /// length. The rows' spare capacity (at most as many again) is never touched,
    /// so not resident: see `PhotoTable.grownCapacity`.
    @Test func staysCompact() {
        #expect(MemoryLayout<PhotoRow>.stride == 56)
        var table = PhotoTable()
        for id in 1...100_000 { table[Int64(id)] = Self.photo(Int64(id)) }
        #expect(table.count == 100_000)
        #expect(table.rows.capacity <= 2 * 100_000 + 1024)
        // "p1.jpg" ... "p100000.jpg": 1 088 895 bytes, nothing else.
        let nameBytes = (1...100_000).reduce(0) { $0 + "p\($1).jpg".utf8.count }
        #expect(table.names.bytes.count == nameBytes)
        let rank = Photo(id: 1, rootID: 1, folderID: 1, name: ByteString("x"), identity: FileIdentity(device: 1, inode: 1, size: 1, mtimeNs: 0),
                         type: .jpeg, capture: .pending, rank: Int64(Int32.max) + 5).rank
        #expect(rank == Int64(Int32.max), "a rank past 32 bits saturates")
    }

    /// The slot of each id is 4 bytes, with an eighth to spare: each slot is
    /// written when the array grows, so the spare slots are resident too.
    @Test func theSlotsByIDGrowByAnEighth() {
        var slots = SlotIndex()
        for id in Int64(1)...100_000 { slots[id] = Int32(id) }
        #expect(slots.flatCount <= 100_000 + 100_000 / 8 + 1024)
        #expect(slots[100_000] == 100_000 && slots[100_001] == nil)
    }

    /// A cold scan adds every photo one by one: the rows are copied to a larger
    /// array O(log n) times, so each row is copied about once in all (grown by an
    /// eighth, 100 000 rows took 37 copies of the table, a million 57).
    @Test func growsGeometricallyAsAScanAddsPhotos() {
        var table = PhotoTable()
        var regrowths = 0
        var capacity = table.rows.capacity
        var copied = 0
        for id in 1...100_000 {
            table[Int64(id)] = Self.photo(Int64(id))
            if table.rows.capacity != capacity {
                regrowths += 1
                copied += id - 1
                capacity = table.rows.capacity
            }
        }
        #expect(regrowths <= 10, "the table was copied \(regrowths) times")
        #expect(copied <= 2 * 100_000, "\(copied) rows copied to add 100 000")
        // A table sized for what the index holds (a warm start) grows the same way after.
        var sized = PhotoTable()
        sized.reserve(50_000)
        let reserved = sized.rows.capacity
        for id in 1...(reserved + 1) { sized[Int64(id)] = Self.photo(Int64(id)) }
        #expect(sized.rows.capacity >= 2 * reserved)
    }

    /// Renames and removals leave dead bytes in the arena; once they outweigh the
    /// live names the table compacts, and every photo still reads its own name.
    @Test func compactsTheNamesItGaveUp() {
        var table = PhotoTable()
        for id in 1...20_000 { table[Int64(id)] = Self.photo(Int64(id)) }
        let full = table.names.bytes.count
        // Rename every photo twice: without compaction the arena would triple.
        for round in 1...2 {
            for id in 1...20_000 {
                var photo = Self.photo(Int64(id))
                photo.name = ByteString("r\(round)-\(id).jpeg")
                table[Int64(id)] = photo
            }
        }
        for id in 1...20_000 where id % 2 == 0 { table[Int64(id)] = nil }
        #expect(table.names.bytes.count <= 2 * table.names.live + (64 << 10))
        #expect(table.names.bytes.count < 2 * full)
        for id in 1...20_000 {
            #expect(table[Int64(id)]?.name == (id % 2 == 0 ? nil : ByteString("r2-\(id).jpeg")))
        }
    }

    /// The same name rewritten (a capture time, a rank, a new mtime) keeps its
    /// place in the arena: a warm restart or the capture reader adds no bytes.
    @Test func keepsANameThatDidNotChange() {
        var table = PhotoTable()
        for id in 1...1000 { table[Int64(id)] = Self.photo(Int64(id)) }
        let bytes = table.names.bytes.count
        for id in 1...1000 {
            var photo = Self.photo(Int64(id), size: 99)
            photo.capture = .known(Int64(id))
            table[Int64(id)] = photo
        }
        #expect(table.names.bytes.count == bytes)
        #expect(table.names.dead == 0)
        #expect(table[500]?.capture == .known(500))
        #expect(table[500]?.size == 99)
    }

    /// Devices are kept as an index into the table's places; past 255 of them
    /// a photo's device is kept by id. Each photo reads back its own either way.
    @Test func keepsEachPhotosDevice() {
        var table = PhotoTable()
        func device(_ id: Int) -> UInt64 { UInt64(id) * 3 + (1 << 40) }
        for id in 1...70_000 {
            var photo = Self.photo(Int64(id))
            photo.identity.device = device(id)
            table[Int64(id)] = photo
        }
        for id in stride(from: 1, through: 70_000, by: 3) { table[Int64(id)] = nil }
        for id in stride(from: 1, through: 70_000, by: 6) {
            var photo = Self.photo(Int64(id))
            photo.identity.device = 7
            table[Int64(id)] = photo
        }
        for id in 1...70_000 {
            let expected: UInt64? = id % 3 != 1 ? device(id) : id % 6 == 1 ? 7 : nil
            #expect(table[Int64(id)]?.identity.device == expected, "photo \(id)")
        }
    }

    /// Root and device are one index into the table's places; past 255 places a
    /// photo's are kept by id, and a row read in place gives the same as the photo.
    @Test func keepsEachPhotosRootWithItsDevice() {
        var table = PhotoTable()
        func root(_ id: Int) -> Int32 { Int32(id % 40_000) - 20_000 }
        func device(_ id: Int) -> UInt64 { UInt64(id % 3) + (1 << 40) }
        for id in 1...90_000 {
            var photo = Self.photo(Int64(id))
            photo.rootID = root(id)
            photo.identity.device = device(id)
            table[Int64(id)] = photo
        }
        for id in stride(from: 2, through: 90_000, by: 5) { table[Int64(id)] = nil }
        for id in stride(from: 3, through: 90_000, by: 5) {
            var photo = Self.photo(Int64(id))
            photo.rootID = 9
            table[Int64(id)] = photo
        }
        for id in 1...90_000 {
            let photo = table[Int64(id)]
            switch id % 5 {
            case 2: #expect(photo == nil)
            case 3: #expect(photo?.rootID == 9 && photo?.identity.device == 1, "photo \(id)")
            default: #expect(photo?.rootID == root(id) && photo?.identity.device == device(id), "photo \(id)")
            }
            if let row = table.row(Int64(id)), let photo {
                #expect(table.rootID(of: row) == photo.rootID && table.device(of: row) == photo.identity.device)
            }
        }
    }

    /// A group id is kept as its distance from the photo's id; one farther than 24
    /// bits (or at the distance that marks it so) is kept by id, and goes with the photo.
    @Test func keepsEachPhotosGroupNearOrFar() {
        var table = PhotoTable()
        let groups: [Int64: Int64] = [
            1: 1, 2: 1, 3: 5, 4: 4 + Int64(Int32.max), 5: 5 - Int64(Int32.max), 6: 6 + Int64(Int32.min),
            7: 7 + Int64(Int32.max) + 1, 8: Int64.min, 9: Int64.max, 10: -3, 11: 11 + Int64(Int32.min) + 1,
            // Each side of what 24 bits hold; -2^23 is the mark of a far group.
            12: 12 + (1 << 23) - 1, 13: 13 + (1 << 23), 14: 14 - (1 << 23), 15: 15 - (1 << 23) + 1, 16: 16 - (1 << 23) - 1]
        for (id, group) in groups {
            var photo = Self.photo(id)
            photo.groupID = group
            table[id] = photo
        }
        for (id, group) in groups {
            #expect(table[id]?.groupID == group, "photo \(id)")
            if let row = table.row(id) { #expect(table.groupID(of: row) == group) }
        }
        // A far group's photo replaced by a near one, then removed: nothing stale is read.
        var near = Self.photo(8)
        near.groupID = 2
        table[8] = near
        #expect(table[8]?.groupID == 2)
        table[9] = nil
        var again = Self.photo(9)
        again.groupID = 9
        table[9] = again
        #expect(table[9]?.groupID == 9)
    }

    /// A regrouping sets a row's group and role in place: near, far (kept by id)
    /// and near again, every other field as it was.
    @Test func setsAGroupInPlaceNearOrFar() {
        var table = PhotoTable()
        for id in Int64(1)...4 { table[id] = Self.photo(id) }
        let before = table[3]
        let edge: Int64 = 1 << 23  // a 24-bit distance's: past it, far
        let steps: [(Int64, GroupRole)] = [(1, .member), (3 + Int64(Int32.max) + 1, .sidecar), (3 + Int64(Int32.min), .orphan),
                                           (Int64.max, .member), (2, .shown), (3 + edge, .sidecar), (3 - edge, .member),
                                           (3 + edge - 1, .orphan), (3, .undecided)]
        for (group, role) in steps {
            table.setGroup(3, group: group, role: role)
            #expect(table[3]?.groupID == group && table[3]?.role == role, "group \(group)")
            if let row = table.row(3) { #expect(table.groupID(of: row) == group && row.role == role) }
            var expected = before
            expected?.groupID = group
            expected?.role = role
            #expect(table[3] == expected)
            #expect(table[2]?.groupID == 2 && table[4]?.groupID == 4, "other rows untouched")
        }
        table.setGroup(9, group: 1, role: .member)  // no such row: nothing
        #expect(table.count == 4)
    }

    /// The capture time shares a word with the group's distance, type and role
    /// share a byte: every type with every role, every capture state (the earliest
    /// and latest times of EXIF's four-digit years among them) next to groups near
    /// on either side, reads back as written; a time beyond 40 bits (a corrupt
    /// index) reads back as the nearest that fits, still a known time.
    @Test func packedFieldsReadBackAsWritten() {
        var table = PhotoTable()
        let year1: Int64 = -62_135_596_800, year9999: Int64 = 253_402_300_799
        let captures: [CaptureState] = [.pending, .none, .known(0), .known(-1), .known(1), .known(year1), .known(year9999)]
        let roles: [GroupRole] = [.shown, .member, .sidecar, .orphan, .undecided]
        var expected: [Int64: Photo] = [:]
        var id: Int64 = 100
        for type in PhotoType.allCases {
            for role in roles {
                for capture in captures {
                    for offset: Int64 in [0, -1, 1, -99] {
                        id += 1
                        var photo = Self.photo(id)
                        photo.type = type
                        photo.role = role
                        photo.capture = capture
                        photo.groupID = id + offset
                        table[id] = photo
                        expected[id] = photo
                    }
                }
            }
        }
        for (id, photo) in expected {
            #expect(table[id] == photo, "photo \(id)")
            if let row = table.row(id) {
                #expect(row.type == photo.type && row.role == photo.role && row.capture == photo.capture)
            }
        }
        for (raw, kept) in [(Int64.max, (Int64(1) << 39) - 1), (Int64.min + 2, -(Int64(1) << 39) + 2)] {
            var photo = Self.photo(1)
            photo.capture = .known(raw)
            photo.groupID = -5
            table[1] = photo
            #expect(table[1]?.capture == .known(kept) && table[1]?.groupID == -5)
        }
    }

    /// A file's marks read at its size and mtime stay read while a rewrite of its
    /// row keeps them (a regrouping, a capture time), and are to read again once
    /// the file changed; a read of another version of the file is not noted.
    @Test func marksReadFollowTheFilesSizeAndMtime() {
        var table = PhotoTable()
        table[7] = Self.photo(7, size: 100)
        #expect(table.row(7)?.marksRead == false)
        table.setMarksRead(7, size: 99, mtimeNs: 0)
        #expect(table.row(7)?.marksRead == false, "a read of a file of another size")
        table.setMarksRead(7, size: 100, mtimeNs: 0)
        #expect(table.row(7)?.marksRead == true)
        #expect(table.row(7)?.size == 100)

        var same = Self.photo(7, size: 100)
        same.capture = .none
        table[7] = same
        #expect(table.row(7)?.marksRead == true, "the same file, its capture time known")
        table[7] = Self.photo(7, size: 101)
        #expect(table.row(7)?.marksRead == false, "the file grew: read again")
        #expect(table.row(7)?.size == 101)
    }
}

extension PhotoTable {
    static var flatLimitForTests: Int64 { SlotIndex.flatLimit }
}
