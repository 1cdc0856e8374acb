// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorStore
import CuratorSystem
import Testing

/// Groups in the index (issue 15): each folder grouped again as rows come and go,
/// group ids kept as the issue says, written to a real index.sqlite and read back.
@Suite struct GroupIndexTests {
    final class Index {
        let dir: ScratchDirectory
        var store: IndexStore
        var library: PhotoLibrary
        let root: Int32
        var folder: Int32
        var inode: UInt64 = 100

        init(settings: GroupSettings = GroupSettings()) throws {
            dir = try ScratchDirectory()
            store = try IndexStore(path: dir.child("index.sqlite").lossyString)
            library = try PhotoLibrary(store: store)
            root = try store.insertRoot(name: "pics", path: "/p")
            try library.setGroupSettings(settings, root: root)
            folder = try library.ensureFolder(root: root, path: "")
        }

        /// Opens the file again, as a restart does.
        func reopen(settings: GroupSettings = GroupSettings()) throws {
            store = try IndexStore(path: dir.child("index.sqlite").lossyString)
            library = try PhotoLibrary(store: store)
            try library.setGroupSettings(settings, root: root)
            folder = try #require(library.folderID(root: root, path: ""))
        }

        @discardableResult
        func add(_ name: ByteString, in folder: Int32? = nil) throws -> Int64 {
            inode += 1
            let type = try #require(PhotoType.detectFile(name: name))
            let change = try library.upsert(root: root, folder: folder ?? self.folder, name: name,
                                            identity: FileIdentity(device: 1, inode: inode, size: 10, mtimeNs: 1), type: type)
            guard case .added(let photo) = change else { throw ScratchError("not added: \(name)") }
            return photo.id
        }

        func id(_ name: ByteString, in folder: Int32? = nil) -> Int64? { library.photoID(folder: folder ?? self.folder, name: name) }

        func row(_ name: ByteString, in folder: Int32? = nil) -> Photo? { id(name, in: folder).flatMap { library.photo($0) } }

        /// Every row as `name: group-shown-name role`, to compare whole folders.
        func shape(_ folder: Int32? = nil) -> [String: String] {
            var shape: [String: String] = [:]
            for (name, id) in library.members(ofFolder: folder ?? self.folder) {
                guard let photo = library.photo(id) else { continue }
                let shown = library.listed(photo.groupID).map { $0.name.lossyString } ?? "-"
                shape[name.lossyString] = "\(shown) \(photo.role)"
            }
            return shape
        }
    }

    struct ScratchError: Error { var message: String; init(_ m: String) { message = m } }

