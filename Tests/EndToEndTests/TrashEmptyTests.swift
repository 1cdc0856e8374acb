// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// `curatorctl trash list` / `trash empty` and `trash.list` / `trash.empty` (issue 13):
/// the asking user's trashed photos of either kind, emptied exactly as listed, asked
/// like a delete, journaled; `recycle_keep_days` applied by the daemon.
@Suite(.serialized)
struct TrashEmptyTests {
    /// Two roots: `pics` (freedesktop, the test's home trash) and `shared` (recycle).
    static func daemon(_ sharedExtra: String = "") throws -> (Daemon, PhotoSet, PhotoSet) {
        let d = Daemon(roots: ["pics", "shared"])
        let config = d.home.sub("curatord.json5")
        Files.write(config, """
            { roots: [ { name: "pics", path: "\(d.root())" },
                       { name: "shared", path: "\(d.root("shared"))", trash: "recycle"\(sharedExtra) } ] }
            """)
        d.configPath = config
        let pics = try PhotoSet.make(in: d.root(), count: 3)
        let shared = try PhotoSet.make(in: d.root("shared"), count: 2, prefix: "S_")
        return (d, pics, shared)
    }

    static func trashAll(_ d: Daemon) throws {
        #expect(try d.ctl(["view", "pics"]).status == 0)
        #expect(try d.ctl(["select", "--all"]).status == 0)
        #expect(try d.ctl(["rm", "--yes"]).status == 0)
        #expect(try d.ctl(["view", "shared"]).status == 0)
        #expect(try d.ctl(["select", "--all"]).status == 0)
        #expect(try d.ctl(["rm", "--yes"]).status == 0)
    }

    /// A photo trash-restore put back meanwhile is no longer listed (issue 48, 14);
    /// the rest still are, and emptying them takes that one as `missing`.
    @Test func aPhotoTrashRestorePutBackIsNoLongerListed() throws {
        let (d, _, _) = try Self.daemon()
        try d.start()
        try Self.trashAll(d)
        let photo = d.root() + "/2024/05/IMG_0001.JPG"
        #expect(!Files.exists(photo))
        let restore = try Command.run("/bin/sh", ["-c", "echo 0 | trash-restore \"$0\"", photo],
                                      environment: ["HOME": d.home.path, "XDG_DATA_HOME": d.dataHome, "PATH": "/usr/bin:/bin"])
        try #require(Files.exists(photo), "trash-restore put it back: \(restore.output)")
        let list = try d.ctl(["trash", "list"])
        #expect(list.status == 0 && list.stdout.contains("4 photos") && !list.stdout.contains("IMG_0001.JPG"), "\(list.stdout)")
        let yes = try d.ctl(["trash", "empty", "--yes"])
        #expect(yes.status == 0 && yes.stdout.contains("4 photos emptied"), "\(yes.stdout) \(yes.stderr)")
        #expect(Files.exists(photo), "the photo put back stays where it is")
    }

