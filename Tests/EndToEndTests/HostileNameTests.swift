// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Glibc
import Testing

/// Issue 54, item 8: a name another user gave a photo, holding an OSC title, a
/// clear-screen and a newline that fakes a line, is printed by `curatorctl ls`,
/// `selection`, `rm`'s prompt and its report escaped: nothing in the output is a
/// control character but the lines' own ends, and no line is faked.
@Suite(.serialized) struct HostileNameTests {
    static let name = "IMG\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}[H\nFAKE.jpg  9.9 MB\u{9B}1m.jpg"

    /// Whether `text` holds a control character other than a newline.
    static func hasControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F..<0xA0).contains($0.value) }
    }

    @Test func aHostileNameIsPrintedEscaped() throws {
        let d = Daemon()
        Files.write(d.root() + "/" + Self.name, String(repeating: "x", count: 1500))
        Files.write(d.root() + "/plain.jpg", String(repeating: "y", count: 1500))
        try d.start()
        defer { d.stop() }
        let escaped = #"IMG\x1B]0;pwned\x07\x1B[2J\x1B[H\x0AFAKE.jpg  9.9 MB\u009B1m.jpg"#

        let listed = try d.ctl(["ls"])
        #expect(listed.status == 0)
        #expect(!Self.hasControls(listed.stdout), "\(listed.stdout.debugDescription)")
        #expect(listed.stdout.contains(escaped), "\(listed.stdout)")
        #expect(!listed.stdout.split(separator: "\n").contains { $0.hasPrefix("FAKE.jpg") }, "no faked line")

        #expect(try d.ctl(["select", "1", "2"]).status == 0)
        let selection = try d.ctl(["selection"])
        #expect(!Self.hasControls(selection.stdout) && selection.stdout.contains(escaped), "\(selection.stdout.debugDescription)")

        let asked = try d.ctl(["rm"], input: "n\n")
        #expect(asked.stdout.contains("to the trash?"), "\(asked.stdout)")
        #expect(!Self.hasControls(asked.stdout + asked.stderr), "\((asked.stdout + asked.stderr).debugDescription)")
        #expect(asked.stdout.contains("pics/" + escaped), "\(asked.stdout)")

        let done = try d.ctl(["rm", "--yes"])
        #expect(done.status == 0 && !Self.hasControls(done.stdout + done.stderr), "\(done.stdout.debugDescription)")
        let trash = try d.ctl(["trash", "list"])
        #expect(!Self.hasControls(trash.stdout) && trash.stdout.contains(escaped), "\(trash.stdout.debugDescription)")
    }

    /// The terminal view shows the name the same way, in its grid and in the plan
    /// `d` shows, where it used to drop the controls silently and show the rest.
    @Test(.enabled(if: TmuxTerminal.available)) func theCullViewShowsAHostileNameEscaped() throws {
        let d = Daemon()
        Files.write(d.root() + "/A\u{1B}[2J\nB.jpg", "hostile")
        try d.start()
        defer { d.stop() }
        let t = try TmuxTerminal(d)
        try t.waitFor("A\\x1B[2J")
        try t.send("v", "Space", "d")
        let plan = try t.waitFor("Move to the trash?")
        #expect(plan.contains(#"pics/A\x1B[2J\x0AB.jpg"#), "\(plan)")
        try t.send("n")
    }
}
