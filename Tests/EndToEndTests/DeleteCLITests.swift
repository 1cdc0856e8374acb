// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// `curatorctl rm`, `undo` and `history` (issue 4 point 8): the plan shown like the
/// article's alert, `n` changes nothing, `y` and `--yes` carry it out.
@Suite(.serialized)
struct DeleteCLITests {
    /// Five photos of 1 500 bytes each, so that sizes print predictably.
    static func daemon() throws -> (Daemon, PhotoSet) {
        let d = Daemon()
        try FileManager.default.createDirectory(atPath: d.root() + "/2024/05", withIntermediateDirectories: true)
        let names = (1...5).map { String(format: "2024/05/IMG_%04d.JPG", $0) }
        for (i, name) in names.enumerated() {
            Files.write(d.root() + "/" + name, String(repeating: Character(UnicodeScalar(UInt8(97 + i))), count: 1500))
        }
        let photos = try PhotoSet(root: d.root(), relativePaths: names)
        try d.start()
        return (d, photos)
    }

    @Test func rmShowsThePlanAndNoChangesNothing() throws {
        let (d, photos) = try Self.daemon()
        #expect(try d.ctl(["select", "4", "2"]).status == 0)
        let no = try d.ctl(["rm"], input: "n\n")
        #expect(no.status != 0)
        #expect(no.stdout.contains("Move 2 photos, 3.0 kB, to the trash?"), "\(no.stdout)")
        let lines = no.stdout.split(separator: "\n").map(String.init)
        let shown = lines.filter { $0.contains("IMG_") }
        #expect(shown.count == 2)
        #expect(shown.first?.contains("pics/2024/05/IMG_0004.JPG") == true, "highest position first")
        #expect(shown.last?.contains("pics/2024/05/IMG_0002.JPG") == true)
        #expect(no.stderr.contains("[y/N]"))
        #expect(try photos.allBack().isEmpty)
        #expect(TrashSnapshot(d.trashDirectory).entries.isEmpty)
        // Nothing changed, not even the selection; and no answer at all is a no too.
        #expect(try d.client().result(["cmd": "selection"])["count"] as? Int == 2)
        let silent = try d.ctl(["rm"], input: "")
        #expect(silent.status != 0)
        #expect(try photos.allBack().isEmpty)
        #expect(try d.client().history().isEmpty)
    }

    @Test func rmWithYesCarriesItOut() throws {
        let (d, photos) = try Self.daemon()
        #expect(try d.ctl(["select", "4", "2"]).status == 0)
        let yes = try d.ctl(["rm"], input: "y\n")
        #expect(yes.status == 0, "\(yes.stderr)")
        #expect(yes.stdout.contains("Batch 1: 2 photos moved to the trash (3.0 kB)."), "\(yes.stdout)")
        #expect(yes.stdout.contains("curatorctl undo 1"))
        let census = try photos.census(trash: d.trashDirectory)
        #expect(census.problems.isEmpty, "\(census.problems)")
        #expect(Set(census.inTrash.keys) == ["2024/05/IMG_0002.JPG", "2024/05/IMG_0004.JPG"])

        #expect(try d.ctl(["select", "1"]).status == 0)
        let scripted = try d.ctl(["rm", "--yes"])
        #expect(scripted.status == 0, "\(scripted.stderr)")
        #expect(!scripted.stderr.contains("[y/N]"), "--yes does not ask")
        #expect(scripted.stdout.contains("Batch 2: 1 photo moved to the trash (1.5 kB)."), "\(scripted.stdout)")
        #expect(try photos.census(trash: d.trashDirectory).inTrash.count == 3)
    }

