// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Testing

/// The groups' rings of rows (`GroupLinks`) against the dictionary of arrays they
/// replace, through random changes.
struct GroupLinksTests {
    /// Every query of the links agrees with the model: each group's rows (its own
    /// row first when it has it), the ring through each row, which rows are linked.
    static func expectAgree(_ links: GroupLinks, _ model: [Int64: [Int64]], ids: [Int64], _ note: String) {
        #expect(links.count == model.count, "\(note)")
        var groupOf: [Int64: Int64] = [:]
        for (group, rows) in model { for row in rows { groupOf[row] = group } }
        for id in ids {
            let expected = model[id]
            let got = links[id]
            #expect(got.map(Set.init) == expected.map(Set.init), "\(note): group \(id)")
            #expect(got?.count == expected?.count, "\(note): group \(id) has a row twice")
            if let got, expected?.contains(id) == true { #expect(got.first == id, "\(note): group \(id) starts at its own row") }
            #expect(links.keeps(id) == (expected != nil), "\(note): keeps \(id)")
            #expect(links.isLinked(id) == (groupOf[id] != nil), "\(note): row \(id) linked")
            var ring: [Int64] = []
            links.forEachRow(inRingOf: id) { ring.append($0) }
            let mates = groupOf[id].flatMap { model[$0] } ?? []
            #expect(Set(ring) == Set(mates) && ring.count == mates.count, "\(note): the ring through \(id)")
            #expect(ring.first == (mates.isEmpty ? nil : id), "\(note): the ring through \(id) starts at it")
            #expect(links.rowCount(inRingOf: id) == max(mates.count, 1), "\(note): rows with \(id)")
        }
    }

    @Test func behavesLikeADictionaryOfArrays() {
        var links = GroupLinks()
        var model: [Int64: [Int64]] = [:]
        var generator = SplitMix64(seed: 14)
        // Dense ids, one far past the first growth, and ids only a corrupt index
        // holds (past the flat range, zero, negative): kept aside, linked alike.
        let ids: [Int64] = Array(1...60) + [3000, SlotIndex.flatLimit + 5, SlotIndex.flatLimit + 9, 0, -4]
        func pick() -> Int64 { ids[Int(generator.next() % UInt64(ids.count))] }
        for step in 0..<20_000 {
            let group = pick()
            var rows: [Int64]?
            if generator.next() % 4 != 0 {
                // Some of its rows kept, some rows in no group added (a row is in one group at most).
                let taken = Set(model.filter { $0.key != group }.values.joined())
                var chosen = (model[group] ?? []).filter { _ in generator.next() % 3 != 0 }
                for _ in 0..<Int(generator.next() % 4) {
                    let id = pick()
                    if !taken.contains(id) && !chosen.contains(id) { chosen.append(id) }
                }
                rows = chosen
            }
            // What `PhotoLibrary` keeps: none for no rows or the group's own row alone.
            let kept = rows.flatMap { $0.isEmpty || $0 == [group] ? nil : $0 }
            links[group] = kept
            model[group] = kept
            if step % 97 == 0 { Self.expectAgree(links, model, ids: ids, "step \(step)") }
        }
        Self.expectAgree(links, model, ids: ids, "end")
    }

    /// A row appended to a group kept under another id (`append`: a scan's RAW or
    /// sidecar, a row of a group on load) is the group's rows set with it last;
    /// taken out again (`removeAppended`, a rollback) it leaves them as they were.
    /// Among groups set whole, rings under their own id and under another.
    @Test func appendingARowIsSettingTheRowsWithIt() {
        var links = GroupLinks()
        var model: [Int64: [Int64]] = [:]
        var generator = SplitMix64(seed: 15)
        let ids: [Int64] = Array(1...60) + [3000]
        func pick() -> Int64 { ids[Int(generator.next() % UInt64(ids.count))] }
        var appended = 0
        for step in 0..<20_000 {
            let group = pick()
            let taken = Set(model.values.joined())
            if generator.next() % 3 == 0 {
                // Set whole, as a regrouping does: its own row or not, one row or several.
                var chosen: [Int64] = []
                for _ in 0..<Int(1 + generator.next() % 3) {
                    let id = pick()
                    if (!taken.contains(id) || model[group]?.contains(id) == true) && !chosen.contains(id) { chosen.append(id) }
                }
                let kept = chosen.isEmpty || chosen == [group] ? nil : chosen
                links[group] = kept
                model[group] = kept
            } else if model[group] != nil {
                let row = pick()
                guard row != group, !taken.contains(row) else { continue }
                let before = links[group]
                links.append(row, to: group)
                model[group]?.append(row)
                appended += 1
                if step % 5 == 0 {
                    Self.expectAgree(links, model, ids: ids, "step \(step), appended")
                    links.removeAppended(row)
                    model[group]?.removeLast()
                    #expect(links[group] == before, "step \(step): as before, in the same order")
                }
            }
            if step % 97 == 0 { Self.expectAgree(links, model, ids: ids, "step \(step)") }
        }
        Self.expectAgree(links, model, ids: ids, "end")
        #expect(appended > 1000)
    }

    /// Pairing a group alone under its own id with a row (`pair`: the second row of
    /// each group a scan adds) is setting its rows to the two; taken back (a
    /// rollback sets the group to none) it leaves every other ring as it was.
    @Test func pairingIsSettingTheTwoRows() {
        var links = GroupLinks()
        var model: [Int64: [Int64]] = [:]
        var generator = SplitMix64(seed: 16)
        let ids: [Int64] = Array(1...60) + [3000]
        func pick() -> Int64 { ids[Int(generator.next() % UInt64(ids.count))] }
        var paired = 0
        for step in 0..<20_000 {
            let group = pick()
            let row = pick()
            let taken = Set(model.values.joined())
            if generator.next() % 3 == 0 {
                let kept: [Int64]? = taken.contains(row) || row == group ? nil : [row]
                links[group] = kept
                model[group] = kept
            } else if model[group] == nil, !taken.contains(group), !taken.contains(row), row != group {
                links.pair(group, with: row)
                model[group] = [group, row]
                paired += 1
                #expect(links[group] == [group, row], "step \(step)")
                if step % 4 == 0 {
                    links[group] = nil
                    model[group] = nil
                }
            }
            if step % 97 == 0 { Self.expectAgree(links, model, ids: ids, "step \(step)") }
        }
        Self.expectAgree(links, model, ids: ids, "end")
        #expect(paired > 1000)
    }

    /// A photo moved into another group while its former group keeps its id:
    /// each group is found from its own id, whichever ring holds that id's row.
    @Test func aGroupWhoseIDsRowIsInAnotherGroup() {
        var links = GroupLinks()
        links[5] = [7, 8]
        links[7] = [5, 9]
        links[11] = [11, 12, 13]
        links[20] = [21]
        Self.expectAgree(links, [5: [7, 8], 7: [5, 9], 11: [11, 12, 13], 20: [21]], ids: Array(1...25), "set")
        links[7] = nil
        links[11] = [12, 11]
        Self.expectAgree(links, [5: [7, 8], 11: [11, 12], 20: [21]], ids: Array(1...25), "changed")
    }

    /// A million ids cost 4 bytes each (and at most an eighth more): no heap
    /// object per group.
    @Test func staysCompact() {
        var links = GroupLinks()
        for first in stride(from: Int64(1), to: 1_000_000, by: 3) { links[first] = [first, first + 1, first + 2] }
        #expect(links.count == 333_333)
        #expect(links.flatBytes <= 1_000_000 * 4 * 9 / 8 + 8192)
        #expect(links[999_997] == [999_997, 999_998, 999_999])
    }
}

/// The links an index keeps, through a random life of two folders (names
/// coming, going, renamed within and across folders, transactions rolled back,
/// the index reopened): each group's rows are exactly the rows bearing its id.
struct GroupLinksInIndexTests {
    /// The rows bearing each group id, from the table, against what the library
    /// keeps and tells.
    static func expectLinksMatchTheTable(_ library: PhotoLibrary, _ note: String) {
        var bearing: [Int64: Set<Int64>] = [:]
        for photo in library.photos.values { bearing[photo.groupID, default: []].insert(photo.id) }
        let kept = bearing.filter { $0.value != [$0.key] }
        #expect(library.groupLinks.count == kept.count, "\(note): groups kept")
        for (group, rows) in bearing {
            #expect(Set(library.rows(ofGroup: group)) == rows, "\(note): group \(group)")
            #expect(library.rows(ofGroup: group).count == rows.count, "\(note): group \(group) has a row twice")
            #expect(library.groupLinks.keeps(group) == (kept[group] != nil), "\(note): group \(group) kept")
            for row in rows {
                #expect(library.groupLinks.rowCount(inRingOf: row) == (kept[group] == nil ? 1 : rows.count), "\(note): row \(row)")
            }
        }
    }

