// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorProtocol
import CuratorSystem
import Testing

/// The pure parts of deleting groups (issue 15): what a plan takes of a group,
/// chunks that never split one, a group left whole when one of its files is, and
/// which groups a stopped batch left split.
struct GroupDeletePlanTests {
    static func names(_ list: [String]) -> [ByteString] { list.map { ByteString($0) } }
    static func text(_ list: [ByteString]) -> [String] { list.map(\.lossyString) }

    static let shot = names(["IMG_0001.xmp", "IMG_0001.CR2.xmp", "IMG_0001.CR2", "IMG_0001.JPG", "IMG_0001_01.CR2.xmp"])

    @Test func everyFileOfTheGroupInTheGroupsOrder() {
        let files = GroupPart.files(of: Self.shot, shown: "IMG_0001.JPG", only: nil)
        #expect(Self.text(files) == ["IMG_0001.JPG", "IMG_0001.CR2", "IMG_0001.CR2.xmp", "IMG_0001.xmp", "IMG_0001_01.CR2.xmp"])
    }

    @Test func aPartTakesItsFilesAndTheirSidecarsButNotTheShotsOwn() {
        #expect(Self.text(GroupPart.files(of: Self.shot, shown: "IMG_0001.JPG", only: .raw))
                == ["IMG_0001.CR2", "IMG_0001.CR2.xmp", "IMG_0001_01.CR2.xmp"])
        #expect(Self.text(GroupPart.files(of: Self.shot, shown: "IMG_0001.JPG", only: .rendered)) == ["IMG_0001.JPG"])
        // The last photo of the group: the shot's sidecar goes with it.
        let rawOnly = Self.names(["IMG_0001.CR2", "IMG_0001.xmp", "IMG_0001.CR2.xmp"])
        #expect(Self.text(GroupPart.files(of: rawOnly, shown: "IMG_0001.CR2", only: .raw))
                == ["IMG_0001.CR2", "IMG_0001.CR2.xmp", "IMG_0001.xmp"])
        #expect(GroupPart.files(of: rawOnly, shown: "IMG_0001.CR2", only: .rendered).isEmpty, "no rendered file: nothing")
    }

    @Test func aPhotoAloneIsItselfOrNothingOfAnotherKind() {
        let alone = Self.names(["DSC_0042.NEF"])
        #expect(Self.text(GroupPart.files(of: alone, shown: "DSC_0042.NEF", only: nil)) == ["DSC_0042.NEF"])
        #expect(Self.text(GroupPart.files(of: alone, shown: "DSC_0042.NEF", only: .raw)) == ["DSC_0042.NEF"])
        #expect(GroupPart.files(of: alone, shown: "DSC_0042.NEF", only: .rendered).isEmpty)
    }

    @Test func aLivePhotosPartsAreItsStillAndItsClip() {
        let live = Self.names(["IMG_0007.HEIC", "IMG_0007.MOV", "IMG_0007.AAE"])
        #expect(Self.text(GroupPart.files(of: live, shown: "IMG_0007.HEIC", only: nil)) == ["IMG_0007.HEIC", "IMG_0007.MOV", "IMG_0007.AAE"])
        #expect(Self.text(GroupPart.files(of: live, shown: "IMG_0007.HEIC", only: .rendered)) == ["IMG_0007.HEIC"])
        #expect(GroupPart.files(of: live, shown: "IMG_0007.HEIC", only: .raw).isEmpty)
    }

    @Test func chunksNeverSplitAGroup() {
        // Units: 0-2 one group, 3 alone, 4-7 another group, 8-9 alone.
        let units: [Int64?] = [7, 7, 7, nil, 9, 9, 9, 9, nil, nil]
        let chunks = ChunkPolicy.fixed(2).chunks(Array(0..<10), directory: { _ in 0 }, unit: { units[$0] })
        #expect(chunks == [[0, 1, 2], [3, 4, 5, 6, 7], [8, 9]])
        let alone = ChunkPolicy.fixed(2).chunks(Array(0..<5)) { _ in 0 }
        #expect(alone == [[0, 1], [2, 3], [4]], "without groups, as before")
    }

    static func item(_ step: Int, _ name: String, unit: Int64?, state: JournalItemState = .planned,
                     outcome: PhotoOutcome = .pending, detail: String? = nil) -> JournalItem {
        JournalItem(batch: 1, step: step, photoID: Int64(step), rootName: "pics", rootPath: "/srv/pics",
                    relativePath: ByteString("2024/" + name), identity: FileIdentity(device: 1, inode: UInt64(step), size: 1, mtimeNs: 1),
                    state: state, outcome: outcome, detail: detail, trashDirectory: nil, trashName: nil, infoPath: nil,
                    moved: false, unit: unit)
    }

    @Test func aFileLeftLeavesItsWholeGroup() {
        let items = [Self.item(1, "IMG_0001.JPG", unit: 1), Self.item(2, "IMG_0001.CR2", unit: 1),
                     Self.item(3, "IMG_0001.xmp", unit: 1), Self.item(4, "IMG_0002.JPG", unit: nil),
                     Self.item(5, "IMG_0003.JPG", unit: 5), Self.item(6, "IMG_0003.CR2", unit: 5)]
        let changed = PhotoTrasher.Ending(state: .skipped, outcome: .changed, detail: "size 11 -> 30")
        // The CR2 changed; every other file is to move.
        let left = ChunkPlanner.groupsLeft(items, [nil, changed, nil, nil, nil, nil])
        #expect(left.keys.sorted() == [1], "only the CR2's group; the JPEG alone and the other group move")
        #expect(left[1] == PhotoTrasher.Ending(state: .skipped, outcome: .changed,
                                               detail: "left with its group: IMG_0001.CR2 is changed: size 11 -> 30"))
        // A file alone that is left leaves nothing else.
        #expect(ChunkPlanner.groupsLeft(items, [nil, nil, nil, changed, nil, nil]).isEmpty)
        // A group all of whose files are left already needs nothing more.
        #expect(ChunkPlanner.groupsLeft(items, [nil, nil, nil, nil, changed, changed]).isEmpty)
    }

    @Test func splitGroupsAreThoseWithFilesInTheTrashAndInPlace() {
        let items = [Self.item(1, "IMG_0001.JPG", unit: 1, state: .trashed, outcome: .trashed),
                     Self.item(2, "IMG_0001.CR2", unit: 1, state: .skipped, outcome: .pending, detail: "interrupted"),
                     Self.item(3, "IMG_0002.JPG", unit: 2, state: .trashed, outcome: .trashed),
                     Self.item(4, "IMG_0002.CR2", unit: 2, state: .trashed, outcome: .trashed),
                     Self.item(5, "IMG_0003.JPG", unit: 3, state: .skipped, outcome: .changed),
                     Self.item(6, "IMG_0003.CR2", unit: 3, state: .skipped, outcome: .changed),
                     Self.item(7, "IMG_0004.JPG", unit: nil, state: .trashed, outcome: .trashed),
                     Self.item(8, "IMG_0005.JPG", unit: nil, state: .skipped, outcome: .pending),
                     Self.item(9, "IMG_0006.JPG", unit: 6, state: .gone, outcome: .missing),
                     Self.item(10, "IMG_0006.CR2", unit: 6, state: .trashed, outcome: .trashed)]
        #expect(GroupRollback.split(items) == [1])
        let reasons = GroupRollback.reasons(items, [1])
        #expect(reasons[1]?.outcome == .pending)
        #expect(reasons[1]?.detail == "put back with its group: IMG_0001.CR2 is pending: interrupted")
    }
}