    @Test func listShowsBothKindsAndEmptyRemovesExactlyThem() throws {
        let (d, pics, shared) = try Self.daemon()
        try d.start()
        try Self.trashAll(d)
        let list = try d.ctl(["trash", "list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("5 photos"), "\(list.stdout)")
        #expect(list.stdout.contains("freedesktop: \(d.trashDirectory)/files/IMG_0001.JPG"), "\(list.stdout)")
        #expect(list.stdout.contains("recycle: \(d.root("shared"))/.recycle/root/2024/05/S_0001.JPG"), "\(list.stdout)")
        let onlyShared = try DeletePermissionTests.lastObject(try d.ctl(["--json", "trash", "list", "--root", "shared"]).stdout)
        #expect((onlyShared["result"] as? [String: Any])?["count"] as? Int == 2, "\(onlyShared)")
        // Nothing is older than a day yet: said so, with what is there for less (issue 48, 14).
        let older = try d.ctl(["trash", "list", "--older-than", "1d"])
        #expect(older.status == 0 && older.stdout.contains(
            "Nothing of yours has been in the trash for 1 day or more; 5 photos are there for less (curatorctl trash list)."),
            "\(older.stdout)")

        // No is no.
        let no = try d.ctl(["trash", "empty"], input: "n\n")
        #expect(no.status == 5)
        #expect(no.stdout.contains("Delete 5 photos"), "\(no.stdout)")
        #expect(TrashSnapshot(d.trashDirectory).entries.count == 3)

        let yes = try d.ctl(["trash", "empty", "--yes"])
        #expect(yes.status == 0, "\(yes.stdout) \(yes.stderr)")
        #expect(yes.stdout.contains("5 photos emptied"), "\(yes.stdout)")
        let trash = TrashSnapshot(d.trashDirectory)
        #expect(trash.entries.isEmpty && trash.files.isEmpty && trash.orphans.isEmpty, "the files and their .trashinfo went")
        for path in shared.relativePaths {
            #expect(!Files.exists(d.root("shared") + "/.recycle/root/" + path))
        }
        #expect(try pics.allBack().count == 3, "nothing came back")
        #expect(try d.ctl(["trash", "list"]).stdout.contains("Nothing of yours is in the trash."))
        let undo = try d.ctl(["undo"])
        #expect(undo.status != 0, "emptied photos cannot be undone")
        let history = try d.ctl(["history"])
        #expect(history.stdout.split(separator: "\n").count == 2, "the batches keep their history: \(history.stdout)")
        let items = try JournalReader.items(stateDirectory: d.stateDir, batch: 1)
        #expect(items.allSatisfy { $0.state == "gone" && $0.outcome == "emptied" }, "\(items)")
    }

    /// A photo trashed after the list was shown makes its token stale: nothing is emptied.
    @Test func aListThatChangedIsNotEmptied() throws {
        let (d, _, _) = try Self.daemon()
        try d.start()
        #expect(try d.ctl(["view", "pics"]).status == 0)
        #expect(try d.ctl(["rm", "--yes", "--photo", "pics/2024/05/IMG_0001.JPG"]).status == 0)
        let c = try d.client()
        let listed = try c.result(["cmd": "trash.list"])
        let token = try #require(listed["token"] as? String)
        #expect(try d.ctl(["rm", "--yes", "--photo", "pics/2024/05/IMG_0002.JPG"]).status == 0)
        #expect(try c.errorCode(["cmd": "trash.empty", "token": token]) == "token_invalid")
        #expect(try c.errorCode(["cmd": "trash.empty"]) == "invalid_argument")
        #expect(TrashSnapshot(d.trashDirectory).entries.count == 2)
        // Another user sees none of it, and empties none of it.
        guard getuid() == 0, Tool.exists("/usr/bin/setpriv") else { return }
        d.letOtherUsersConnect()
        let theirs = try d.ctl(["trash", "list"], asUID: 4246)
        #expect(theirs.stdout.contains("Nothing of yours is in the trash."), "\(theirs.stdout)")
        #expect(try d.ctl(["trash", "empty", "--yes"], asUID: 4246).status == 0)
        #expect(TrashSnapshot(d.trashDirectory).entries.count == 2)
    }

    /// A photo that something else replaced in the trash is left alone, and said.
    @Test func aFileThatIsNoLongerThePhotoIsLeftAlone() throws {
        let (d, _, _) = try Self.daemon()
        try d.start()
        #expect(try d.ctl(["view", "pics"]).status == 0)
        #expect(try d.ctl(["rm", "--yes", "--photo", "pics/2024/05/IMG_0001.JPG"]).status == 0)
        let trash = TrashSnapshot(d.trashDirectory)
        let entry = try #require(trash.entries.first)
        // Rewritten in place: the same inode (as a new file may get again), not the same photo.
        let handle = try #require(FileHandle(forWritingAtPath: trash.filePath(entry.name)))
        try handle.truncate(atOffset: 0)
        handle.write(Data("someone else's".utf8))
        try handle.close()
        let empty = try d.ctl(["trash", "empty", "--yes"])
        #expect(empty.status == 6, "\(empty.stdout) \(empty.stderr)")
        #expect(empty.stdout.contains("changed"), "\(empty.stdout)")
        #expect(Files.read(trash.filePath(entry.name)) == "someone else's")
    }