    @Test func theLinksFollowTheTableThroughRandomChanges() throws {
        let index = try GroupIndexTests.Index()
        let other = try index.library.ensureFolder(root: index.root, path: "b")
        let pool: [ByteString] = ["IMG_0001.JPG", "IMG_0001.CR2", "IMG_0001.xmp", "IMG_0001.CR2.xmp", "IMG_0001_01.CR2",
                                  "IMG_0001.HEIC", "IMG_0001.MOV", "IMG_0002.NEF", "IMG_0002.nef.xmp", "IMG_0002.JPG",
                                  "DSC_1003.NEF", "DSC_1003.JPG", "DSC_1004.xmp", "alone.jpg"]
        var random = SplitMix64(seed: 1414)
        struct Abandon: Error {}
        for step in 0..<300 {
            let abandon = Int.random(in: 0..<6, using: &random) == 0
            do {
                try index.library.batch {
                    for _ in 0..<Int.random(in: 1...4, using: &random) {
                        let folder = Bool.random(using: &random) ? index.folder : other
                        let name = pool[Int.random(in: 0..<pool.count, using: &random)]
                        guard let id = index.id(name, in: folder) else {
                            try index.add(name, in: folder)
                            continue
                        }
                        switch Int.random(in: 0..<3, using: &random) {
                        case 0: _ = try index.library.remove(id)
                        default:
                            // Renamed, here or into the other folder, over whatever has that name.
                            let alike = pool.filter { PhotoType.detectFile(name: $0) == PhotoType.detectFile(name: name) }
                            let to = alike[Int.random(in: 0..<alike.count, using: &random)]
                            _ = try index.library.move(id, toFolder: Bool.random(using: &random) ? index.folder : other, name: to)
                        }
                    }
                    if abandon { throw Abandon() }
                }
            } catch is Abandon {}
            _ = index.library.takeShifts()
            Self.expectLinksMatchTheTable(index.library, "step \(step)\(abandon ? " (rolled back)" : "")")
            // And each folder's count of listed photos (`ViewPositions` places by it).
            ViewPositionsTests.expectCountsMatchRows(index.library, "step \(step)\(abandon ? " (rolled back)" : "")")
            if step % 100 == 99 {
                try index.reopen()
                Self.expectLinksMatchTheTable(index.library, "step \(step), reopened")
                ViewPositionsTests.expectCountsMatchRows(index.library, "step \(step), reopened")
            }
        }
    }
}
