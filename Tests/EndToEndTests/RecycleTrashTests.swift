// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// `trash: "recycle"` (issue 13): a root's trashed photos go to
/// `<root>/.recycle/<user name>/<original relative path>`, a suffix on a name
/// clash, the folders the user's, not indexed; journaled, undoable and crash-safe
/// like the freedesktop trash.
@Suite(.serialized)
struct RecycleTrashTests {
    /// A daemon whose root `pics` has `trash: "recycle"` (and `extra` root settings).
    static func daemon(_ extra: String = "") -> Daemon {
        let d = Daemon()
        let config = d.home.sub("curatord.json5")
        Files.write(config, """
            { roots: [ { name: "pics", path: "\(d.root())", trash: "recycle"\(extra) } ] }
            """)
        d.configPath = config
        return d
    }

    static func owner(_ path: String) -> (uid: UInt32, gid: UInt32, mode: mode_t)? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return (st.st_uid, st.st_gid, st.st_mode & 0o7777)
    }

    @Test func photosGoToTheUsersRecycleFolderKeepingTheirPathsAndComeBack() throws {
        let d = Self.daemon()
        let photos = try PhotoSet.make(in: d.root(), count: 4, folders: ["2024/05", "2024/06"])
        // A photo of the same name is already in the recycle folder: ours gets a suffix.
        let recycle = d.root() + "/.recycle/root"
        try FileManager.default.createDirectory(atPath: recycle + "/2024/05", withIntermediateDirectories: true)
        Files.write(recycle + "/2024/05/IMG_0001.JPG", "an older one")
        try d.start()
        let c = try d.client()
        let ids = try c.idsByPath()
        #expect(Set(ids.keys) == Set(photos.relativePaths), "the recycle folder is not indexed: \(ids.keys.sorted())")
        try c.select("1-4")
        let result = try c.confirm(try c.prepare())
        #expect(result["trashed"] as? Int == 4, "\(result)")
        for path in photos.relativePaths {
            #expect(!Files.exists(photos.absolute(path)))
        }
        let expected = ["2024/05/IMG_0001.2.JPG": "2024/05/IMG_0001.JPG", "2024/05/IMG_0003.JPG": "2024/05/IMG_0003.JPG",
                        "2024/06/IMG_0002.JPG": "2024/06/IMG_0002.JPG", "2024/06/IMG_0004.JPG": "2024/06/IMG_0004.JPG"]
        for (there, original) in expected {
            #expect(try Checksum.sha256(recycle + "/" + there) == photos.digests[original], "\(there) is \(original)")
        }
        #expect(Files.read(recycle + "/2024/05/IMG_0001.JPG") == "an older one", "the older one is left alone")
        #expect(TrashSnapshot(d.trashDirectory).entries.isEmpty, "nothing in the freedesktop trash")
        #expect(Self.owner(d.root() + "/.recycle")?.mode == 0o755, "everyone may reach their own folder")
        #expect(try c.idsByPath().isEmpty, "trashed photos leave the index, the recycle folder is not indexed")

        let undo = try d.ctl(["undo"])
        #expect(undo.status == 0, "\(undo.stdout) \(undo.stderr)")
        #expect(try photos.allBack().isEmpty)
        #expect(Files.read(recycle + "/2024/05/IMG_0001.JPG") == "an older one")
        try c.sync()
        #expect(try c.idsByPath() == ids, "back under their former ids")
    }

    /// Another user's photos go to a folder of theirs, with the configured group.
    @Test func anotherUsersRecycleFolderIsTheirsWithTheGroup() throws {
        guard getuid() == 0, Tool.exists("/usr/bin/setpriv") else {
            print("skipped: needs root and setpriv to act as another uid")
            return
        }
        let uid: UInt32 = 4244
        let d = Self.daemon(", recycle_group: \"\(Self.someGroup().name)\"")
        let group = Self.someGroup().gid
        let mine = d.home.mkdir("pics/theirs")
        chown(mine, uid, uid)
        Files.write(mine + "/x.jpg", "their photo")
        chown(mine + "/x.jpg", uid, uid)
        try d.start()
        d.letOtherUsersConnect()
        #expect(try d.ctl(["select", "--all"], asUID: uid).status == 0)
        let rm = try d.ctl(["rm", "--yes"], asUID: uid)
        #expect(rm.status == 0, "\(rm.stdout) \(rm.stderr)")
        // uid 4244 has no name here: its folder is named by the number, as Samba's %U would not be.
        let folder = d.root() + "/.recycle/4244"
        #expect(Files.read(folder + "/theirs/x.jpg") == "their photo")
        for dir in [folder, folder + "/theirs"] {
            let found = Self.owner(dir)
            #expect(found?.uid == uid && found?.gid == group && found?.mode == 0o2770, "\(dir): \(String(describing: found))")
        }
        let undo = try d.ctl(["undo"], asUID: uid)
        #expect(undo.status == 0, "\(undo.stdout) \(undo.stderr)")
        #expect(Files.read(mine + "/x.jpg") == "their photo")
    }

    /// A user's folder of the recycle folder that belongs to someone else is never
    /// used: it is moved aside and made anew (issue 54, item 7), and `status` says so.
    @Test func aRecycleFolderOfSomeoneElseIsMovedAsideAndMadeAnew() throws {
        let d = Self.daemon()
        Files.write(d.root() + "/a.jpg", "a")
        try FileManager.default.createDirectory(atPath: d.root() + "/.recycle/root", withIntermediateDirectories: true)
        chown(d.root() + "/.recycle/root", 4245, 4245)
        try d.start()
        #expect(try d.ctl(["select", "--all"]).status == 0)
        let rm = try d.ctl(["rm", "--yes"])
        #expect(rm.status == 0, "\(rm.stdout)")
        #expect(Files.read(d.root() + "/.recycle/root/a.jpg") == "a")
        #expect(Self.owner(d.root() + "/.recycle/root")?.uid == 0)
        let aside = try FileManager.default.contentsOfDirectory(atPath: d.root() + "/.recycle").filter { $0.hasPrefix("root.moved-") }
        #expect(aside.count == 1 && Self.owner(d.root() + "/.recycle/" + (aside.first ?? ""))?.uid == 4245, "\(aside)")
        let repairs = try d.client().status()["trash_repairs"] as? [String] ?? []
        #expect(repairs.contains { $0.contains(".recycle/root belonged to uid 4245") && $0.contains("moved aside") }, "\(repairs)")
    }

    @Test func checkConfigShowsTheTrashAndRefusesAnUnknownKind() throws {
        let d = Self.daemon(", recycle_keep_days: 30")
        let shown = try Tool.run(Daemon.curatord, ["--check-config", "--config", try #require(d.configPath)], environment: d.environment)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("trash: \"recycle\""), "\(shown.stdout)")
        #expect(shown.stdout.contains("recycle_keep_days: 30"), "\(shown.stdout)")
        Files.write(try #require(d.configPath), "{ roots: [ { path: \"\(d.root())\", trash: \"bin\" } ] }")
        let wrong = try Tool.run(Daemon.curatord, ["--check-config", "--config", try #require(d.configPath)], environment: d.environment)
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("must be \"freedesktop\""), "\(wrong.stderr)")
    }

    /// The first group of the machine other than root's: any will do for ownership.
    static func someGroup() -> (name: String, gid: UInt32) {
        for name in ["users", "staff", "adm", "daemon"] {
            if let entry = getgrnam(name) { return (name, entry.pointee.gr_gid) }
        }
        return ("root", 0)
    }
}

/// A crash at the batch's and undo's steps with a recycle folder: every photo at its
/// path or in the recycle folder (never both, never neither, content intact), then
/// everything undone with its former id.
@Suite(.serialized)
struct RecycleCrashTests {
    static let crashes: [Crash] = [
        Crash(step: "chunk.intent", count: 2), Crash(step: "item.info_written", count: 3),
        Crash(step: "item.info_written", count: 1), Crash(step: "item.renamed", count: 3),
        Crash(step: "chunk.synced", count: 1), Crash(step: "undo.renamed", count: 2), Crash(step: "undo.chunk_synced", count: 1),
    ]

    @Test(arguments: crashes)
    func aCrashWithARecycleFolder(_ crash: Crash) throws {
        let d = RecycleTrashTests.daemon()
        let photos = try PhotoSet.make(in: d.root(), count: 6, folders: ["2024/05", "2024/06"])
        d.extraEnvironment["CURATORD_FAILPOINT"] = crash.spec
        d.extraEnvironment["CURATORD_BATCH_CHUNK"] = "2"
        try d.start()
        let c = try d.client()
        let ids = try c.idsByPath()
        try c.select("1-6")
        let plan = try c.prepare()
        try d.explainingFailures {
            if crash.step.hasPrefix("undo.") {
                #expect(try c.confirm(plan)["trashed"] as? Int == 6)
                #expect(throws: (any Error).self) { try c.undo() }
            } else {
                #expect(throws: (any Error).self) { try c.confirm(plan) }
            }
            try CrashMatrixTests.expectKilled(d, at: crash.spec)
            let again = try CrashMatrixTests.restart(d)
            let recycle = d.root() + "/.recycle/root/"
            var inRecycle = 0
            for path in photos.relativePaths {
                let here = Files.exists(photos.absolute(path))
                let there = Files.exists(recycle + path)
                #expect(here != there, "\(crash.spec): \(path) at its path: \(here), in the recycle folder: \(there)")
                let sum = try Checksum.sha256(here ? photos.absolute(path) : recycle + path)
                #expect(sum == photos.digests[path], "\(crash.spec): \(path) intact")
                if there { inRecycle += 1 }
            }
            #expect(try JournalReader.unsettled(stateDirectory: d.stateDir).isEmpty)
            #expect(try again.history().first?["trashed"] as? Int == (crash.step.hasPrefix("undo.") ? 6 : inRecycle))
            for _ in 0..<5 where (try again.request(["cmd": "undo"]))["ok"] as? Bool == true {}
            #expect(try photos.allBack().isEmpty, "\(crash.spec): not every photo is back")
            try again.sync()
            #expect(try again.idsByPath() == ids, "\(crash.spec): back under their former ids")
        }
    }
}
