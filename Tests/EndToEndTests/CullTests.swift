// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// `curatorctl cull` driven as a person would: tmux runs it against the real daemon,
/// keys go in with send-keys, the screen is read with capture-pane, and each test
/// checks the screen and what the daemon did.
@Suite(.serialized, .enabled(if: TmuxTerminal.available))
struct CullTests {
    /// Photos IMG_0001..5 in 2024/05 and DSC_0001..3 in 2024/06 (and `extra` files),
    /// under a configuration with `cap` and a protected folder Keep holding one photo.
    static func daemon(cap: Int? = nil, count: Int = 5, keep: Bool = false) throws -> Daemon {
        let d = Daemon()
        for (folder, prefix, n) in [("2024/05", "IMG", count), ("2024/06", "DSC", 3)] {
            let path = d.root() + "/" + folder
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            for i in 1...n { Files.write(path + String(format: "/\(prefix)_%04d.JPG", i), "photo \(folder) \(i)") }
        }
        if keep {
            try FileManager.default.createDirectory(atPath: d.root() + "/Keep", withIntermediateDirectories: true)
            Files.write(d.root() + "/Keep/KEEP.JPG", "kept")
        }
        let path = d.home.sub("curatord.json5")
        try "{ roots: [{ path: \"\(d.root())\", protected: [\"Keep\"] }]\(cap.map { ", selection_cap: \($0)" } ?? "") }"
            .write(toFile: path, atomically: true, encoding: .utf8)
        d.configPath = path
        try d.start()
        return d
    }

    static func selection(_ d: Daemon) throws -> (mode: String, paths: [String]) {
        let result = try d.client().result(["cmd": "selection"])
        let items = (result["items"] as? [[String: Any]] ?? []).sorted { ($0["number"] as? Int ?? 0) < ($1["number"] as? Int ?? 0) }
        return (result["mode"] as? String ?? "", items.map { $0["path"] as? String ?? "" })
    }

    static func id(_ d: Daemon, _ path: String) throws -> Int {
        let photos = try d.client().result(["cmd": "list"])["photos"] as? [[String: Any]] ?? []
        guard let id = photos.first(where: { $0["path"] as? String == path })?["id"] as? Int else { throw HarnessError("no \(path)") }
        return id
    }

