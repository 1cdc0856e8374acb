// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import CuratorThumbnails
import Foundation
import Testing
import CuratorTestSupport

/// The URI must be byte for byte GLib's, or thumbnails are never shared: each case
/// below was checked against `GLib.filename_to_uri` and `gio info` (and the tests
/// that follow ask them again on this machine).
struct FileURITests {
    @Test(arguments: [
        ("/tmp/tt/b.png", "file:///tmp/tt/b.png"),
        ("/home/ann/Pictures/IMG 0001.JPG", "file:///home/ann/Pictures/IMG%200001.JPG"),
        ("/tmp/a b#c?d;e[f]{g}%h^i`j|k\\l<m>n\"o",
         "file:///tmp/a%20b%23c%3Fd%3Be%5Bf%5D%7Bg%7D%25h%5Ei%60j%7Ck%5Cl%3Cm%3En%22o"),
        ("/tmp/a$&'()*+,-.:=@_~!z", "file:///tmp/a$&'()*+,-.:=@_~!z"),
        ("/tmp/é", "file:///tmp/%C3%A9"),
        ("/photos/Kyoto 京都/x.jpg", "file:///photos/Kyoto%20%E4%BA%AC%E9%83%BD/x.jpg"),
        // Canonical as GIO makes it: . and .. resolved, slashes collapsed, but exactly
        // two leading ones kept.
        ("/tmp/gq/./a/../b/", "file:///tmp/gq/b"),
        ("/tmp//gq//b", "file:///tmp/gq/b"),
        ("///tmp/gq", "file:///tmp/gq"),
        ("//tmp/gq", "file:////tmp/gq"),
        ("/..", "file:///"),
        ("/", "file:///"),
    ])
    func glibSpelling(path: String, uri: String) throws {
        #expect(try FileURI(path: ByteString(path)).text == uri)
    }

    @Test func bytesThatAreNotUTF8AreEscapedOneByOne() throws {
        let path = ByteString(Array("/tmp/".utf8) + [0xFF, 0xFE] + Array("x".utf8))
        let uri = try FileURI(path: path)
        #expect(uri.text == "file:///tmp/%FF%FEx")
        #expect(try uri.path() == path)
    }

    /// gnome-desktop named the thumbnail of /tmp/tt/b.png c088c875...png (seen on this
    /// machine: `GnomeDesktop.DesktopThumbnailFactory.save_thumbnail`).
    @Test func thumbnailNameIsTheMD5OfTheURI() throws {
        let uri = try FileURI(path: "/tmp/tt/b.png")
        #expect(uri.thumbnailHash == "c088c8758ab5f06961bc0d559c05e55e")
        #expect(ThumbnailCache.relativePath(for: uri, size: .large) == "large/c088c8758ab5f06961bc0d559c05e55e.png")
        #expect(ThumbnailCache.relativeFailPath(for: uri).lossyString.hasPrefix("fail/curatord-"))
    }

    @Test func refusesWhatIsNotAnAbsolutePath() {
        #expect(throws: FileURI.Failure.notAbsolute) { try FileURI(path: "relative/x.jpg") }
        #expect(throws: FileURI.Failure.containsNUL) { try FileURI(path: ByteString([0x2F, 0x61, 0x00, 0x62])) }
    }

    @Test func decodesAsGLibDoes() throws {
        #expect(try FileURI(verbatim: "file:///tmp/a%20b").path() == "/tmp/a b")
        #expect(try FileURI(verbatim: "FILE://localhost/tmp/x").path() == "/tmp/x")
        #expect(throws: FileURI.Failure.remoteHost("nas")) { try FileURI(verbatim: "file://nas/tmp/x").path() }
        #expect(throws: FileURI.Failure.escapedSlashOrNUL) { try FileURI(verbatim: "file:///tmp/a%2Fb").path() }
        #expect(throws: FileURI.Failure.escapedSlashOrNUL) { try FileURI(verbatim: "file:///tmp/a%00b").path() }
        #expect(throws: FileURI.Failure.badEscape) { try FileURI(verbatim: "file:///tmp/a%4").path() }
        #expect(throws: FileURI.Failure.fragment) { try FileURI(verbatim: "file:///tmp/a#b").path() }
        #expect(throws: FileURI.Failure.notFileURI) { try FileURI(verbatim: "http:///tmp/a").path() }
    }