    @Test func aScannedFolderIsGroupedAndEachGroupBearsItsShownPhotosID() throws {
        let index = try Index()
        try index.library.batch {
            for name in ["IMG_0001.CR2", "IMG_0001.JPG", "IMG_0001.xmp", "IMG_0001.CR2.xmp", "IMG_0002.JPG", "IMG_0002.HEIC",
                         "IMG_0002.xmp", "IMG_0003.xmp", "IMG_0004.HEIC", "IMG_0004.MOV"] as [ByteString] {
                try index.add(name)
            }
        }
        #expect(index.shape() == [
            "IMG_0001.JPG": "IMG_0001.JPG shown", "IMG_0001.CR2": "IMG_0001.JPG member",
            "IMG_0001.xmp": "IMG_0001.JPG sidecar", "IMG_0001.CR2.xmp": "IMG_0001.JPG sidecar",
            "IMG_0002.JPG": "IMG_0002.JPG shown", "IMG_0002.HEIC": "IMG_0002.HEIC shown", "IMG_0002.xmp": "IMG_0002.xmp orphan",
            "IMG_0003.xmp": "IMG_0003.xmp orphan",
            "IMG_0004.HEIC": "IMG_0004.HEIC shown", "IMG_0004.MOV": "IMG_0004.HEIC member",
        ])
        let jpeg = try #require(index.row("IMG_0001.JPG"))
        #expect(jpeg.groupID == jpeg.id, "the group takes the shown photo's id, whatever came first")
        #expect(index.library.rows(ofGroup: jpeg.id).count == 4)
        // Written through: the same after a restart, with no write at all.
        let before = index.shape()
        try index.reopen()
        #expect(index.shape() == before)
        #expect(index.library.storeWrites == 0)
    }

    @Test func aRawArrivingLaterJoinsThePhotoWhichKeepsItsID() throws {
        for shows in GroupSettings.Shown.allCases {
            let index = try Index(settings: GroupSettings(shown: shows))
            let jpeg = try index.add("IMG_0001.JPG")
            _ = index.library.takeShifts()
            let raw = try index.add("IMG_0001.CR2")
            #expect(index.library.listed(jpeg)?.name == (shows == .raw ? "IMG_0001.CR2" : "IMG_0001.JPG"), "\(shows)")
            #expect(index.row("IMG_0001.CR2")?.groupID == jpeg)
            #expect(index.library.listed(raw) == nil, "the RAW is no listing of its own")
            // A sidecar written after (darktable on an edit) joins too.
            try index.add("IMG_0001.CR2.xmp")
            #expect(index.row("IMG_0001.CR2.xmp")?.groupID == jpeg)
            #expect(index.row("IMG_0001.CR2.xmp")?.role == .sidecar)
        }
    }

    @Test func renamingOutOfTheGroupSplitsItAndThePhotoThatGaveTheIDKeepsIt() throws {
        let index = try Index()
        let jpeg = try index.add("IMG_0001.JPG")
        let raw = try index.add("IMG_0001.CR2")
        try index.add("IMG_0001.xmp")
        _ = try index.library.move(jpeg, toFolder: index.folder, name: "holiday.jpg")
        #expect(index.row("holiday.jpg")?.groupID == jpeg)
        #expect(index.row("holiday.jpg")?.role == .shown)
        #expect(index.row("IMG_0001.CR2")?.groupID == raw, "the RAW is a photo of its own again, under its own id")
        #expect(index.row("IMG_0001.CR2")?.role == .shown)
        #expect(index.row("IMG_0001.xmp")?.groupID == raw, "the shot's sidecar stays with what is left of the shot")
        // Moved to another folder, the same.
        let sub = try index.library.ensureFolder(root: index.root, path: "sub")
        _ = try index.library.move(raw, toFolder: sub, name: "IMG_0001.CR2")
        #expect(index.row("IMG_0001.CR2", in: sub)?.groupID == raw)
        #expect(index.row("IMG_0001.xmp")?.role == .orphan)
    }

    @Test func whenTheShownPhotoLeavesTheGroupKeepsItsIDWhileAPhotoRemains() throws {
        let index = try Index()
        let jpeg = try index.add("IMG_0001.JPG")
        try index.add("IMG_0001.CR2")
        try index.add("IMG_0001.xmp")
        _ = try index.library.remove(jpeg)
        #expect(index.library.listed(jpeg)?.name == "IMG_0001.CR2")
        #expect(index.row("IMG_0001.xmp")?.groupID == jpeg)
        // It survives a restart, and a photo coming back (an undo) keeps its own id.
        try index.reopen()
        #expect(index.library.listed(jpeg)?.name == "IMG_0001.CR2")
        _ = try index.library.upsert(root: index.root, folder: index.folder, name: "IMG_0001.JPG",
                                     identity: FileIdentity(device: 1, inode: 999, size: 10, mtimeNs: 1), type: .jpeg, preferredID: jpeg)
        #expect(index.library.listed(jpeg)?.name == "IMG_0001.JPG")
        #expect(index.library.rows(ofGroup: jpeg).count == 3)
        // The last photo gone, the group is gone and its sidecar an orphan.
        try index.library.batch {
            _ = try index.library.remove(jpeg)
            _ = try index.library.remove(try #require(index.id("IMG_0001.CR2")))
        }
        #expect(index.library.listed(jpeg) == nil)
        #expect(index.row("IMG_0001.xmp")?.role == .orphan)
    }

    /// An index grouped by the rules that left a sidecar several photos could take
    /// undecided is grouped again at start: the sidecar becomes the orphan it now is.
    @Test func anIndexGroupedByTheOldRulesIsGroupedAgainOnce() throws {
        let index = try Index()
        try index.library.batch {
            for name in ["IMG_0007.JPG", "IMG_0007.jpeg", "IMG_0007.xmp"] as [ByteString] { try index.add(name) }
        }
        #expect(index.row("IMG_0007.xmp")?.role == .orphan)
        // As the previous rules left it (`undecided`, 4), and recorded them (1: groups,
        // the rendered photo shown). The sidecar is its record's only row: its role is
        // the byte after the format byte, eight 8-byte fields and the 4-byte folder.
        try index.store.database.execute("""
            UPDATE sidecars SET rows = substr(rows, 1, 69) || x'04' || substr(rows, 71);
            UPDATE meta SET value = 1 WHERE key = 'groups.\(index.root)';
            """)
        let stale = try PhotoLibrary(store: IndexStore(path: index.dir.child("index.sqlite").lossyString))
        #expect(stale.photo(try #require(index.id("IMG_0007.xmp")))?.role == .undecided, "the old rules' index, as set up")
        try index.reopen()
        #expect(index.row("IMG_0007.xmp")?.role == .orphan)
        #expect(index.library.listed(try #require(index.id("IMG_0007.xmp")))?.name == "IMG_0007.xmp")
    }

    @Test func aRootThatDoesNotGroupListsEveryPhotoAndNoSidecar() throws {
        let index = try Index(settings: GroupSettings(enabled: false))
        let jpeg = try index.add("IMG_0001.JPG")
        let raw = try index.add("IMG_0001.CR2")
        try index.add("IMG_0001.xmp")
        #expect(index.library.listed(jpeg)?.id == jpeg)
        #expect(index.library.listed(raw)?.id == raw)
        #expect(index.row("IMG_0001.xmp")?.role == .undecided)
        // Turned on: grouped at once (the RAW's id, no longer listed, is not reused).
        try index.library.setGroupSettings(GroupSettings(), root: index.root)
        #expect(index.library.listed(jpeg)?.name == "IMG_0001.JPG")
        #expect(index.library.listed(raw) == nil)
        #expect(index.row("IMG_0001.xmp")?.role == .sidecar)
    }

    @Test func aFailedTransactionLeavesTheGroupsAsTheyWere() throws {
        let index = try Index()
        let jpeg = try index.add("IMG_0001.JPG")
        let before = index.shape()
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try index.library.batch {
                try index.add("IMG_0001.CR2")
                try index.add("IMG_0001.xmp")
                throw Boom()
            }
        }
        #expect(index.shape() == before)
        #expect(index.library.rows(ofGroup: jpeg) == [jpeg])
        #expect(index.library.groupLinks.isEmpty)
        try index.reopen()
        #expect(index.shape() == before)
    }

    /// Events regroup only the shots their names can touch (a folder of thousands
    /// must not be grouped whole per file); whatever the order of comings and
    /// goings, the index must then agree with grouping the whole folder afresh.
    @Test func regroupingOnlyTheShotsAnEventTouchesAgreesWithGroupingTheWholeFolder() throws {
        let index = try Index()
        try index.library.batch {
            for n in 0..<200 { try index.add(ByteString("DSC_\(1000 + n).JPG")) }
        }
        let pool: [ByteString] = ["IMG_0001.JPG", "IMG_0001.CR2", "img_0001.cr2", "IMG_0001.xmp", "IMG_0001.CR2.xmp",
                                  "IMG_0001_01.CR2.xmp", "IMG_0001_01.CR2", "IMG_0001.HEIC", "IMG_0001.MOV", "IMG_0002.NEF",
                                  "IMG_0002.nef.xmp", "IMG_0002.JPG", "DSC_1003.NEF", "DSC_1004.xmp", "IMG_0001.AAE"]
        var generator = SystemRandomNumberGenerator()
        for step in 0..<300 {
            let name = pool[Int.random(in: 0..<pool.count, using: &generator)]
            if let id = index.id(name) {
                _ = try index.library.remove(id)
            } else {
                try index.add(name)
            }
            let names = index.library.members(ofFolder: index.folder).map(\.name)
            let expected = PhotoGrouping.group(names: names)
            var roles: [ByteString: GroupRole] = [:]
            var together: [ByteString: Int] = [:]
            for (number, group) in expected.groups.enumerated() {
                for member in group.members {
                    roles[member.name] = member.kind == .sidecar ? .sidecar : member.name == group.shown.name ? .shown : .member
                    together[member.name] = number
                }
            }
            for name in expected.orphans { roles[name] = .orphan }
            for name in expected.undecided { roles[name] = .undecided }
            // The pool's names and two bystanders (the other 198 are alike).
            let watched = names.filter { pool.contains($0) || $0 == "DSC_1003.JPG" || $0 == "DSC_1004.JPG" }
            for name in watched {
                let row = try #require(index.row(name))
                #expect(row.role == roles[name], "step \(step): \(name)")
                for other in watched where other != name && together[other] != nil {
                    let sameGroup = index.row(other)?.groupID == row.groupID
                    #expect(sameGroup == (together[other] == together[name]), "step \(step): \(name) and \(other)")
                }
            }
            if step % 50 == 0 {
                // A listed group's rows are exactly those bearing its id.
                for name in watched where roles[name] == .shown {
                    let row = try #require(index.row(name))
                    #expect(Set(index.library.rows(ofGroup: row.groupID)) == Set(names.compactMap { index.id($0) }.filter {
                        index.library.photo($0)?.groupID == row.groupID
                    }))
                }
            }
        }
        #expect(index.library.groupKeys[index.folder] != nil, "events regrouped the folder in part")
    }

    /// A regrouping changes rows in place (`setGroup`): a transaction that fails
    /// afterwards puts each row's group and role back, its group's rows and the
    /// root's listed count with them.
    @Test func aFailedTransactionPutsTheGroupsItChangedBack() throws {
        let index = try Index()
        let jpeg = try index.add("IMG_0001.JPG")
        let raw = try index.add("IMG_0001.CR2")
        let shape = index.shape()
        let listed = index.library.listedByRoot[index.root]
        #expect(index.row("IMG_0001.CR2")?.groupID == jpeg && index.row("IMG_0001.CR2")?.role == .member)
        #expect(throws: ScratchError.self) {
            try index.library.batch {
                try index.library.setGroup(raw, group: raw, role: .shown)  // split off
                try index.library.setGroup(jpeg, group: raw, role: .member)  // and the other way round
                #expect(index.row("IMG_0001.JPG")?.groupID == raw && index.library.listedByRoot[index.root] == listed)
                throw ScratchError("fails after the regrouping")
            }
        }
        #expect(index.shape() == shape)
        #expect(index.row("IMG_0001.CR2")?.groupID == jpeg && index.row("IMG_0001.CR2")?.role == .member)
        #expect(index.row("IMG_0001.JPG")?.groupID == jpeg && index.row("IMG_0001.JPG")?.role == .shown)
        #expect(Set(index.library.rows(ofGroup: jpeg)) == [jpeg, raw])
        #expect(index.library.listedByRoot[index.root] == listed)
        ViewPositionsTests.expectCountsMatchRows(index.library, "after the rollback")
        // A split alone changes the folder's listed count; its rollback puts it back.
        let counts = index.library.listedByFolder
        #expect(throws: ScratchError.self) {
            try index.library.batch {
                try index.library.setGroup(raw, group: raw, role: .shown)
                #expect(index.library.listedByFolder != counts)
                throw ScratchError("fails after the split")
            }
        }
        #expect(index.library.listedByFolder == counts)
        ViewPositionsTests.expectCountsMatchRows(index.library, "after the split's rollback")
    }

    /// A scan's step regroups a folder from a pass over its names that leaves out
    /// the photos alone (`ungrouped(in:touching:)`): whatever a transaction of many
    /// comings, goings and renames did, grouping every row of the folder afresh
    /// afterwards must change nothing.
    @Test func regroupingWithoutThePhotosAloneLeavesWhatGroupingEverythingWould() throws {
        let index = try Index()
        let pool: [ByteString] = ["IMG_0001.JPG", "IMG_0001.CR2", "img_0001.cr2", "IMG_0001.xmp", "IMG_0001.CR2.xmp",
                                  "IMG_0001_01.CR2.xmp", "IMG_0001_01.CR2", "IMG_0001.HEIC", "IMG_0001.MOV", "IMG_0002.NEF",
                                  "IMG_0002.nef.xmp", "IMG_0002.JPG", "DSC_1003.NEF", "DSC_1003.JPG", "DSC_1004.xmp",
                                  "DSC_1004.JPG", "IMG_0001.AAE", "holiday.jpg", "holiday.xmp", "alone.jpg", "IMG_0003.JPG"]
        var random = SplitMix64(seed: 15)
        var regroupedInPart = 0
        for step in 0..<400 {
            try index.library.batch {
                // Enough names a transaction that the folder is passed over whole.
                for _ in 0..<Int.random(in: 2...6, using: &random) {
                    let name = pool[Int.random(in: 0..<pool.count, using: &random)]
                    guard let id = index.id(name) else {
                        try index.add(name)
                        continue
                    }
                    if Bool.random(using: &random) {
                        _ = try index.library.remove(id)
                    } else {
                        // Renamed (over whatever has that name) to a name of its type.
                        let alike = pool.filter { PhotoType.detectFile(name: $0) == PhotoType.detectFile(name: name) }
                        let to = alike[Int.random(in: 0..<alike.count, using: &random)]
                        _ = try index.library.move(id, toFolder: index.folder, name: to)
                    }
                }
                let all = index.library.memberCount(ofFolder: index.folder)
                regroupedInPart += index.library.ungrouped(in: index.folder, touching: nil).count < all ? 1 : 0
            }
            _ = index.library.takeShifts()
            try index.library.batch {
                try index.library.regroup(folder: index.folder, rows: index.library.photoIDs(inFolder: index.folder))
            }
            let shifts = index.library.takeShifts()
            #expect(shifts.isEmpty, "step \(step): \(shifts.map { "\(index.library.photo($0.id)?.name.lossyString ?? "?") \($0.fromRole)->\($0.toRole)" })")
        }
        #expect(regroupedInPart > 100, "photos alone were left out")
    }

    @Test func thePassOverAFolderLeavesOutPhotosAloneAndShotsNoNameTouches() throws {
        let index = try Index()
        try index.library.batch {
            for name in ["IMG_0001.JPG", "IMG_0001.CR2", "IMG_0002.JPG", "IMG_0002.xmp", "IMG_0003.JPG", "img_0004.jpg",
                         "IMG_0004.CR2.xmp", "IMG_0005_01.NEF.xmp", "IMG_0005.NEF", "lone.xmp", "a.jpg", "b.jpg"] as [ByteString] {
                try index.add(name)
            }
        }
        let names = { (touching: Set<ByteString>?) in
            let bases = touching.map { Set($0.compactMap { ShotKeys($0) }.flatMap(\.digests)) }
            return Set(index.library.ungrouped(in: index.folder, touching: bases).compactMap { index.library.photo($0)?.name.lossyString })
        }
        #expect(names(nil) == ["IMG_0001.JPG", "IMG_0001.CR2", "IMG_0002.JPG", "IMG_0002.xmp", "img_0004.jpg",
                               "IMG_0004.CR2.xmp", "IMG_0005_01.NEF.xmp", "IMG_0005.NEF", "lone.xmp"])
        #expect(names(["IMG_0001.CR2"]) == ["IMG_0001.JPG", "IMG_0001.CR2"])
        #expect(names(["IMG_0005.NEF"]) == ["IMG_0005_01.NEF.xmp", "IMG_0005.NEF"], "through a duplicate's sidecar")
        #expect(names(["IMG_0003.JPG", "a.jpg"]).isEmpty, "photos alone, as grouping would leave them")
        #expect(names(["IMG_0004.JPG"]) == ["img_0004.jpg", "IMG_0004.CR2.xmp"], "a name gone still touches its shot")
        // A photo alone by name but still bearing a group's id is grouped again.
        let jpeg = try #require(index.id("IMG_0001.JPG"))
        let raw = try #require(index.id("IMG_0001.CR2"))
        _ = try index.library.move(jpeg, toFolder: index.folder, name: "renamed.jpg")
        #expect(index.row("IMG_0001.CR2")?.groupID == raw)
        try index.library.setGroup(raw, group: jpeg, role: .member)
        #expect(names(nil).contains("IMG_0001.CR2"))
    }

    /// A row added and grouped in one transaction (a RAW beside its JPEG, a
    /// sidecar) is written once, with its group: a cold scan wrote a fifth of its
    /// rows twice.
    @Test func aRowGroupedInTheTransactionThatAddedItIsWrittenOnce() throws {
        let index = try Index()
        let before = index.library.storeWrites
        try index.library.batch {
            for name in ["IMG_0001.JPG", "IMG_0001.CR2", "IMG_0001.CR2.xmp", "IMG_0002.JPG"] as [ByteString] { try index.add(name) }
        }
        #expect(index.library.storeWrites - before == 4)
        let shape = index.shape()
        #expect(shape["IMG_0001.CR2"] == "IMG_0001.JPG member")
        try index.reopen()
        #expect(index.shape() == shape, "what was written is the grouped row")
        // A row changed, then taken out in the same transaction, is not written back.
        let raw = try #require(index.id("IMG_0001.CR2"))
        let writes = index.library.storeWrites
        try index.library.batch {
            try index.library.setCapture(raw, .known(5))
            _ = try index.library.remove(raw)
        }
        #expect(index.library.storeWrites - writes <= 3, "the delete, and the JPEG and sidecar regrouped")
        try index.reopen()
        #expect(index.row("IMG_0001.CR2") == nil)
        #expect(index.shape() == ["IMG_0001.JPG": "IMG_0001.JPG shown", "IMG_0001.CR2.xmp": "IMG_0001.CR2.xmp orphan",
                                  "IMG_0002.JPG": "IMG_0002.JPG shown"])
    }

    @Test func anIndexFromBeforeGroupsIsMigratedAndGroupedKeepingItsIDs() throws {
        let dir = try ScratchDirectory()
        let path = dir.child("index.sqlite").lossyString
        do {
            // Version 1's photos table, as that daemon wrote it.
            let database = try Database(path: path, durability: .normal)
            try database.execute("""
                CREATE TABLE roots(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, path BLOB NOT NULL, device INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE folders(id INTEGER PRIMARY KEY, root INTEGER NOT NULL, path BLOB NOT NULL);
                CREATE TABLE photos(id INTEGER PRIMARY KEY, folder INTEGER NOT NULL, name BLOB NOT NULL,
                    size INTEGER NOT NULL, mtime INTEGER NOT NULL, dev INTEGER NOT NULL, ino INTEGER NOT NULL,
                    type TEXT NOT NULL, capture INTEGER NOT NULL, rank INTEGER NOT NULL);
                CREATE TABLE sessions(uid INTEGER NOT NULL, name TEXT NOT NULL, state BLOB NOT NULL, PRIMARY KEY(uid, name)) WITHOUT ROWID;
                CREATE TABLE meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
                INSERT INTO roots VALUES(1, 'pics', x'2f70', 0);
                INSERT INTO folders VALUES(1, 1, x'');
                INSERT INTO photos VALUES(7, 1, CAST('IMG_0001.CR2' AS BLOB), 10, 1, 1, 7, 'cr2', 0, 1);
                INSERT INTO photos VALUES(8, 1, CAST('IMG_0001.JPG' AS BLOB), 10, 1, 1, 8, 'jpeg', 0, 2);
                INSERT INTO photos VALUES(9, 1, CAST('other.jpg' AS BLOB), 10, 1, 1, 9, 'jpeg', 0, 3);
                INSERT INTO sessions VALUES(1000, 'mine', x'7b7d');
                """)
            try database.setUserVersion(1)
        }
        let store = try IndexStore(path: path)
        #expect(try store.database.userVersion() == IndexStore.schemaVersion)
        #expect(try store.loadSessions().map(\.name) == ["mine"], "sessions survive the migration")
        let library = try PhotoLibrary(store: store)
        #expect(library.photos.count == 3)
        try library.setGroupSettings(GroupSettings(), root: 1)
        #expect(library.listed(8)?.name == "IMG_0001.JPG", "the shown photo's id, though the RAW's is older")
        #expect(library.listed(7) == nil)
        #expect(library.listed(9)?.name == "other.jpg")
        // Recorded: the next start does not group again.
        let again = try PhotoLibrary(store: IndexStore(path: path))
        try again.setGroupSettings(GroupSettings(), root: 1)
        #expect(again.storeWrites == 0)
        #expect(again.listed(8)?.name == "IMG_0001.JPG")
    }
}
