// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Testing

/// The pure search for exact duplicates: its stages, its sets and their keepers.
@Suite struct DuplicateSetsTests {
    private func file(_ id: Int64, size: Int64, inode: UInt64? = nil, device: UInt64 = 1) -> DuplicateFile {
        DuplicateFile(photoID: id, device: device, inode: inode ?? UInt64(id), size: size)
    }

    private func hash(_ n: UInt64) -> ContentHash { ContentHash(high: n, low: ~n) }

    @Test func onlyFilesOfASharedSizeAreHashedAndNeverForAHardLinkAlone() {
        let files = [
            file(1, size: 100), file(2, size: 100),             // a copy
            file(3, size: 200), file(4, size: 200, inode: 3),   // two links of one inode
            file(5, size: 300),                                 // alone by size
            file(6, size: 0), file(7, size: 0),                 // empty
            file(8, size: 400, inode: 8, device: 1), file(9, size: 400, inode: 8, device: 2),  // same inode number, two devices
        ]
        #expect(Set(DuplicateStages.sharingSize(files).map(\.photoID)) == [1, 2, 8, 9])
    }

    @Test func theWholeFileIsReadOnlyWhenTheHeadsAgreeAndDoNotCoverIt() {
        let big = DuplicateStages.wholeInHead + 1
        let small = DuplicateStages.wholeInHead
        let files = [file(1, size: big), file(2, size: big), file(3, size: big),
                     file(4, size: small), file(5, size: small),
                     file(6, size: big), file(7, size: big, inode: 6)]
        let heads: [Int64: ContentHash] = [1: hash(1), 2: hash(1), 3: hash(2), 4: hash(4), 5: hash(4), 6: hash(6), 7: hash(6)]
        #expect(DuplicateStages.needingFullHash(files, heads: heads) == [1, 2])
        // A small file's head is its content; a large one's needs the full hash.
        #expect(DuplicateStages.contentKey(files[3], head: hash(4), full: nil) == ContentKey(size: small, hash: hash(4)))
        #expect(DuplicateStages.contentKey(files[0], head: hash(1), full: nil) == nil)
        #expect(DuplicateStages.contentKey(files[0], head: hash(1), full: hash(9)) == ContentKey(size: big, hash: hash(9)))
    }

    private func unit(_ group: Int64, _ files: [DuplicateFile], mtime: Int64 = 10, root: Int = 0, path: String) -> DuplicateUnit {
        DuplicateUnit(groupID: group, files: files, mtimeNs: mtime, rootOrder: root, path: ByteString(path))
    }

    @Test func setsAreOfWholeGroupsAndHardLinksAreOneCopy() {
        // Content by photo id: 1-3 alike (a), 4/5 a RAW and its JPEG (r, j), 6/7 their
        // copies, 8 a JPEG copied without its RAW, 9/10 links of one inode (b),
        // 11 a link of 1's inode, 12 a copy of 9's content.
        let key: [Int64: ContentKey] = [
            1: .init(size: 5, hash: hash(1)), 2: .init(size: 5, hash: hash(1)), 3: .init(size: 5, hash: hash(1)),
            4: .init(size: 50, hash: hash(4)), 5: .init(size: 20, hash: hash(5)),
            6: .init(size: 50, hash: hash(4)), 7: .init(size: 20, hash: hash(5)), 8: .init(size: 20, hash: hash(5)),
            9: .init(size: 7, hash: hash(9)), 10: .init(size: 7, hash: hash(9)), 11: .init(size: 5, hash: hash(1)),
        ]
        let units = [
            unit(1, [file(1, size: 5)], mtime: 30, path: "a/1.JPG"),
            unit(2, [file(2, size: 5)], mtime: 20, root: 1, path: "z/2.JPG"),
            unit(3, [file(3, size: 5)], mtime: 20, path: "b/3.JPG"),
            unit(11, [file(11, size: 5, inode: 1)], mtime: 30, path: "c/11.JPG"),
            unit(4, [file(4, size: 50), file(5, size: 20)], mtime: 5, path: "p/IMG.NEF"),
            unit(6, [file(6, size: 50), file(7, size: 20)], mtime: 6, path: "q/IMG.NEF"),
            unit(8, [file(8, size: 20)], mtime: 1, path: "r/IMG.JPG"),
            unit(9, [file(9, size: 7)], path: "s/9.JPG"),
            unit(10, [file(10, size: 7, inode: 9)], path: "s/10.JPG"),
        ]
        let sets = DuplicateSets.find(units) { key[$0] }
        let shape = sets.map { $0.copies.map { $0.units.map(\.groupID) } }
        // 3 (mtime 20, root 0) before 2 (mtime 20, root 1): a tie broken by name;
        // 1 and its link 11 one copy; the pair copied whole a set, not the lone JPEG;
        // 9 and 10 only links: no set.
        #expect(shape == [[[3], [2], [1, 11]], [[4], [6]]])
        #expect(sets.map(\.keeperReason) == [.firstByName, .oldest])
        #expect(sets.map(\.id) == [1, 4])
    }

