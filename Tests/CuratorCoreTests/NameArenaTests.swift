// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Testing

/// The names' byte arena, and the folder entries that find photos by the names in it.
struct NameArenaTests {
    static func append(_ name: String, to arena: inout NameArena) -> NameRef? {
        Array(name.utf8).withUnsafeBufferPointer { arena.append($0) }
    }

    @Test func givesBackEachNameAndCountsTheDeadOnes() throws {
        var arena = NameArena()
        let names = ["IMG_0001.JPG", "", "été 2024.jpg", "a", String(repeating: "x", count: 255)]
        let refs = try names.map { try #require(Self.append($0, to: &arena)) }
        for (name, ref) in zip(names, refs) { #expect(arena.withName(ref) { String(decoding: $0, as: UTF8.self) } == name) }
        #expect(arena.bytes.count == names.reduce(0) { $0 + $1.utf8.count })
        arena.release(refs[0])
        arena.release(refs[4])
        #expect(arena.dead == 12 + 255)
        #expect(arena.live == arena.bytes.count - 267)
        // Moved into a fresh arena, the live names keep their bytes and nothing else stays.
        var fresh = NameArena()
        let moved = try [1, 2, 3].map { try #require(arena.move(refs[$0], to: &fresh)) }
        #expect(fresh.bytes.count == arena.live)
        for (index, ref) in zip([1, 2, 3], moved) {
            #expect(fresh.withName(ref) { String(decoding: $0, as: UTF8.self) } == names[index])
        }
    }

    @Test func refusesANameLongerThanARefCanSay() {
        var arena = NameArena()
        #expect(Self.append(String(repeating: "n", count: 65_536), to: &arena) == nil)
        #expect(Self.append(String(repeating: "n", count: 65_535), to: &arena)?.count == 65_535)
    }

    @Test func wantsCompactionOnlyWhenTheDeadOutweighTheLive() throws {
        var arena = NameArena()
        let refs = try (0..<10_000).map { try #require(Self.append("photo-\($0).jpg", to: &arena)) }
        #expect(!arena.wantsCompaction)
        for ref in refs.prefix(4000) { arena.release(ref) }
        #expect(!arena.wantsCompaction, "fewer dead bytes than live ones")
        for ref in refs.dropFirst(4000).prefix(2000) { arena.release(ref) }
        #expect(arena.wantsCompaction)
        var small = NameArena()
        let ref = try #require(Self.append("tiny.jpg", to: &small))
        small.release(ref)
        #expect(!small.wantsCompaction, "a few dead bytes are not worth a pass")
    }
}

/// Folder entries hold ids only and compare through the photo table's names:
/// against a sorted dictionary, through random adds, renames and removals, with
/// names that are prefixes of each other, not UTF-8, or equal but for length.
struct FolderEntriesTests {
    /// Entries made at once from ids in name order (a folder's plan) are what
    /// filing them one by one makes; ids out of strict order make none.
    @Test func entriesOfIDsInNameOrderAreCheckedNotTrusted() throws {
        var table = PhotoTable()
        let names: [ByteString] = ["B.CR2", "B.JPG", "a.jpg", "a.jpg.xmp", "b"]
        for (k, name) in names.enumerated() {
            let id = Int64(k + 1)
            table[id] = Photo(id: id, rootID: 1, folderID: 1, name: name,
                              identity: FileIdentity(device: 1, inode: UInt64(id), size: 1, mtimeNs: 0),
                              type: .jpeg, capture: .pending, rank: 1)
        }
        let entries = try #require(FolderEntries(sortedIDs: [1, 2, 3, 4, 5], in: table))
        var one = FolderEntries()
        for id in [3, 5, 1, 4, 2] as [Int64] { one.set(names[Int(id) - 1], id, in: table) }
        #expect(entries.values == one.values)
        for name in names { #expect(entries.id(named: name, in: table) == one.id(named: name, in: table)) }
        #expect(FolderEntries(sortedIDs: [1, 3, 2, 4, 5], in: table) == nil, "out of order")
        #expect(FolderEntries(sortedIDs: [1, 2, 2, 3], in: table) == nil, "a name twice")
        #expect(FolderEntries(sortedIDs: [1, 9], in: table) == nil, "an id the table lacks")
    }

    /// Ids past 32 bits (only a corrupt index holds them) from `wideFrom` on:
    /// the folder then keeps 64-bit ids. `hinted`: half the sets, and the lookups,
    /// say their names come in order (a plan's rows), which they mostly do not: the
    /// hint changes no answer.
    @Test(arguments: [Int.max, 2500], [false, true]) func behavesLikeASortedDictionary(wideFrom: Int, hinted: Bool) {
        var table = PhotoTable()
        var entries = FolderEntries()
        var model: [ByteString: Int64] = [:]
        var generator = SplitMix64(seed: 11)
        let names: [ByteString] = ["a", "ab", "abc", "b", "IMG_1.JPG", "IMG_10.JPG", "IMG_2.JPG", "", "é.jpg",
                                   ByteString([0xff, 0x41]), ByteString([0x41, 0x00]), "zz", "Z"]
        var nextID: Int64 = 1
        for step in 0..<5000 {
            let name = names[Int(generator.next() % UInt64(names.count))]
            if generator.next() % 3 == 0 {
                // Out of the entries first, then out of the table (the library's order).
                if let id = entries.id(named: name, in: table) {
                    // `set` tells what it replaced (the library's undo log keeps it).
                    #expect(entries.set(name, nil, in: table, inOrder: hinted && generator.next() % 2 == 0) == id)
                    table[id] = nil
                }
                model[name] = nil
            } else {
                if step == wideFrom { nextID += 1 << 32 }
                let id = nextID
                nextID += 1
                if let old = entries.id(named: name, in: table) {
                    entries.set(name, nil, in: table)
                    table[old] = nil
                }
                table[id] = Photo(id: id, rootID: 1, folderID: 1, name: name,
                                  identity: FileIdentity(device: 1, inode: UInt64(id), size: 1, mtimeNs: 0),
                                  type: .jpeg, capture: .pending, rank: 1)
                #expect(entries.set(name, id, in: table, inOrder: hinted && generator.next() % 2 == 0) == nil,
                        "\(name) was taken out above")
                model[name] = id
            }
            if step % 250 == 0 {
                for candidate in names {
                    #expect(entries.id(named: candidate, in: table) == model[candidate], "\(candidate) at \(step)")
                    #expect(entries.id(named: candidate, in: table, inOrder: hinted) == model[candidate], "\(candidate) at \(step)")
                }
                #expect(entries.pairs(in: table).map(\.name) == model.keys.sorted(), "kept in ByteString order")
            }
        }
        #expect(entries.values.count == model.count)
    }
}