    /// `recycle_keep_days`: the daemon empties what was trashed from that root longer
    /// ago, for every user, and nothing from a root without it.
    @Test func keepDaysEmptiesWhatIsOlder() throws {
        let (d, _, shared) = try Self.daemon(", recycle_keep_days: 30")
        try d.start()
        try Self.trashAll(d)
        d.stop()
        // Batch 1 (pics) and batch 2 (shared) made 40 days old; a third, new, in shared.
        let journal = d.stateDir + "/journal.sqlite"
        let aged = try Tool.run("/usr/bin/python3", ["-c", """
            import sqlite3, sys, time
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE batches SET created_ns = ? WHERE id IN (1, 2)", (int((time.time() - 40 * 86400) * 1e9),))
            db.commit()
            """, journal])
        #expect(aged.status == 0, "\(aged.stderr)")
        Files.write(d.root("shared") + "/fresh.jpg", "fresh")
        d.extraEnvironment["CURATORD_EXPIRY_FIRST_SECONDS"] = "3600"
        try d.start()
        #expect(try d.ctl(["rm", "--yes", "--photo", "shared/fresh.jpg"]).status == 0)
        d.stop()
        d.extraEnvironment["CURATORD_EXPIRY_FIRST_SECONDS"] = "0"
        try d.start()
        try eventually(timeout: 15, "the old recycle folder emptied") {
            !Files.exists(d.root("shared") + "/.recycle/root/" + shared.relativePaths[0])
        }
        #expect(!Files.exists(d.root("shared") + "/.recycle/root/" + shared.relativePaths[1]))
        #expect(Files.read(d.root("shared") + "/.recycle/root/fresh.jpg") == "fresh", "newer than 30 days: kept")
        #expect(TrashSnapshot(d.trashDirectory).entries.count == 3, "pics has no recycle_keep_days")
        try eventually(timeout: 5, "the log says so") { d.logText.contains("recycle_keep_days: emptied 2 photos") }
    }
}

/// A crash while emptying: the next start finishes it from the disk (nothing emptied
/// twice, nothing listed that is gone, no .trashinfo left without its file).
@Suite(.serialized)
struct TrashEmptyCrashTests {
    @Test(arguments: [Crash(step: "empty.intent", count: 1), Crash(step: "empty.removed", count: 2),
                      Crash(step: "empty.synced", count: 1)])
    func aCrashWhileEmptying(_ crash: Crash) throws {
        let (d, _, shared) = try TrashEmptyTests.daemon()
        try d.start()
        try TrashEmptyTests.trashAll(d)
        d.stop()
        d.extraEnvironment["CURATORD_FAILPOINT"] = crash.spec
        try d.start()
        let c = try d.client()
        let token = try #require(try c.result(["cmd": "trash.list"])["token"] as? String)
        try d.explainingFailures {
            #expect(throws: (any Error).self) { try c.request(["cmd": "trash.empty", "token": token]) }
            try CrashMatrixTests.expectKilled(d, at: crash.spec)
            let again = try CrashMatrixTests.restart(d)
            #expect(try JournalReader.unsettled(stateDirectory: d.stateDir).isEmpty)
            let trash = TrashSnapshot(d.trashDirectory)
            #expect(trash.orphans.isEmpty, "\(crash.spec): \(trash.orphans)")
            let listed = try again.result(["cmd": "trash.list"])
            let left = (listed["photos"] as? [[String: Any]])?.compactMap { $0["location"] as? String } ?? []
            for location in left { #expect(Files.exists(location), "\(crash.spec): listed but gone: \(location)") }
            // Emptying again finishes the job.
            let token2 = try #require(listed["token"] as? String)
            #expect(try again.request(["cmd": "trash.empty", "token": token2])["ok"] as? Bool == true)
            #expect(TrashSnapshot(d.trashDirectory).entries.isEmpty)
            for path in shared.relativePaths { #expect(!Files.exists(d.root("shared") + "/.recycle/root/" + path)) }
        }
    }
}