    @Test func aGroupWithOneFileUnlikeTheOthersIsNoDuplicate() {
        // The same RAW, JPEGs alike, but one sidecar edited.
        let key: [Int64: ContentKey] = [
            1: .init(size: 9, hash: hash(1)), 2: .init(size: 3, hash: hash(2)), 3: .init(size: 4, hash: hash(3)),
            4: .init(size: 9, hash: hash(1)), 5: .init(size: 3, hash: hash(2)), 6: .init(size: 4, hash: hash(30)),
        ]
        let units = [unit(1, [file(1, size: 9), file(2, size: 3), file(3, size: 4)], path: "a/IMG"),
                     unit(4, [file(4, size: 9), file(5, size: 3), file(6, size: 4)], path: "b/IMG")]
        #expect(DuplicateSets.find(units) { key[$0] }.isEmpty)
        // Unknown content (not hashed yet): no set either.
        #expect(DuplicateSets.find(units) { $0 == 6 ? nil : key[$0] }.isEmpty)
    }

    private func threeCopies() -> [DuplicateSet] {
        let units = [unit(1, [file(1, size: 5)], mtime: 1, path: "a"), unit(2, [file(2, size: 5)], mtime: 2, path: "b"),
                     unit(3, [file(3, size: 5)], mtime: 3, path: "c"), unit(4, [file(4, size: 5, inode: 3)], mtime: 3, path: "d")]
        return DuplicateSets.find(units) { _ in ContentKey(size: 5, hash: hash(1)) }
    }

    @Test func theRestIsEveryCopyButTheKeeperTakenWhole() {
        let sets = threeCopies()
        let all = DuplicateRest.choose(sets, isProtected: { _ in false }, inView: { _ in true }, isSelected: { _ in false })
        #expect(all == DuplicateRestChoice(groupIDs: [2, 3, 4], setsChosen: 1, leftAlone: [:]))
        // One link of copy 3 protected: that copy stays whole, the other goes.
        let linkProtected = DuplicateRest.choose(sets, isProtected: { $0.groupID == 4 }, inView: { _ in true }, isSelected: { _ in false })
        #expect(linkProtected.groupIDs == [2])
        // Every other copy protected: left alone, and why.
        let protected = DuplicateRest.choose(sets, isProtected: { $0.groupID != 1 }, inView: { _ in true }, isSelected: { _ in false })
        #expect(protected == DuplicateRestChoice(groupIDs: [], setsChosen: 0, leftAlone: [.protected: 1]))
        // The keeper already selected: selecting the rest would take every copy.
        let keeperSelected = DuplicateRest.choose(sets, isProtected: { _ in false }, inView: { _ in true }, isSelected: { $0.groupID == 1 })
        #expect(keeperSelected == DuplicateRestChoice(groupIDs: [], setsChosen: 0, leftAlone: [.keeperSelected: 1]))
        // Only the keeper in the view; and a set wholly outside it is not counted.
        let keeperOnly = DuplicateRest.choose(sets, isProtected: { _ in false }, inView: { $0.groupID == 1 }, isSelected: { _ in false })
        #expect(keeperOnly == DuplicateRestChoice(groupIDs: [], setsChosen: 0, leftAlone: [.outsideView: 1]))
        let none = DuplicateRest.choose(sets, isProtected: { _ in false }, inView: { _ in false }, isSelected: { _ in false })
        #expect(none == DuplicateRestChoice())
        // The keeper outside the view: the copies in it are still taken.
        let keeperOutside = DuplicateRest.choose(sets, isProtected: { _ in false }, inView: { $0.groupID != 1 }, isSelected: { _ in false })
        #expect(keeperOutside.groupIDs == [2, 3, 4])
    }
}
