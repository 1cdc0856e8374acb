// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import CuratorTestSupport
import Testing

/// The order a new folder's rows are added in (`FolderGroupPlan.order`): the
/// photos in name order, each group's other photos right after its shown one, so
/// that a listing in name order reads the rows in sequence; then the sidecars,
/// so that the photos' ids run unbroken (`IDStack`).
@Suite struct FolderGroupPlanTests {
    /// `nameOrder` keys names by 6 bytes after what they all share: folders whose
    /// names share long prefixes, tie on those 6 bytes, are prefixes of one
    /// another, or share nothing, come out as sorting by `ByteString.order` does.
    @Test func namesComeInByteOrderWhateverTheyShare() {
        let stems = ["PXL_20240101_1234", "PXL_20240101_12345", "IMG_", "IMG_0", "DSC", "", "z"]
        var random = SplitMix64(seed: 5)
        for round in 0..<300 {
            var names = Set<ByteString>()
            let count = Int.random(in: 1...(round % 3 == 0 ? 400 : 40), using: &random)
            while names.count < count {
                var bytes = Array(stems[Int.random(in: 0..<stems.count, using: &random)].utf8)
                for _ in 0..<Int.random(in: 0...12, using: &random) {
                    bytes.append([UInt8(ascii: "0"), UInt8(ascii: "1"), UInt8(ascii: "."), 0xFF, UInt8(ascii: "a")][Int.random(in: 0..<5, using: &random)])
                }
                if !bytes.isEmpty { names.insert(ByteString(bytes)) }
            }
            let list = Array(names)
            let starts = list.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1.count) }
            let order = list.flatMap(\.bytes).withUnsafeBufferPointer { all in
                FolderGroupPlan.nameOrder(count: list.count) { i in UnsafeBufferPointer(rebasing: all[starts[i]..<starts[i + 1]]) }
            }
            #expect(order.map { list[$0] } == list.sorted(), "round \(round)")
        }
    }

    /// Names tied on their bytes for 6, 12, 18 bytes and more, shorter than a key,
    /// and (from a caller's list, never a folder's) the same name twice.
    @Test func namesTiedForManyBytesAndRepeatedNamesComeInByteOrder() {
        let family = "Grand-m\u{E8}re \u{E0} la plage "
        var list = (0..<60).map { ByteString(family + "\($0 * 7 % 61).jpg") }
        list += ["Gr", "G", "Grand-", "Grand-m", family, family + "1", "Screenshot 2020-01-01 at 10.00.00.png",
                 "Screenshot 2020-01-01 at 10.00.01.png", "a", "a", "b", "a"].map { ByteString($0) }
        let starts = list.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1.count) }
        let order = list.flatMap(\.bytes).withUnsafeBufferPointer { all in
            FolderGroupPlan.nameOrder(count: list.count) { i in UnsafeBufferPointer(rebasing: all[starts[i]..<starts[i + 1]]) }
        }
        #expect(order.map { list[$0] } == list.sorted())
        #expect(Set(order) == Set(list.indices), "each name once")
    }

    @Test func rowsAreAddedInNameOrderEachGroupTogetherSidecarsLast() {
        // Bases that share their first 8 bytes or more, are shorter than 8, are a
        // prefix of another, and a name that is not UTF-8.
        let bases: [[UInt8]] = ["IMG_0001", "IMG_00010", "IMG_0001_01", "img_0001", "DSC_1", "a", "ab", "PXL_20240101_123",
                                "PXL_20240101_124", "Ré"].map { Array($0.utf8) } + [[0x49, 0x4D, 0xFF, 0x31]]
        let extensions = ["JPG", "jpg", "HEIC", "CR2", "NEF", "dng", "MOV", "xmp", "CR2.xmp", "aae", "txt"]
        var random = SplitMix64(seed: 11)
        var followers = 0
        for round in 0..<1000 {
            var names = Set<ByteString>()
            for _ in 0..<Int.random(in: 1...14, using: &random) {
                let base = bases[Int.random(in: 0..<bases.count, using: &random)]
                let ext = extensions[Int.random(in: 0..<extensions.count, using: &random)]
                names.insert(ByteString(base + Array(".\(ext)".utf8)))
            }
            let list = names.shuffled(using: &random)
            let plan = FolderGroupPlan(names: list, settings: GroupSettings(enabled: true, shown: .rendered))
            let order = plan.order.map(Int.init)
            #expect(order.sorted() == Array(list.indices), "round \(round): every file once")
            // The photos first: runs of a photo that bears its own id, then the photos bearing it.
            let isSidecar = { (i: Int) in PhotoType.detectFile(name: list[i])?.isSidecar ?? false }
            let photos = order.prefix { !isSidecar($0) }
            var runs: [(head: Int, rest: [Int])] = []
            for i in photos {
                if plan.leader[i] < 0 {
                    runs.append((i, []))
                } else if let last = runs.last, last.head == Int(plan.leader[i]) {
                    runs[runs.count - 1].rest.append(i)
                    followers += 1
                } else {
                    Issue.record("round \(round): \(list[i]) is not right after its group's shown photo: \(order.map { list[$0] })")
                    return
                }
            }
            let heads = runs.map { list[$0.head] }
            #expect(heads == heads.sorted(), "round \(round): shown photos and photos alone in name order")
            for run in runs {
                let rest = run.rest.map { list[$0] }
                #expect(rest == rest.sorted(), "round \(round): a group's other photos in name order")
            }
            // Then every sidecar, in name order: the photos' ids run unbroken.
            let sidecars = order.dropFirst(photos.count).map { list[$0] }
            #expect(order.dropFirst(photos.count).allSatisfy(isSidecar), "round \(round): a photo after a sidecar: \(order.map { list[$0] })")
            #expect(sidecars == sidecars.sorted(), "round \(round): sidecars in name order")
        }
        #expect(followers > 300, "the folders have groups of several photos")
    }

    /// A folder none of whose photos can group (`PhotoGrouping.noneCanGroup`: one kind,
    /// no sidecar) is planned without the grouping (`init(singles:)`): the plan must be
    /// the one the grouping makes, with names alike but for their case, bases of
    /// several files (`IMG_0001.JPG` and `IMG_0001.HEIC`), GIFs, names not UTF-8.
    @Test func aFolderOfOneKindIsPlannedAsTheGroupingPlansIt() {
        let bases: [[UInt8]] = ["IMG_0001", "img_0001", "IMG_0001_01", "PXL_20240101_123", "PXL_20240101_124", "a", "A",
                                "R\u{E9}"].map { Array($0.utf8) } + [[0x49, 0x4D, 0xFF, 0x31]]
        let kinds = [["JPG", "jpg", "HEIC", "png", "gif", "webp", "tif"], ["CR2", "cr2", "NEF", "dng", "ARW"], ["MOV", "mov", "mp4"]]
        let settings = GroupSettings(enabled: true, shown: .rendered)
        var random = SplitMix64(seed: 17)
        var singlesPlanned = 0
        for round in 0..<1500 {
            // Mostly one kind; every fourth folder any mix, sidecars too (planned as
            // singles only where it happens to be of one kind).
            let pool = round % 4 == 3 ? kinds.flatMap { $0 } + ["xmp", "CR2.xmp", "aae"] : kinds[round % 3]
            var names = Set<ByteString>()
            for _ in 0..<Int.random(in: 1...16, using: &random) {
                let base = bases[Int.random(in: 0..<bases.count, using: &random)]
                names.insert(ByteString(base + Array(".\(pool[Int.random(in: 0..<pool.count, using: &random)])".utf8)))
            }
            let list = names.shuffled(using: &random)
            let types = list.map { PhotoType.detectFile(name: $0) ?? .jpeg }
            let grouped = FolderGroupPlan(names: list, settings: settings)
            guard PhotoGrouping.noneCanGroup(types) else {
                #expect(round % 4 == 3, "round \(round): a folder of one kind not planned as singles: \(list)")
                continue
            }
            singlesPlanned += 1
            let starts = list.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1.count) }
            let singles = list.flatMap(\.bytes).withUnsafeBufferPointer { all in
                FolderGroupPlan(singles: list.count, settings: settings) { i in UnsafeBufferPointer(rebasing: all[starts[i]..<starts[i + 1]]) }
            }
            #expect(singles.leader == grouped.leader, "round \(round): \(list)")
            #expect(singles.role == grouped.role, "round \(round): \(list)")
            #expect(singles.order == grouped.order, "round \(round): \(list)")
            #expect(singles.byName == grouped.byName, "round \(round): \(list)")
            #expect(singles.settings == grouped.settings)
        }
        #expect(singlesPlanned > 1100, "most folders are of one kind")
        // A sidecar, or two kinds, can group: such a folder goes through the grouping.
        #expect(!PhotoGrouping.noneCanGroup([.jpeg, .cr2]))
        #expect(!PhotoGrouping.noneCanGroup([.heic, .mov]))
        #expect(!PhotoGrouping.noneCanGroup([.jpeg, .xmp]))
        #expect(!PhotoGrouping.noneCanGroup([.aae]))
        #expect(PhotoGrouping.noneCanGroup([.jpeg, .gif, .heic, .png]))
        #expect(PhotoGrouping.noneCanGroup([]))
    }

    /// The walker hands the index a folder's files in the plan's order, with the
    /// plan of them in that order: each file keeps its role and the file whose
    /// id it bears.
    @Test func aPlanInItsOrderIsTheSamePlanOverTheFilesInThatOrder() throws {
        let names = ["b.xmp", "B.CR2", "a.jpg", "B.JPG", "a.CR2", "c.png", "B.CR2.xmp", "a.MOV"].map { ByteString($0) }
        let plan = FolderGroupPlan(names: names, settings: GroupSettings(enabled: true, shown: .rendered))
        let files = plan.order.map { names[Int($0)] }
        let reordered = plan.inOrder()
        #expect(files.map(\.lossyString) == ["B.JPG", "B.CR2", "a.jpg", "a.CR2", "a.MOV", "c.png", "B.CR2.xmp", "b.xmp"],
                "by bytes (B before a), the sidecars last")
        #expect(reordered.order == Array(0..<Int32(names.count)))
        for (p, name) in files.enumerated() {
            let i = try #require(names.firstIndex(of: name))
            #expect(reordered.role[p] == plan.role[i], "\(name)")
            let leader = reordered.leader[p] < 0 ? nil : files[Int(reordered.leader[p])]
            #expect(leader == (plan.leader[i] < 0 ? nil : names[Int(plan.leader[i])]), "\(name)")
        }
        #expect(FolderGroupPlan(names: files, settings: plan.settings).leader == reordered.leader, "the plan of the files in that order")
    }
}
