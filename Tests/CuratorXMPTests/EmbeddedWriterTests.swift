// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import CuratorTestSupport
import CuratorXMP
import Foundation
import Glibc
import Synchronization
import Testing

/// Writing marks into the XMP inside an image (a root's `xmp_write_embedded`):
/// through the toolkit's handler for a JPEG and a TIFF (a DNG), into a copy that
/// replaces the image whole with its owner and mode, the image's other metadata
/// and pixels kept; another program's write between our read and ours is kept;
/// a HEIF, which the toolkit cannot write, is left as it is.
@Suite(.serialized)
struct EmbeddedWriterTests {
    struct Fixture {
        let scratch: ScratchDirectory
        let directory: DirectoryHandle
        let name: ByteString
        var path: String { scratch.string + "/" + name.lossyString }

        /// An image made by libvips (`name`'s suffix picks the format; a `.dng`
        /// is a TIFF under that name), with `assignments` written into it by exiftool.
        init(_ name: String, _ assignments: [String]) throws {
            scratch = try ScratchDirectory(label: "xmp-embedded")
            self.name = ByteString(name)
            directory = try DirectoryHandle.open(scratch.path, followingSymlinks: false)
            let made = scratch.string + "/" + (name.hasSuffix(".dng") ? "made.tif" : name)
            let vips = try Tool.run("/usr/bin/vips", ["black", made, "64", "64", "--bands", "3"], timeout: 60)
            try #require(vips.status == 0, "\(vips.output)")
            if made != path { try #require(rename(made, path) == 0) }
            if !assignments.isEmpty { try ExifTool.run(["-q", "-overwrite_original"] + assignments + [path], in: scratch.string) }
        }

        func value(_ tag: String) throws -> String? { try ExifTool.value(tag, of: path, in: scratch.string) }
        func bytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }
        func names() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: scratch.string).filter { $0 != "exiftool.config" }.sorted()
        }
    }

    static let change = MarksChange(rating: .set(4), label: .set(.red))

    @Test(arguments: ["lr.jpg", "d.dng"])
    func theImagesPacketIsWrittenAndTheRestKept(name: String) throws {
        let fixture = try Fixture(name, ["-XMP-xmp:Rating=2", "-XMP-crs:Exposure2012=+0.50", "-XMP-dc:Title=The kiss"])
        chmod(fixture.path, 0o640)
        chown(fixture.path, 4242, 4243)
        let outcome = try #require(try EmbeddedWriter().update(fixture.name, in: fixture.directory, change: Self.change))
        #expect(outcome.previous == PhotoMarks(rating: 2))
        #expect(outcome.marks == PhotoMarks(rating: 4, label: .red) && outcome.written)
        #expect(try fixture.value("XMP-xmp:Rating") == "4")
        #expect(try fixture.value("XMP-xmp:Label") == "Red")
        #expect(try fixture.value("XMP-crs:Exposure2012") == "+0.50")
        #expect(try fixture.value("XMP-dc:Title") == "The kiss")
        let header = try Tool.run("/usr/bin/vipsheader", [fixture.path], timeout: 60)
        #expect(header.status == 0 && header.stdout.contains("64x64"), "\(header.output)")
        let status = try FileStatus.of(ByteString(fixture.path))
        #expect(status.uid == 4242 && status.gid == 4243 && status.mode & 0o7777 == 0o640)
        // No copy, no private folder left.
        #expect(try fixture.names() == [name])

        // Said again: nothing is written.
        let before = try fixture.bytes()
        let again = try #require(try EmbeddedWriter().update(fixture.name, in: fixture.directory, change: Self.change))
        #expect(!again.written && again.previous == outcome.marks)
        #expect(try fixture.bytes() == before)

        // Taken back: the old bytes, as a group that fails later is.
        let first = try #require(try EmbeddedWriter().update(fixture.name, in: fixture.directory, change: MarksChange(flag: .reject)))
        #expect(first.written)
        #expect(try SidecarWriter().undo(try #require(first.undo), of: fixture.name, in: fixture.directory))
        #expect(try fixture.bytes() == before)
    }

    /// Another program writes the image between our read and our rename: the change
    /// is applied again on top of its write, never over it.
    @Test func anotherProgramsWriteBetweenOurReadAndOursIsKept() throws {
        let fixture = try Fixture("lr.jpg", ["-XMP-xmp:Rating=3"])
        let attempts = Mutex<[Int]>([])
        var writer = EmbeddedWriter()
        let path = fixture.path, folder = fixture.scratch.string
        writer.beforeReplacing = { attempt in
            attempts.withLock { $0.append(attempt) }
            if attempt == 1 { _ = try? ExifTool.run(["-q", "-overwrite_original", "-XMP-crs:Exposure2012=-1.00", path], in: folder) }
        }
        let outcome = try #require(try writer.update(fixture.name, in: fixture.directory, change: MarksChange(label: .set(.blue))))
        #expect(attempts.withLock { $0 } == [1, 2])
        #expect(outcome.marks == PhotoMarks(rating: 3, label: .blue))
        #expect(try fixture.value("XMP-crs:Exposure2012") == "-1.00")
        #expect(try fixture.value("XMP-xmp:Label") == "Blue")
        #expect(try fixture.names() == ["lr.jpg"])
    }

    /// The toolkit writes no packet into a HEIF: nothing is done, and the file is
    /// as it was.
    @Test func aHEIFIsLeftAsItIs() throws {
        let fixture = try Fixture("h.heic", ["-XMP-xmp:Rating=3"])
        let before = try fixture.bytes()
        #expect(try EmbeddedWriter().update(fixture.name, in: fixture.directory, change: Self.change) == nil)
        #expect(try fixture.bytes() == before)
        #expect(try fixture.names() == ["h.heic"])
    }

    /// A private folder a crash left (with a copy in it) is removed by the next write.
    @Test func whatACrashLeftIsRemoved() throws {
        let fixture = try Fixture("lr.jpg", [])
        let folder = EmbeddedWriter.privateFolder(for: fixture.name)
        try fixture.scratch.mkdir(folder, mode: 0o700)
        try fixture.scratch.write(folder.appending("photo"), Array("half a copy".utf8), mode: 0o600)
        let outcome = try #require(try EmbeddedWriter().update(fixture.name, in: fixture.directory, change: Self.change))
        #expect(outcome.written)
        #expect(try fixture.names() == ["lr.jpg"])
    }
}
