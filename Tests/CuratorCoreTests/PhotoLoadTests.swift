// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorStore
import CuratorSystem
import Testing

/// Loading the index at start-up (`PhotoLoad`, issue 14): the rows are taken as
/// stored, in one pass, and the library must then hold what filing each row as a
/// photo held: each folder's names, the inodes, each group's rows, the totals and
/// the next rank of each folder. Checked against the rows themselves, on files
/// written behind the store's back with what a broken file can hold too (a name or
/// an inode twice, groups whose own row comes later or is missing, ranks past 32
/// bits, unknown types), and on a library reopened after random changes.
@Suite struct PhotoLoadTests {
    /// One row as the test wrote it.
    struct Row {
        var id: Int64
        var folder: Int32
        var name: ByteString
        var inode: UInt64
        var size: Int64
        var type: String
        var capture: Int64
        var rank: Int64
        var group: Int64
        var role: UInt8
    }

    static func hex(_ name: ByteString) -> String {
        name.bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test(arguments: [7, 8, 9, 10])
    func aLoadedLibraryHoldsWhatItsRowsSay(seed: UInt64) throws {
        let dir = try ScratchDirectory()
        let path = dir.child("index.sqlite").lossyString
        var random = SplitMix64(seed: seed)
        var rows: [Row] = []
        var rootOf: [Int32: Int32] = [:]
        do {
            let store = try IndexStore(path: path)
            let roots = [try store.insertRoot(name: "a", path: "/a"), try store.insertRoot(name: "b", path: "/b")]
            var folders: [Int32] = []
            for (index, folderPath) in (["", "x", "x/y", "z"] as [ByteString]).enumerated() {
                for root in roots where index < 3 || root == roots[0] {
                    let folder = try store.insertFolder(rootID: root, path: folderPath)
                    folders.append(folder)
                    rootOf[folder] = root
                }
            }
            let names: [ByteString] = ["IMG_0001.JPG", "IMG_0001.CR2", "IMG_0001.xmp", "b.jpg", "B.jpg", "b.jpgx", "",
                                       ByteString([0xff, 0x2e, 0x6a, 0x70, 0x67]), "a", "ab", "IMG_0002.HEIC"]
            let types = PhotoType.allCases.map(\.wireName) + ["bogus", "", "jpegjpeg"]
            let captures: [Int64] = [CaptureState.pendingRaw, CaptureState.noneRaw, 1_600_000_000, 0]
            var id: Int64 = 0
            var folder = folders[0]
            try store.database.execute("BEGIN")
            for _ in 0..<600 {
                id += Int64.random(in: 1...3, using: &random)
                // Mostly runs of one folder, as a scan numbers them; sometimes back to an earlier one.
                if Int.random(in: 0..<8, using: &random) == 0 { folder = folders[Int.random(in: 0..<folders.count, using: &random)] }
                let group: Int64 = switch Int.random(in: 0..<6, using: &random) {
                case 0: max(1, id - Int64.random(in: 1...4, using: &random))  // an earlier row's
                case 1: id + Int64.random(in: 1...4, using: &random)           // a later row's, or none's
                case 2: 1 << 40                                                // far: no row
                default: id
                }
                let row = Row(id: id, folder: folder, name: names[Int.random(in: 0..<names.count, using: &random)],
                              inode: UInt64.random(in: 1...500, using: &random), size: Int64.random(in: 0...1 << 40, using: &random),
                              type: types[Int.random(in: 0..<types.count, using: &random)],
                              capture: captures[Int.random(in: 0..<captures.count, using: &random)],
                              rank: Int.random(in: 0..<200, using: &random) > 0 ? Int64.random(in: -3...50, using: &random) : Int64(Int32.max) + 7,
                              group: group, role: UInt8.random(in: 0...5, using: &random))
                rows.append(row)
                try store.database.execute("""
                    INSERT INTO photos VALUES(\(row.id), \(row.folder), x'\(Self.hex(row.name))', \(row.size), 5, 3, \(row.inode),
                    '\(row.type)', \(row.capture), \(row.rank), \(row.group), \(row.role), 0)
                    """)
            }
            // A row of a folder the file does not know: left out, as the join left it.
            try store.database.execute("INSERT INTO photos VALUES(\(id + 1), 999, x'63', 1, 5, 3, 7, 'jpeg', 0, 1, 0, 0, 0)")
            try store.database.execute("COMMIT")
        }
        let library = try PhotoLibrary(store: IndexStore(path: path))
        let ids = Set(rows.map(\.id))

        // Every row, as stored (a type not known read as a JPEG, a role out of range guessed).
        #expect(library.photos.count == rows.count)
        for row in rows {
            let photo = try #require(library.photo(row.id))
            let type = PhotoType(wireName: row.type) ?? .jpeg
            #expect(photo.type == type, "\(row.id): type '\(row.type)'")
            #expect(photo.name == row.name && photo.folderID == row.folder && photo.rootID == rootOf[row.folder])
            #expect(photo.identity == FileIdentity(device: 3, inode: row.inode, size: row.size, mtimeNs: 5))
            #expect(photo.capture.raw == row.capture && photo.rank == Int64(Int32(clamping: row.rank)))
            #expect(photo.groupID == row.group && photo.role == GroupRole(rawValue: row.role) ?? (type.isSidecar ? .undecided : .shown))
        }

        // Each folder's entries: its names in order, a name twice filed under the later row.
        var lastByName: [Int32: [ByteString: Int64]] = [:]
        for row in rows { lastByName[row.folder, default: [:]][row.name] = row.id }
        for (folder, byName) in lastByName {
            let expected = byName.sorted { $0.key < $1.key }.map { "\($0.key.lossyString)=\($0.value)" }
            #expect(library.members(ofFolder: folder).map { "\($0.name.lossyString)=\($0.id)" } == expected, "folder \(folder)")
            for (name, id) in byName { #expect(library.photoID(folder: folder, name: name) == id) }
        }
        #expect(library.photoID(folder: 999, name: "c") == nil)

        // By inode: the later row of an inode.
        var lastByInode: [UInt64: Int64] = [:]
        for row in rows { lastByInode[row.inode] = row.id }
        for inode in UInt64(1)...500 { #expect(library.photoID(device: 3, inode: inode) == lastByInode[inode], "inode \(inode)") }

        // Each group's rows are the rows bearing its id; kept when that is not its own row alone.
        var bearing: [Int64: Set<Int64>] = [:]
        for row in rows { bearing[row.group, default: []].insert(row.id) }
        #expect(library.groupLinks.count == bearing.filter { $0.value != [$0.key] }.count)
        for (group, members) in bearing {
            #expect(Set(library.rows(ofGroup: group)) == members, "group \(group)")
            #expect(library.rows(ofGroup: group).count == members.count, "group \(group) has a row twice")
            #expect(library.groupLinks.keeps(group) == (members != [group]), "group \(group) kept")
        }
        #expect(!ids.contains(1 << 40))

        // The totals of each root.
        for root in Set(rootOf.values) {
            let mine = rows.filter { rootOf[$0.folder] == root }
            #expect(library.countByRoot[root] ?? 0 == mine.count)
            #expect(library.bytesByRoot[root] ?? 0 == mine.reduce(0) { $0 + $1.size })
            #expect(library.listedByRoot[root] ?? 0 == mine.filter { library.photo($0.id)?.role == .shown }.count)
            #expect(library.pendingCaptureByRoot[root] ?? 0 == mine.filter { $0.capture == CaptureState.pendingRaw }.count)
        }

        // A new photo of each folder comes after the highest rank there (at least 1).
        var inode: UInt64 = 10_000
        for (folder, root) in rootOf {
            inode += 1
            let highest = rows.filter { $0.folder == folder }.map { Int64(Int32(clamping: $0.rank)) }.max()
            let change = try library.upsert(root: root, folder: folder, name: "new-one.jpg",
                                            identity: FileIdentity(device: 3, inode: inode, size: 1, mtimeNs: 1), type: .jpeg)
            guard case .added(let added)? = change else { throw Failure("not added in folder \(folder)") }
            #expect(added.rank == Int64(Int32(clamping: max(1, (highest ?? 0) + 1))), "folder \(folder)")
        }
    }

    /// A scan passes over a file it finds indexed when `isUnchanged` says so (no
    /// `upsert`, no second search of the folder): only when every field `upsert`
    /// compares is the same.
    @Test func aFileIsUnchangedOnlyWhenItsDeviceInodeSizeMtimeAndTypeAreTheRows() throws {
        let index = try GroupIndexTests.Index()
        let id = try index.add("a.jpg")
        let row = try #require(index.library.photo(id))
        let same = row.identity
        #expect(index.library.isUnchanged(id, identity: same, type: .jpeg))
        var other = same
        other.device += 1
        #expect(!index.library.isUnchanged(id, identity: other, type: .jpeg))
        other = same
        other.inode += 1
        #expect(!index.library.isUnchanged(id, identity: other, type: .jpeg))
        other = same
        other.size += 1
        #expect(!index.library.isUnchanged(id, identity: other, type: .jpeg))
        other = same
        other.mtimeNs += 1
        #expect(!index.library.isUnchanged(id, identity: other, type: .jpeg))
        #expect(!index.library.isUnchanged(id, identity: same, type: .png))
        #expect(!index.library.isUnchanged(id + 1, identity: same, type: .jpeg), "no such photo")
    }

    /// A library changed at random (groups on: rows join, leave and change groups),
    /// then opened again: the loaded one holds what the live one held.
    @Test func aReopenedLibraryHoldsWhatTheLiveOneHeld() throws {
        let index = try GroupIndexTests.Index()
        let other = try index.library.ensureFolder(root: index.root, path: "b")
        let pool: [ByteString] = ["IMG_0001.JPG", "IMG_0001.CR2", "IMG_0001.xmp", "IMG_0001.CR2.xmp", "IMG_0001_01.CR2",
                                  "IMG_0001.HEIC", "IMG_0001.MOV", "IMG_0002.NEF", "IMG_0002.nef.xmp", "IMG_0002.JPG",
                                  "DSC_1003.NEF", "DSC_1003.JPG", "DSC_1004.xmp", "alone.jpg", "Zeta.png", "zeta.png"]
        var random = SplitMix64(seed: 2026)
        for step in 0..<400 {
            try index.library.batch {
                let folder = Bool.random(using: &random) ? index.folder : other
                let name = pool[Int.random(in: 0..<pool.count, using: &random)]
                guard let id = index.id(name, in: folder) else {
                    try index.add(name, in: folder)
                    return
                }
                switch Int.random(in: 0..<4, using: &random) {
                case 0: _ = try index.library.remove(id)
                case 1: try index.library.setCapture(id, .known(Int64(step)))
                case 2: try index.library.setRank(id, Int64.random(in: 1...90, using: &random))
                default:
                    let alike = pool.filter { PhotoType.detectFile(name: $0) == PhotoType.detectFile(name: name) }
                    _ = try index.library.move(id, toFolder: Bool.random(using: &random) ? index.folder : other,
                                               name: alike[Int.random(in: 0..<alike.count, using: &random)])
                }
            }
            _ = index.library.takeShifts()
            if step % 50 == 49 {
                let live = LibraryRollbackTests.Snapshot(index.library, root: index.root)
                let listed = index.library.listedByRoot.filter { $0.value != 0 }
                let groups = Dictionary(uniqueKeysWithValues: index.library.photos.values.map { ($0.id, Set(index.library.rows(ofGroup: $0.groupID))) })
                try index.reopen()
                #expect(LibraryRollbackTests.Snapshot(index.library, root: index.root) == live, "step \(step)")
                #expect(index.library.listedByRoot.filter { $0.value != 0 } == listed, "step \(step)")
                #expect(Dictionary(uniqueKeysWithValues: index.library.photos.values.map { ($0.id, Set(index.library.rows(ofGroup: $0.groupID))) })
                        == groups, "step \(step)")
                GroupLinksInIndexTests.expectLinksMatchTheTable(index.library, "step \(step), reopened")
            }
        }
    }
}