    /// Every byte from 1 to 255 in a file name, compared with GLib's own
    /// `g_filename_to_uri` (through PyGObject).
    @Test func everyByteAgreesWithGLib() throws {
        let python = "/usr/bin/python3"
        let probe = try Tool.run(python, ["-c", "import gi; from gi.repository import GLib"])
        try #require(probe.status == 0, "PyGObject is needed (python3-gi): \(probe.stderr)")
        var names: [[UInt8]] = (1...255).filter { $0 != 0x2F }.map { [UInt8(ascii: "a"), UInt8($0), UInt8(ascii: "z")] }
        names.append(Array((1...255).filter { $0 != 0x2F }.map { UInt8($0) }))
        let paths = names.map { ByteString(Array("/srv/photos/".utf8) + $0) }
        let scratch = try ScratchDirectory(label: "thumbs")
        let list = try scratch.write("paths", Array(paths.map { $0.bytes.map { String(format: "%02x", $0) }.joined() }.joined(separator: "\n").utf8))
        let script = """
            import os, sys
            from gi.repository import GLib
            for line in open(sys.argv[1]):
                print(GLib.filename_to_uri(os.fsdecode(bytes.fromhex(line.strip())), None))
            """
        let out = try Tool.run(python, ["-c", script, list.lossyString])
        try #require(out.status == 0, "\(out.stderr)")
        let theirs = out.stdout.split(separator: "\n").map(String.init)
        try #require(theirs.count == paths.count)
        for (path, glib) in zip(paths, theirs) {
            #expect(try FileURI(path: path).text == glib, "\(path.bytes)")
            #expect(try FileURI(verbatim: glib).path() == path)
        }
    }

    /// What `gio info` (GFile, as Nautilus uses it) says the URI of an existing path
    /// is, odd spellings of the path included.
    @Test func canonicalFormAgreesWithGio() throws {
        try #require(Tool.exists("/usr/bin/gio"), "gio is needed (libglib2.0-bin)")
        let scratch = try ScratchDirectory(label: "thumbs")
        _ = try scratch.mkdir("a b")
        _ = try scratch.mkdir("c")
        _ = try scratch.mkdir(ByteString([0xE9, 0x74, 0xE9]))  // "été" in Latin-1: not UTF-8
        let base = scratch.string
        let spellings = [base + "/a b", base + "/./a b/", base + "//c/../a b", base + "/c/.", "/" + base]
        for spelling in spellings {
            let out = try Tool.run("/usr/bin/gio", ["info", "-a", "standard::name", spelling])
            let line = out.stdout.split(separator: "\n").first { $0.hasPrefix("uri: ") }
            let gio = try #require(line.map { String($0.dropFirst(5)) }, "\(out.stderr)")
            #expect(try FileURI(path: ByteString(spelling)).text == gio, "\(spelling)")
        }
        // A name that is not UTF-8: gio takes the path as bytes too.
        let latin1 = ByteString(Array(base.utf8) + [0x2F, 0xE9, 0x74, 0xE9])
        let out = try Tool.run("/bin/sh", ["-c", "/usr/bin/gio info -a standard::name \"$(printf '%s/\\351t\\351' \"$1\")\"", "sh", base])
        let line = try #require(out.stdout.split(separator: "\n").first { $0.hasPrefix("uri: ") }, "\(out.stderr)")
        #expect(try FileURI(path: latin1).text == String(line.dropFirst(5)))
    }
}