    /// Seeds 000 and 002: v enters select mode, Space picks in tap order with numbered
    /// badges, deselecting renumbers the later ones, v again clears everything.
    @Test func selectsInTapOrderWithBadgesRenumberedOnDeselect() throws {
        let d = try Self.daemon()
        let t = try TmuxTerminal(d)
        let first = try t.waitFor("IMG_0001.JPG")
        #expect(first.contains("pics/2024/05 · 5 photos"), "\(first)")
        #expect(first.contains("pics/2024/06 · 3 photos"), "\(first)")
        #expect(first.contains("8 photos"))
        #expect(first.contains("VIEW"))
        try t.send("v")
        try t.waitFor("SELECT 0")
        try t.send("Space", "l", "l", "Space", "Right", "Space")
        let picked = try t.waitFor("SELECT 3")
        #expect(picked.contains("[1]") && picked.contains("[2]") && picked.contains("[3]"), "\(picked)")
        #expect(try Self.selection(d).paths == ["2024/05/IMG_0001.JPG", "2024/05/IMG_0003.JPG", "2024/05/IMG_0004.JPG"])
        // Back to the second photo picked, and off: the third becomes 2.
        try t.send("h", "Space")
        let renumbered = try t.waitFor("SELECT 2")
        #expect(!renumbered.contains("[3]"), "\(renumbered)")
        #expect(try Self.selection(d).paths == ["2024/05/IMG_0001.JPG", "2024/05/IMG_0004.JPG"])
        // The badge [2] is now on IMG_0004's cell: the fourth column of the first row.
        let badgeLine = t.lines.first { $0.contains("[2]") } ?? ""
        #expect(badgeLine.range(of: "[2]").map { badgeLine.distance(from: badgeLine.startIndex, to: $0.lowerBound) } == 1 + 3 * 15 + 1,
                "\(badgeLine)")
        try t.send("v")
        try t.waitFor("Leave select mode?")
        try t.send("y")
        try t.waitFor("selection of 2 photos was cleared")
        let cleared = try Self.selection(d)
        #expect(cleared.mode == "view" && cleared.paths.isEmpty)
        try t.send("q")
        #expect(try t.exitStatus() == 0)
        #expect(try t.expectRestored() == [])
    }

    /// Seeds 002 and 003: the session's cap refuses one more with the daemon's
    /// message; a protected photo cannot be selected and is marked.
    @Test func capAndProtectedPhotosAreRefusedInTheStatusLine() throws {
        let d = try Self.daemon(cap: 2, keep: true)
        let t = try TmuxTerminal(d)
        try t.waitFor("IMG_0001.JPG")
        try t.send("v")
        try t.waitFor("SELECT 0 of 2")
        try t.send("Space", "l", "Space", "l", "Space")
        try t.waitFor("The selection is full: it holds at most 2 photos")
        #expect(try Self.selection(d).paths == ["2024/05/IMG_0001.JPG", "2024/05/IMG_0002.JPG"])
        try t.send("G")
        let last = try t.waitFor("⊘KEEP.JPG")
        #expect(last.contains("pics/Keep · 1 photo"), "\(last)")
        try t.send("Space")
        try t.waitFor("is in a protected folder: it cannot be selected")
        #expect(try Self.selection(d).paths.count == 2)
        // With room made, the daemon still refuses it: protection, not the cap.
        _ = try d.client().result(["cmd": "clear"])
        let keep = try Self.id(d, "Keep/KEEP.JPG")
        #expect(try d.client().errorCode(["cmd": "toggle", "ids": [keep]]) == "protected")
        try t.send("Space")
        try t.waitFor("is in a protected folder: it cannot be selected")
        #expect(try Self.selection(d).paths.isEmpty)
        try t.send("q")
        #expect(try t.exitStatus() == 0)
    }

    /// Seed 000's "Delete?": d shows the plan, y trashes it with a progress bar,
    /// Ctrl+Z says what it puts back and does on y; the files move on disk and the
    /// grid follows.
    @Test func deleteShowsThePlanTrashesOnYesAndUndoPutsBack() throws {
        let d = try Self.daemon()
        let t = try TmuxTerminal(d)
        try t.waitFor("IMG_0001.JPG")
        try t.send("v", "Space", "l", "Space", "d")
        let plan = try t.waitFor("Move to the trash?")
        #expect(plan.contains("2 photos, 2 files, 30 B"), "\(plan)")
        #expect(plan.contains("pics/2024/05/IMG_0002.JPG") && plan.contains("pics/2024/05/IMG_0001.JPG"), "\(plan)")
        // n cancels: nothing moves.
        try t.send("n")
        try t.waitFor("Nothing was moved.")
        #expect(Files.exists(d.root() + "/2024/05/IMG_0001.JPG"))
        try t.send("d")
        try t.waitFor("Move to the trash?")
        try t.send("y")
        try t.waitFor("2 photos moved to the trash")
        #expect(!Files.exists(d.root() + "/2024/05/IMG_0001.JPG") && !Files.exists(d.root() + "/2024/05/IMG_0002.JPG"))
        #expect(Files.exists(d.dataHome + "/Trash/files/IMG_0001.JPG") && Files.exists(d.dataHome + "/Trash/files/IMG_0002.JPG"))
        let after = try t.waitFor("pics/2024/05 · 3 photos")
        #expect(after.contains("VIEW") && !after.contains("IMG_0001.JPG"), "\(after)")
        #expect(try Self.selection(d).mode == "view")
        try t.send("C-z")
        let undo = try t.waitFor("n: leave them in the trash")
        #expect(undo.contains("2 photos, 30 B") && undo.contains("back to root pics") && undo.contains("pics/2024/05"), "\(undo)")
        try t.send("y")
        try t.waitFor("2 photos put back")
        try t.waitFor("pics/2024/05 · 5 photos")
        #expect(Files.exists(d.root() + "/2024/05/IMG_0001.JPG") && Files.exists(d.root() + "/2024/05/IMG_0002.JPG"))
        try t.send("q")
        #expect(try t.exitStatus() == 0)
    }

    /// A group (a JPEG and its RAW) is one photo in the grid; `d` counts its two files.
    @Test func deleteCountsEveryFileOfAGroup() throws {
        let d = Daemon()
        try FileManager.default.createDirectory(atPath: d.root() + "/2024", withIntermediateDirectories: true)
        Files.write(d.root() + "/2024/IMG_0001.JPG", "rendered")
        Files.write(d.root() + "/2024/IMG_0001.NEF", "raw file")
        try d.start()
        let t = try TmuxTerminal(d)
        try t.waitFor("IMG_0001.JPG")
        try t.send("v", "Space", "d")
        let plan = try t.waitFor("Move to the trash?")
        #expect(plan.contains("1 photo, 2 files"), "\(plan)")
        try t.send("n", "q")
        #expect(try t.exitStatus() == 0)
    }

    /// No key clears the selection or moves a file without saying what it will do
    /// and asking (issue 48, 8): `-` (once Backspace's alias) makes the cells
    /// smaller, `v` and another page ask and keep everything on n, `u` undoes
    /// nothing and says where undo went, Ctrl+Z with nothing in the trash says so.
    @Test func oneKeyNeverClearsTheSelection() throws {
        let d = try Self.daemon()
        let t = try TmuxTerminal(d)
        try t.waitFor("IMG_0001.JPG")
        try t.send("v", "Space", "l", "Space")
        try t.waitFor("SELECT 2")
        let picked = ["2024/05/IMG_0001.JPG", "2024/05/IMG_0002.JPG"]
        try t.send("o")
        let page = try t.waitFor("Go to another page?")
        #expect(page.contains("Going to pics/2024/05, another page, clears the selection") && page.contains("of 2 photos"), "\(page)")
        try t.send("n")
        try t.waitFor("Nothing changed: the selection stays.")
        try t.send("-")
        try t.send("v")
        let leave = try t.waitFor("Leave select mode?")
        #expect(leave.contains("clears the selection of 2 photos") && leave.contains("y: clear it and leave"), "\(leave)")
        try t.send("Escape")
        try t.waitFor("Nothing changed: the selection stays.")
        let kept = try Self.selection(d)
        #expect(kept.mode == "select" && kept.paths == picked)
        try t.send("C-z")
        try t.waitFor("Nothing to undo")
        let still = try Self.selection(d)
        #expect(still.mode == "select" && still.paths == picked)
        #expect(t.screen.contains("pics/2024/06"), "still the whole root: \(t.screen)")
        try t.send("q")
        #expect(try t.exitStatus() == 0)
    }

    /// Ctrl+Z names the batch it would put back, its photos and files and its root,
    /// even another root's, and n leaves it in the trash; a group counts as one photo
    /// of two files in the batch's message, the question and the undo's answer.
    @Test func undoSaysWhatItPutsBackAndAsks() throws {
        let d = Daemon(roots: ["pics", "phone"])
        try FileManager.default.createDirectory(atPath: d.root() + "/2024", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: d.root("phone") + "/DCIM", withIntermediateDirectories: true)
        Files.write(d.root() + "/2024/IMG_0001.JPG", "rendered")
        Files.write(d.root() + "/2024/IMG_0001.NEF", "raw file")
        Files.write(d.root("phone") + "/DCIM/PXL_0001.JPG", "phone photo")
        try d.start()
        let other = try d.ctl(["rm", "--yes", "--photo", "phone/DCIM/PXL_0001.JPG"])
        #expect(other.status == 0, "\(other)")
        let t = try TmuxTerminal(d, arguments: ["pics"])
        try t.waitFor("IMG_0001.JPG")
        try t.send("C-z")
        let foreign = try t.waitFor("n: leave them in the trash")
        #expect(foreign.contains("1 photo, 11 B") && foreign.contains("back to root phone") && foreign.contains("phone/DCIM"),
                "\(foreign)")
        try t.send("n")
        try t.waitFor("Nothing was put back.")
        #expect(!Files.exists(d.root("phone") + "/DCIM/PXL_0001.JPG"))
        try t.send("d")
        try t.waitFor("Move to the trash?")
        try t.send("y")
        try t.waitFor("1 photo (2 files) moved to the trash")
        try t.send("C-z")
        let own = try t.waitFor("n: leave them in the trash")
        #expect(own.contains("1 photo (2 files), 16 B") && own.contains("back to root pics"), "\(own)")
        try t.send("y")
        try t.waitFor("1 photo (2 files) put back")
        #expect(Files.exists(d.root() + "/2024/IMG_0001.NEF") && !Files.exists(d.root("phone") + "/DCIM/PXL_0001.JPG"))
        try t.send("q")
        #expect(try t.exitStatus() == 0)
    }

    /// Live: a photo written by someone else appears, one trashed elsewhere goes, and
    /// another client's toggle on the same session renumbers the badges at once.
    @Test func othersChangesShowAtOnce() throws {
        let d = try Self.daemon()
        let t = try TmuxTerminal(d)
        try t.waitFor("IMG_0001.JPG")
        try t.send("v", "Space", "l", "Space")
        try t.waitFor("SELECT 2")
        Files.write(d.root() + "/2024/05/IMG_0006.JPG", "new one")
        try t.waitFor("IMG_0006.JPG")
        try t.waitFor("pics/2024/05 · 6 photos")
        let other = try d.ctl(["rm", "--yes", "--photo", "pics/2024/06/DSC_0002.JPG"])
        #expect(other.status == 0, "\(other)")
        try t.waitFor("pics/2024/06 · 2 photos")
        #expect(!t.screen.contains("DSC_0002.JPG"))
        // Another client on the session takes the first photo out: the second is 1 now.
        let first = try Self.id(d, "2024/05/IMG_0001.JPG")
        _ = try d.client().result(["cmd": "toggle", "ids": [first]])
        try t.waitFor("SELECT 1")
        let screen = t.screen
        #expect(screen.contains("[1]") && !screen.contains("[2]"), "\(screen)")
        #expect(try Self.selection(d).paths == ["2024/05/IMG_0002.JPG"])
        try t.send("q")
        #expect(try t.exitStatus() == 0)
    }

    /// Seeds 001 and 003: a filter and a sort keep the selection; another folder
    /// (page) clears it.
    @Test func filterAndSortKeepTheSelectionAnotherPageClearsIt() throws {
        let d = try Self.daemon()
        let t = try TmuxTerminal(d, columns: 120, rows: 30)
        try t.waitFor("IMG_0001.JPG")
        try t.send("v", "Space", "l", "Space", "/")
        try t.waitFor("filter (glob")
        try t.type("*_0002*")
        try t.send("Enter")
        let filtered = try t.waitFor("filter *_0002*")
        #expect(filtered.contains("2 photos") && filtered.contains("SELECT 2") && filtered.contains("(1 hidden)"), "\(filtered)")
        #expect(try Self.selection(d).paths.count == 2)
        try t.send("/", "C-u", "Enter")
        try t.waitFor("Filter cleared.")
        try t.send("s")
        try t.waitFor("by capture time")
        #expect(try Self.selection(d).paths == ["2024/05/IMG_0001.JPG", "2024/05/IMG_0002.JPG"])
        try t.send("o")
        try t.waitFor("Go to another page?")
        try t.send("y")
        try t.waitFor("Another page: the selection of 2 photos was cleared.")
        // The notice is drawn at once; the new page follows when the daemon answers.
        try t.waitForAbsence("2024/06")
        let page = t.screen
        #expect(page.contains("pics/2024/05 · 5 photos") && !page.contains("2024/06"), "\(page)")
        let after = try Self.selection(d)
        #expect(after.mode == "view" && after.paths.isEmpty)
        try t.send("]")
        try t.waitFor("pics/2024/06 · 3 photos")
        try t.send("BSpace")
        try t.waitFor("8 photos")
        try t.send("q")
        #expect(try t.exitStatus() == 0)
    }

    /// Enter shows one photo large with its path, size, capture time and camera.
    @Test func enterShowsThePhotoLarge() throws {
        let d = try Self.daemon()
        let t = try TmuxTerminal(d)
        try t.waitFor("IMG_0001.JPG")
        try t.send("l", "Enter")
        let detail = try t.waitFor("captured")
        #expect(detail.contains("pics/2024/05/IMG_0002.JPG") && detail.contains("15 B (15 bytes), JPEG"), "\(detail)")
        #expect(detail.contains("camera") && detail.contains("position  2 of 8"), "\(detail)")
        try t.send("Escape")
        try t.waitForAbsence("captured")
        try t.send("q")
        #expect(try t.exitStatus() == 0)
    }

    /// Enter's camera and pixel size are the daemon's (`photo.info`): they show where
    /// cull cannot open the photos itself. Here it runs where the root is an empty
    /// tmpfs, as on a laptop over SSH, and still shows what the file says.
    @Test func enterShowsTheCameraTheDaemonReadsFromTheFile() throws {
        let d = try Self.daemon()
        try CameraJPEG.write(d.root() + "/2024/05/IMG_0002.JPG", make: "Canon", model: "Canon EOS R5", orientation: 6,
                             width: 640, height: 480)
        let t = try TmuxTerminal(d, hiding: d.root())
        try t.waitFor("IMG_0001.JPG")
        try t.send("l", "Enter")
        let detail = try t.waitFor("Canon EOS R5")
        #expect(detail.contains("pixels    640 × 480 (shown turned: 480 × 640)"), "\(detail)")
        #expect(detail.contains("pics/2024/05/IMG_0002.JPG"), "\(detail)")
        // The next photo has no EXIF: said so, not the previous one's camera.
        try t.send("Escape", "l", "Enter")
        let next = try t.waitFor("camera    unknown")
        #expect(!next.contains("Canon") && next.contains("pics/2024/05/IMG_0003.JPG"), "\(next)")
        try t.send("Escape", "q")
        #expect(try t.exitStatus() == 0)
    }

    /// The terminal is left exactly as found: q, Ctrl-C, SIGTERM, SIGHUP, a crash of
    /// its own (SIGSEGV), and a lost daemon (with a message and exit status 4).
    @Test func theTerminalIsRestoredHoweverCullEnds() throws {
        let d = try Self.daemon()
        for (how, status) in [("q", Int32(0)), ("C-c", 0), ("TERM", 128 + SIGTERM), ("HUP", 128 + SIGHUP),
                              ("SEGV", 128 + SIGSEGV), ("ILL", 128 + SIGILL)] {
            let t = try TmuxTerminal(d)
            try t.waitFor("IMG_0001.JPG")
            try t.send("v", "Space")
            try t.waitFor("SELECT 1")
            if how.count <= 3 && how.first?.isLowercase == true || how.hasPrefix("C-") {
                try t.send(how)
            } else {
                kill(try t.curatorctlPID(), how == "TERM" ? SIGTERM : how == "HUP" ? SIGHUP : how == "SEGV" ? SIGSEGV : SIGILL)
            }
            #expect(try t.exitStatus() == status, "\(how)")
            #expect(try t.expectRestored() == [], "\(how)")
            _ = try d.client().result(["cmd": "mode", "mode": "view"])
        }
        // The daemon goes away: cull says so and gives the terminal back.
        let t = try TmuxTerminal(d)
        try t.waitFor("IMG_0001.JPG")
        d.stop()
        #expect(try t.exitStatus() == 4)
        #expect(try t.expectRestored() == [])
        #expect(t.screen.contains("curatorctl: lost the connection to curatord"), "\(t.screen)")
    }

    /// 300 columns show 19 photos a row; resized to 80x24, five, redrawn at once.
    @Test func fitsThreeHundredColumnsAndRedrawsWhenResized() throws {
        let d = try Self.daemon(count: 25)
        let t = try TmuxTerminal(d, columns: 300, rows: 40)
        let wide = try t.waitFor("19 IMG_0019")
        let row = wide.split(separator: "\n").first { $0.contains("1 IMG_0001.JPG") } ?? ""
        #expect(row.contains("19 IMG_0019") && !row.contains("20 IMG_0020"), "\(wide)")
        try t.tmux(["resize-window", "-t", "0", "-x", "80", "-y", "24"])
        try eventually(timeout: 10, "the grid to be redrawn at 80 columns") {
            let row = t.screen.split(separator: "\n").first { $0.contains("1 IMG_0001.JPG") } ?? ""
            return row.contains("5 IMG_0005.JPG") && !row.contains("6 IMG_0006")
        }
        #expect(t.lines.allSatisfy { $0.count <= 80 })
        try t.send("PageDown")
        try t.waitFor("11 IMG_0011")
        try t.send("q")
        #expect(try t.exitStatus() == 0)
        #expect(try t.expectRestored() == [])
    }
}
