// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// `curatorctl cull`'s culling keys, as Lightroom has them, driven in tmux against
/// the real daemon: P, X, U, 0-5 and 6-9 write the photo's XMP (read back by
/// exiftool), each cell shows its marks, `a` moves on after each mark, and a mark
/// made by another program appears on the screen.
@Suite(.serialized, .enabled(if: TmuxTerminal.available))
struct CullMarksTests {
    static func daemon() throws -> Daemon {
        let d = Daemon()
        for i in 1...4 { Files.write(d.root() + String(format: "/IMG_%04d.JPG", i), "photo \(i)") }
        try d.start()
        return d
    }

    static func exiftool(_ tag: String, _ path: String) throws -> String {
        let out = try Tool.run("/usr/bin/exiftool", ["-s3", "-n", "-\(tag)", path], timeout: 60)
        return out.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The cell line under the pictures of the first row: its marks.
    static func marksLine(_ screen: String, after caption: String) -> String {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let index = lines.firstIndex(where: { $0.contains(caption) }), index > 0 else { return "" }
        return lines[index - 1]
    }

    /// Waits for the marks line of the cell captioned `caption` to satisfy `check`.
    static func waitForMarks(_ t: TmuxTerminal, _ caption: String, _ what: String, _ check: (String) -> Bool) throws {
        do {
            try eventually(timeout: 15, what) { check(Self.marksLine(t.screen, after: caption)) }
        } catch {
            Issue.record("\(what):\n\(t.screen)")
            throw error
        }
    }

    @Test func lightroomKeysMarkThePhotoAndTheCellShowsIt() throws {
        let d = try Self.daemon()
        let root = d.root()
        for columns in [80, 120] {
            let t = try TmuxTerminal(d, columns: columns, rows: 24)
            try t.waitFor("IMG_0001.JPG")
            // 3 stars and a pick on the first photo, without advance.
            try t.send("3")
            try t.waitFor("1: 3 stars, no flag, no label")
            try t.send("p")
            try t.waitFor("1: 3 stars, picked, no label")
            try t.send("6")
            try t.waitFor("1: 3 stars, picked, red")
            try Self.waitForMarks(t, "1 IMG_0001.JPG", "\(columns) columns: stars, flag and label on the first cell") {
                $0.contains("★★★") && $0.contains("⚑") && $0.contains("●")
            }
            #expect(try Self.exiftool("XMP-xmp:Rating", root + "/IMG_0001.JPG.xmp") == "3")
            #expect(try Self.exiftool("XMP-digiKam:PickLabel", root + "/IMG_0001.JPG.xmp") == "3")
            #expect(try Self.exiftool("XMP-xmp:Label", root + "/IMG_0001.JPG.xmp") == "Red")
            // 6 again takes the label off; u the flag; 0 the stars.
            try t.send("6")
            try t.waitFor("1: 3 stars, picked, no label")
            try t.send("u")
            try t.waitFor("1: 3 stars, no flag, no label")
            try t.send("0")
            try t.waitFor("1: no stars, no flag, no label")
            #expect(try Self.exiftool("XMP-xmp:Rating", root + "/IMG_0001.JPG.xmp") == "")

            // Advance: each mark moves to the next photo.
            try t.send("a")
            try t.waitFor("Advance on")
            try t.send("l", "x", "5", "9")
            try t.waitFor("4: no stars, no flag, blue")
            #expect(try Self.exiftool("XMP-xmp:Rating", root + "/IMG_0002.JPG.xmp") == "-1")
            #expect(try Self.exiftool("XMP-xmp:Rating", root + "/IMG_0003.JPG.xmp") == "5")
            #expect(try Self.exiftool("XMP-xmp:Label", root + "/IMG_0004.JPG.xmp") == "Blue")
            try Self.waitForMarks(t, "2 IMG_0002.JPG", "the reject and the five stars") { $0.contains("✕") && $0.contains("★★★★★") }
            try t.send("a")
            try t.waitFor("Advance off")

            // Marked by another program: the cell shows it.
            let made = try Tool.run("/usr/bin/exiftool", ["-q", "-overwrite_original", "-XMP-xmp:Rating=2", root + "/IMG_0001.JPG.xmp"],
                                    timeout: 60)
            #expect(made.status == 0, "\(made.output)")
            try Self.waitForMarks(t, "1 IMG_0001.JPG", "two stars on IMG_0001's cell") {
                $0.hasPrefix("  ★★ ") || $0.contains(" ★★ ")
            }
            // Back to no marks for the next terminal size.
            for i in 1...4 {
                let id = try #require(try d.client().idsByPath()[String(format: "IMG_%04d.JPG", i)])
                _ = try d.client().result(["cmd": "rate", "ids": [id], "rating": NSNull(), "flag": "none", "label": NSNull()])
            }
            try t.send("q")
            #expect(try t.exitStatus() == 0)
        }
        d.stop()
    }
}