    @Test func rmPhotoDeletesExactlyOnePhotoByIdOrPath() throws {
        let (d, photos) = try Self.daemon()
        let ids = try d.client().idsByPath()
        #expect(try d.ctl(["select", "1", "2"]).status == 0)
        let byID = try d.ctl(["rm", "--yes", "--photo", String(try #require(ids["2024/05/IMG_0005.JPG"]))])
        #expect(byID.status == 0, "\(byID.stderr)")
        #expect(byID.stdout.contains("Move 1 photo, 1.5 kB, to the trash?"), "\(byID.stdout)")
        var census = try photos.census(trash: d.trashDirectory)
        #expect(census.problems.isEmpty, "\(census.problems)")
        #expect(Array(census.inTrash.keys) == ["2024/05/IMG_0005.JPG"])
        // The selection was not the plan: it is still there, untouched.
        #expect(try d.client().result(["cmd": "selection"])["count"] as? Int == 2)

        let byPath = try d.ctl(["rm", "--photo", photos.absolute("2024/05/IMG_0003.JPG")], input: "y\n")
        #expect(byPath.status == 0, "\(byPath.stderr)")
        census = try photos.census(trash: d.trashDirectory)
        #expect(Set(census.inTrash.keys) == ["2024/05/IMG_0005.JPG", "2024/05/IMG_0003.JPG"])
        let byRootName = try d.ctl(["rm", "--yes", "--photo", "pics/2024/05/IMG_0004.JPG"])
        #expect(byRootName.status == 0, "\(byRootName.stderr)")
        #expect(try photos.census(trash: d.trashDirectory).inTrash.count == 3)
        #expect(try d.ctl(["rm", "--yes", "--photo", "pics/2024/05/NOPE.JPG"]).status != 0)
        #expect(try photos.census(trash: d.trashDirectory).inTrash.count == 3)
    }

    @Test func undoAndHistory() throws {
        let (d, photos) = try Self.daemon()
        #expect(try d.ctl(["history"]).stdout.contains("No batches yet."))
        #expect(try d.ctl(["select", "1-3"]).status == 0)
        #expect(try d.ctl(["rm", "--yes"]).status == 0)
        #expect(try d.ctl(["select", "1"]).status == 0)
        #expect(try d.ctl(["rm", "--yes"]).status == 0)

        let history = try d.ctl(["history"])
        #expect(history.status == 0)
        let rows = history.stdout.split(separator: "\n").map(String.init)
        #expect(rows.count == 2)
        #expect(rows.first?.hasPrefix("    2") == true, "newest first: \(rows)")
        #expect(rows.first?.contains("1/1 photo trashed") == true)
        #expect(rows.last?.contains("3/3 photos trashed, 0 restored, 4.5 kB") == true, "\(rows)")
        #expect(rows.allSatisfy { $0.contains("done") })

        let latest = try d.ctl(["undo"])
        #expect(latest.status == 0, "\(latest.stderr)")
        #expect(latest.stdout.contains("Batch 2: 1 photo put back."), "\(latest.stdout)")
        let first = try d.ctl(["undo", "1"])
        #expect(first.stdout.contains("Batch 1: 3 photos put back."), "\(first.stdout)")
        #expect(try photos.allBack().isEmpty)
        let after = try d.ctl(["history"]).stdout
        #expect(after.components(separatedBy: "undone").count == 3, "\(after)")
        let again = try d.ctl(["undo", "1"])
        #expect(again.status != 0)
        #expect(!again.stderr.isEmpty)
        #expect(try d.ctl(["undo", "99"]).status != 0)
    }
}

/// Honest exits (issue 13, item 3): a batch or an undo that did nothing, or only
/// part of it, is not a success for a script, and a batch that moved nothing has
/// nothing to undo.
@Suite(.serialized)
struct HonestExitTests {
    @Test func rmThatMovesNothingFailsWithTheReasonsAndNoUndoHint() throws {
        let (d, photos) = try DeleteCLITests.daemon()
        // The home trash cannot be made: a file stands where it would be.
        Files.write(d.trashDirectory, "not a directory")
        #expect(try d.ctl(["select", "1", "2"]).status == 0)
        let rm = try d.ctl(["rm", "--yes"])
        #expect(rm.status == 6, "\(rm.stdout) \(rm.stderr)")
        #expect(rm.stdout.contains("Batch 1: 0 photos moved to the trash (0 B), 2 skipped:"), "\(rm.stdout)")
        let lines = rm.stdout.split(separator: "\n").filter { $0.contains("IMG_") && $0.contains("no trash") }
        #expect(lines.count == 2, "one line per photo with its reason: \(rm.stdout)")
        #expect(!rm.stdout.contains("Undo with"), "\(rm.stdout)")
        #expect(rm.stderr.contains("nothing was moved to the trash"), "\(rm.stderr)")
        #expect(try photos.allBack().isEmpty)
        // --json: the same status.
        #expect(try d.ctl(["select", "1"]).status == 0)
        #expect(try d.ctl(["--json", "rm", "--yes"]).status == 6)
    }

    @Test func undoThatPutsBackOnlyPartFails() throws {
        let (d, _) = try DeleteCLITests.daemon()
        #expect(try d.ctl(["select", "1", "2"]).status == 0)
        #expect(try d.ctl(["rm", "--yes"]).status == 0)
        let trash = TrashSnapshot(d.trashDirectory)
        let entry = try #require(trash.entries.first)
        Files.remove(trash.filePath(entry.name))
        Files.remove(trash.infoPath(entry.name))
        let undo = try d.ctl(["undo"])
        #expect(undo.status == 7, "\(undo.stdout) \(undo.stderr)")
        #expect(undo.stdout.contains("Batch 1: 1 photo put back, 1 photo no longer in the trash:"), "\(undo.stdout)")
        #expect(undo.stderr.contains("only 1 of 2 photos were put back"), "\(undo.stderr)")
    }

    @Test func undoThatPutsBackNothingFails() throws {
        let (d, _) = try DeleteCLITests.daemon()
        #expect(try d.ctl(["select", "1", "2"]).status == 0)
        #expect(try d.ctl(["rm", "--yes"]).status == 0)
        try FileManager.default.removeItem(atPath: d.trashDirectory)
        let undo = try d.ctl(["undo"])
        #expect(undo.status == 6, "\(undo.stdout) \(undo.stderr)")
        #expect(try d.ctl(["--json", "undo", "1"]).status == 6)
    }
}

/// What curatorctl says when a photo is named the way `ls` shows it, and when undo
/// finds a photo not where it left it (issue 11, item 24).
@Suite(.serialized)
struct UndoReportCLITests {
    /// `rm --photo ROOT/PATH` as `ls` prints it works from anywhere, inside the root
    /// too, where the same text is also a path on disk (pics/pics/a/... does not exist).
    @Test func rmPhotoTakesWhatLsPrintsFromInsideTheRoot() throws {
        let d = Daemon()
        Files.mkdir(d.root() + "/a")
        Files.mkdir(d.root() + "/b")
        Files.write(d.root() + "/a/same.jpg", "a")
        Files.write(d.root() + "/b/same.jpg", "b")
        try d.start()
        let ls = try d.ctl(["ls"])
        #expect(ls.stdout.contains("pics/a/") && ls.stdout.contains("same.jpg"), "\(ls.stdout)")
        let rm = try d.ctl(["rm", "--yes", "--photo", "pics/a/same.jpg"], in: d.root())
        #expect(rm.status == 0, "\(rm.stdout)\(rm.stderr)")
        #expect(!Files.exists(d.root() + "/a/same.jpg") && Files.exists(d.root() + "/b/same.jpg"))
        // A path relative to the working directory still works, and so does one from outside the root.
        let relative = try d.ctl(["rm", "--yes", "--photo", "b/same.jpg"], in: d.root())
        #expect(relative.status == 0, "\(relative.stderr)")
        #expect(!Files.exists(d.root() + "/b/same.jpg"))
        let nothing = try d.ctl(["rm", "--yes", "--photo", "pics/a/nope.jpg"], in: d.root())
        #expect(nothing.status != 0)
        #expect(nothing.stderr.contains("No indexed photo is at pics/a/nope.jpg"), "\(nothing.stderr)")
    }

    /// The trash removed by hand: undo says why nothing came back, and that it can be run again.
    @Test func undoSaysWhyWhenTheTrashIsGone() throws {
        let (d, _) = try DeleteCLITests.daemon()
        #expect(try d.ctl(["select", "1", "2"]).status == 0)
        #expect(try d.ctl(["rm", "--yes"]).status == 0)
        try FileManager.default.removeItem(atPath: d.trashDirectory)
        let undo = try d.ctl(["undo"])
        #expect(undo.stdout.contains("Batch 1: 0 photos put back, 2 photos could not be put back:"), "\(undo.stdout)")
        let lines = undo.stdout.split(separator: "\n").filter { $0.contains("IMG_") }
        #expect(lines.count == 2, "\(undo.stdout)")
        #expect(lines.allSatisfy { $0.contains("could not be put back: ENOENT") && $0.contains(d.trashDirectory) }, "\(undo.stdout)")
        #expect(undo.stdout.contains("`curatorctl undo 1` again"), "\(undo.stdout)")
    }

    /// Purged by hand: the reason is said once, not wrapped in another.
    @Test func undoOfAPurgedPhotoSaysSoOnce() throws {
        let (d, _) = try DeleteCLITests.daemon()
        #expect(try d.ctl(["select", "1"]).status == 0)
        #expect(try d.ctl(["rm", "--yes"]).status == 0)
        let trash = TrashSnapshot(d.trashDirectory)
        let entry = try #require(trash.entries.first)
        Files.remove(trash.filePath(entry.name))
        Files.remove(trash.infoPath(entry.name))
        let undo = try d.ctl(["undo"])
        #expect(undo.stdout.contains("Batch 1: 0 photos put back, 1 photo no longer in the trash:"), "\(undo.stdout)")
        #expect(undo.stdout.contains("pics/2024/05/IMG_0001.JPG: no longer in the trash (purged)\n"), "\(undo.stdout)")
        #expect(!undo.stdout.contains("(no longer"), "said once: \(undo.stdout)")
    }

    /// The name `gio trash --restore` (GLib 2.74) gives a restored file: every byte
    /// outside printable ASCII, and the backslash, written as `\xNN` (checked by hand
    /// with gio and gvfsd-trash: `été.jpg` came back as `\xc3\xa9t\xc3\xa9.jpg`).
    static func gioRestoredName(_ name: [UInt8]) -> [UInt8] {
        name.flatMap { byte -> [UInt8] in
            if byte >= 32 && byte <= 126 && byte != UInt8(ascii: "\\") { return [byte] }
            return Array(String(format: "\\x%02x", byte).utf8)
        }
    }

    /// A photo that gio put back under such a name is reported where it is, not as purged.
    @Test func undoFindsAPhotoGioRestoredUnderAnEscapedName() throws {
        let d = Daemon()
        Files.write(d.root() + "/été.jpg", "summer")
        Files.write(d.root() + "/plain.jpg", "plain")
        try d.start()
        #expect(try d.ctl(["select", "1-2"]).status == 0)
        #expect(try d.ctl(["rm", "--yes"]).status == 0)
        // Restored as gio does: the file renamed out of the trash, its .trashinfo removed.
        let trash = TrashSnapshot(d.trashDirectory)
        let entry = try #require(trash.entries.first { $0.path.hasSuffix("/été.jpg") })
        let escaped = String(decoding: Self.gioRestoredName(Array("été.jpg".utf8)), as: UTF8.self)
        #expect(escaped == #"\xc3\xa9t\xc3\xa9.jpg"#)
        Files.rename(trash.filePath(entry.name), d.root() + "/" + escaped)
        Files.remove(trash.infoPath(entry.name))

        let undo = try d.ctl(["undo"])
        #expect(undo.stdout.contains("Batch 1: 1 photo put back, 1 photo no longer in the trash:"), "\(undo.stdout)")
        #expect(undo.stdout.contains("pics/été.jpg: restored by another tool under another name: \(escaped)"), "\(undo.stdout)")
        #expect(!undo.stdout.contains("purged"), "\(undo.stdout)")
        #expect(Files.read(d.root() + "/" + escaped) == "summer")
    }
}

/// On a terminal, a long batch draws a progress bar from the batch events.
@Suite(.serialized)
struct DeleteProgressBarTests {
    @Test func rmDrawsAProgressBarOnATerminal() throws {
        guard Tool.exists("/usr/bin/script") else {
            print("skipped: needs script(1) to give curatorctl a terminal")
            return
        }
        let d = Daemon()
        let photos = try PhotoSet.make(in: d.root(), count: 30)
        try d.start()
        #expect(try d.ctl(["select", "1-30"]).status == 0)
        let command = [Daemon.curatorctl, "--socket", d.socket, "rm", "--yes"].map { "'\($0)'" }.joined(separator: " ")
        let run = try Tool.run("/usr/bin/script", ["-qec", command, "/dev/null"], environment: d.environment)
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.contains("30/30"), "\(run.stdout)")
        #expect(run.stdout.contains("[" + String(repeating: "#", count: 30) + "]"))
        #expect(run.stdout.contains("30 photos moved to the trash"))
        #expect(try photos.census(trash: d.trashDirectory).inTrash.count == 30)
    }
}
