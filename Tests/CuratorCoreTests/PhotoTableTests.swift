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

    /// 100 000 photos live in this table: 80 bytes each (72 before groups gave each
    /// its group id), and room for at most an eighth more (doubling would leave up
    /// to half the array empty).
    @Test func staysCompact() {
        #expect(MemoryLayout<Photo>.stride == 80)
        var table = PhotoTable()
        for id in 1...100_000 { table[Int64(id)] = Self.photo(Int64(id)) }
        #expect(table.count == 100_000)
        #expect(table.values.capacity <= 100_000 + 100_000 / 8 + 1024)
        let rank = Photo(id: 1, rootID: 1, folderID: 1, name: ByteString("x"), identity: FileIdentity(device: 1, inode: 1, size: 1, mtimeNs: 0),
                         type: .jpeg, capture: .pending, rank: Int64(Int32.max) + 5).rank
        #expect(rank == Int64(Int32.max), "a rank past 32 bits saturates")
    }
}

extension PhotoTable {
    static var flatLimitForTests: Int64 { SlotIndex.flatLimit }
}
