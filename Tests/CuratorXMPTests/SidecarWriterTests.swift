// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import CuratorTestSupport
import CuratorXMP
import Foundation
import Glibc
import Synchronization
import Testing

/// Writing marks into sidecars: only our properties change, independent readers
/// (exiftool, exempi's CLI) read them back, the file is replaced whole with its
/// owner and mode, and another program's write between our read and ours is kept.
@Suite(.serialized)
struct SidecarWriterTests {
    /// A Lightroom sidecar full of another editor's settings, history, keywords and
    /// a namespace nobody here knows, plus darktable's and digiKam's copies.
    static let busySidecar = [
        "-XMP-xmp:Rating=2", "-XMP-xmp:Label=Red", "-XMP-xmp:CreatorTool=Adobe Photoshop Lightroom Classic 13.0",
        "-XMP-crs:Version=16.0", "-XMP-crs:Exposure2012=+0.50", "-XMP-crs:Contrast2012=+12", "-XMP-crs:WhiteBalance=Custom",
        "-XMP-crs:Temperature=5200", "-XMP-crs:ToneCurveName2012=Linear", "-XMP-crs:HasSettings=True",
        "-XMP-crs:ToneCurvePV2012=0, 0", "-XMP-crs:ToneCurvePV2012=255, 255",
        "-XMP-dc:Subject=wedding", "-XMP-dc:Subject=ceremony", "-XMP-dc:Title=The kiss",
        "-XMP-lr:HierarchicalSubject=events|wedding",
        "-XMP-xmpMM:DocumentID=xmp.did:5f1e", "-XMP-xmpMM:HistoryAction=saved", "-XMP-xmpMM:HistoryWhen=2024:05:01 10:00:00",
        "-XMP-acme:Secret=keep me", "-XMP-acme:Levels=1", "-XMP-acme:Levels=2",
        "-XMP-darktable:colorlabels=0", "-XMP-darktable:history_operation=exposure",
        "-XMP-digiKam:ColorLabel=1", "-XMP-microsoft:RatingPercent=25",
    ]

    struct Fixture {
        let scratch: ScratchDirectory
        let directory: DirectoryHandle
        let name: ByteString
        var path: String { scratch.string + "/" + name.lossyString }

        init(_ assignments: [String], name: String = "IMG_0001.xmp") throws {
            scratch = try ScratchDirectory(label: "xmp-write")
            self.name = ByteString(name)
            directory = try DirectoryHandle.open(scratch.path, followingSymlinks: false)
            try ExifTool.create(scratch.string + "/" + name, assignments, in: scratch.string)
        }

        func value(_ tag: String) throws -> String? { try ExifTool.value(tag, of: path, in: scratch.string) }
        func status() throws -> FileStatus { try FileStatus.of(ByteString(path)) }
        func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: scratch.string).sorted() }
    }

    static let reject = MarksChange(flag: .reject, label: .set(.green))

    /// Our three properties change, every other one is as it was: exiftool's whole
    /// XMP dump, less the lines of what the change is about, is the same.
    @Test func keepsEveryOtherPropertyOfAnotherEditor() throws {
        let fixture = try Fixture(Self.busySidecar)
        let before = try ExifTool.dump(fixture.path, in: fixture.scratch.string)
        let outcome = try SidecarWriter().update(fixture.name, in: fixture.directory, change: Self.reject)
        #expect(outcome.previous == PhotoMarks(rating: 2, flag: .none, label: .red))
        // Rejected, the stars Windows' copy has stay (docs/XMP.md).
        #expect(outcome.marks == PhotoMarks(rating: 2, flag: .reject, label: .green))
        #expect(outcome.written)
        let after = try ExifTool.dump(fixture.path, in: fixture.scratch.string)

        // Ours, and the toolkit's name, which says who wrote the file last.
        let ours: Set = ["XMP-xmp:Rating", "XMP-xmp:Label", "XMP-digiKam:PickLabel", "XMP-digiKam:ColorLabel",
                         "XMP-darktable:Colorlabels", "XMP-x:XMPToolkit"]
        let kept = before.filter { !ours.contains($0.key) }
        #expect(kept.count >= 15, "the fixture has the other editor's settings: \(before.keys.sorted())")
        #expect(NSDictionary(dictionary: kept) == NSDictionary(dictionary: after.filter { !ours.contains($0.key) }),
                "before: \(kept)\nafter: \(after)")
        // The copies darktable and digiKam read follow the new label; Windows' stars stay.
        #expect(try fixture.value("XMP-darktable:colorlabels") == "2")
        #expect(try fixture.value("XMP-digiKam:ColorLabel") == "4")
        #expect(try fixture.value("XMP-microsoft:RatingPercent") == "25")
    }

    /// What we write, exiftool and exempi's own CLI read back.
    @Test func independentReadersReadOurValues() throws {
        let fixture = try Fixture(["-XMP-xmp:Rating=1", "-XMP-crs:Exposure2012=+0.50"], name: "IMG_0002.CR2.xmp")
        try SidecarWriter().update(fixture.name, in: fixture.directory, change: Self.reject)
        #expect(try fixture.value("XMP-xmp:Rating") == "-1")
        #expect(try fixture.value("XMP-xmp:Label") == "Green")
        #expect(try fixture.value("XMP-digiKam:PickLabel") == "1")
        #expect(try ExifTool.exempiValue("xmp:Rating", of: fixture.path) == "-1")
        #expect(try ExifTool.exempiValue("xmp:Label", of: fixture.path) == "Green")

        try SidecarWriter().update(fixture.name, in: fixture.directory,
                                   change: MarksChange(rating: .set(5), flag: .pick, label: .cleared))
        #expect(try fixture.value("XMP-xmp:Rating") == "5")
        #expect(try fixture.value("XMP-xmp:Label") == nil)
        #expect(try fixture.value("XMP-digiKam:PickLabel") == "3")
        #expect(try ExifTool.exempiValue("xmp:Rating", of: fixture.path) == "5")
        #expect(try fixture.value("XMP-crs:Exposure2012") == "+0.50")
    }

    /// The sidecar is a new file (renamed over the old), with the old one's owner,
    /// group and mode; nothing else is left in the folder.
    @Test func replacesTheFileWholeWithItsOwnerAndMode() throws {
        let fixture = try Fixture(["-XMP-xmp:Rating=3"])
        #expect(chown(fixture.path, 4321, 8765) == 0 && chmod(fixture.path, 0o640) == 0)
        let before = try fixture.status()
        try SidecarWriter().update(fixture.name, in: fixture.directory, change: MarksChange(rating: .set(1)))
        let after = try fixture.status()
        #expect(after.inode != before.inode, "replaced by rename, not written in place")
        #expect(after.uid == 4321 && after.gid == 8765)
        #expect(after.mode & 0o7777 == 0o640)
        #expect(try fixture.names() == ["IMG_0001.xmp", "exiftool.config"])
        #expect(try fixture.value("XMP-xmp:Rating") == "1")
    }

    /// A change the sidecar already says writes nothing.
    @Test func aChangeAlreadyMadeWritesNothing() throws {
        let fixture = try Fixture(["-XMP-xmp:Rating=-1", "-XMP-xmp:Label=Green", "-XMP-digiKam:PickLabel=1"])
        let before = try fixture.status()
        let outcome = try SidecarWriter().update(fixture.name, in: fixture.directory, change: Self.reject)
        #expect(!outcome.written)
        #expect(outcome.previous == outcome.marks)
        #expect(try fixture.status() == before)
    }

    /// darktable saves the sidecar after our read: our change is made again on top
    /// of its, and its change stays.
    @Test func anotherProgramsWriteBetweenOurReadAndOursIsKept() throws {
        let fixture = try Fixture(["-XMP-xmp:Rating=3", "-XMP-crs:Exposure2012=+0.50"])
        let attempts = Mutex<[Int]>([])
        var writer = SidecarWriter()
        let path = fixture.path, folder = fixture.scratch.string
        writer.beforeReplacing = { attempt in
            attempts.withLock { $0.append(attempt) }
            // Only the first time: it saves once, while we were writing.
            if attempt == 1 { _ = try? ExifTool.run(["-q", "-overwrite_original", "-XMP-crs:Exposure2012=-1.00", path], in: folder) }
        }
        let outcome = try writer.update(fixture.name, in: fixture.directory, change: MarksChange(label: .set(.blue)))
        #expect(attempts.withLock { $0 } == [1, 2])
        #expect(outcome.marks == PhotoMarks(rating: 3, label: .blue))
        #expect(try fixture.value("XMP-crs:Exposure2012") == "-1.00")
        #expect(try fixture.value("XMP-xmp:Label") == "Blue")
        #expect(try fixture.names() == ["IMG_0001.xmp", "exiftool.config"])
    }

    /// A program that saves on every try: we give up and say so, and its file stays.
    @Test func givesUpOnASidecarThatKeepsChanging() throws {
        let fixture = try Fixture(["-XMP-xmp:Rating=3"])
        var writer = SidecarWriter()
        let path = fixture.path, folder = fixture.scratch.string
        writer.beforeReplacing = { attempt in
            _ = try? ExifTool.run(["-q", "-overwrite_original", "-XMP-crs:Exposure2012=+\(attempt).00", path], in: folder)
        }
        let error = try #require(throws: SidecarError.self) {
            try writer.update(fixture.name, in: fixture.directory, change: MarksChange(flag: .reject))
        }
        guard case .keptChanging(let failed, let attempts) = error else { Issue.record("\(error)"); return }
        #expect(failed == path && attempts == 3)
        #expect(try fixture.value("XMP-crs:Exposure2012") == "+3.00")
        #expect(try fixture.value("XMP-xmp:Rating") == "3")
        #expect(try fixture.names() == ["IMG_0001.xmp", "exiftool.config"])
    }

    /// A failed rename (or fsync) leaves the old sidecar as it was and no temporary file.
    @Test(arguments: [SystemCall.renameat2, .fsync, .write])
    func aFailedStepLeavesTheOldSidecar(call: SystemCall) throws {
        let fixture = try Fixture(["-XMP-xmp:Rating=3"])
        let before = try fixture.scratch.read(ByteString(fixture.path))
        let plan = FaultPlan(Fault(call, .fail(Errno(EIO))))
        #expect(throws: SidecarError.self) {
            try plan.run { () throws(SidecarError) in
                _ = try SidecarWriter().update(fixture.name, in: fixture.directory, change: MarksChange(flag: .reject))
            }
        }
        #expect(try fixture.scratch.read(ByteString(fixture.path)) == before)
        #expect(try fixture.names() == ["IMG_0001.xmp", "exiftool.config"])
    }

    /// Neither a sidecar that is not XMP nor a symlink is touched.
    @Test func refusesWhatIsNotXMPOrNotAFile() throws {
        let scratch = try ScratchDirectory(label: "xmp-write")
        try scratch.write("broken.xmp", Array("<x:xmpmeta><oops".utf8))
        #expect(symlink("/etc/hostname", scratch.string + "/link.xmp") == 0)
        let directory = try DirectoryHandle.open(scratch.path, followingSymlinks: false)
        let broken = try #require(throws: SidecarError.self) {
            try SidecarWriter().update("broken.xmp", in: directory, change: MarksChange(flag: .reject))
        }
        guard case .xmp(let xmp) = broken else { Issue.record("\(broken)"); return }
        #expect(xmp.path == scratch.string + "/broken.xmp" && xmp.code == -201)
        #expect(try scratch.read(scratch.child("broken.xmp")) == Array("<x:xmpmeta><oops".utf8))
        let link = try #require(throws: SidecarError.self) {
            try SidecarWriter().update("link.xmp", in: directory, change: MarksChange(flag: .reject))
        }
        guard case .notRegularFile(let linkPath) = link else { Issue.record("\(link)"); return }
        #expect(linkPath == scratch.string + "/link.xmp")
    }

    /// A photo with no sidecar gets one, with the owner and mode asked for; when one
    /// appeared meanwhile, that one is updated instead.
    @Test func createsASidecarOrUpdatesOneThatAppeared() throws {
        let scratch = try ScratchDirectory(label: "xmp-write")
        let directory = try DirectoryHandle.open(scratch.path, followingSymlinks: false)
        let outcome = try SidecarWriter().create("IMG_0009.xmp", in: directory, owner: (1234, 5678), mode: 0o644,
                                                 change: MarksChange(rating: .set(4), label: .set(.red)))
        #expect(outcome.previous == .unmarked && outcome.marks == PhotoMarks(rating: 4, label: .red) && outcome.written)
        let path = scratch.string + "/IMG_0009.xmp"
        let status = try FileStatus.of(ByteString(path))
        #expect(status.uid == 1234 && status.gid == 5678 && status.mode & 0o7777 == 0o644)
        #expect(try ExifTool.value("XMP-xmp:Rating", of: path, in: scratch.string) == "4")
        #expect(try ExifTool.exempiValue("xmp:Label", of: path) == "Red")

        var writer = SidecarWriter()
        let other = scratch.string + "/IMG_0010.CR2.xmp", folder = scratch.string
        writer.beforeReplacing = { attempt in
            if attempt == 1, !FileManager.default.fileExists(atPath: other) {
                try? ExifTool.create(other, ["-XMP-darktable:history_operation=exposure"], in: folder)
            }
        }
        let merged = try writer.create("IMG_0010.CR2.xmp", in: directory, owner: (0, 0), mode: 0o644,
                                       change: MarksChange(flag: .reject))
        #expect(merged.marks == PhotoMarks(flag: .reject))
        #expect(try ExifTool.value("XMP-darktable:history_operation", of: other, in: folder) == "exposure")
        #expect(try ExifTool.value("XMP-xmp:Rating", of: other, in: folder) == "-1")
    }

    /// A write taken back leaves the sidecar byte for byte as it was (a group is
    /// rated whole or not at all); a created one goes; one another program changed
    /// since is left as that program wrote it.
    @Test func aWriteIsTakenBackOnlyWhileTheSidecarIsOurs() throws {
        let fixture = try Fixture(["-XMP-xmp:Rating=3", "-XMP-crs:Exposure2012=+0.50"])
        #expect(chmod(fixture.path, 0o640) == 0)
        let original = try fixture.scratch.read(ByteString(fixture.path))
        let writer = SidecarWriter()
        let outcome = try writer.update(fixture.name, in: fixture.directory, change: Self.reject)
        let undo = try #require(outcome.undo)
        #expect(try writer.undo(undo, of: fixture.name, in: fixture.directory))
        #expect(try fixture.scratch.read(ByteString(fixture.path)) == original)
        #expect(try fixture.status().mode & 0o7777 == 0o640)
        #expect(try fixture.names() == ["IMG_0001.xmp", "exiftool.config"])

        let again = try #require(try writer.update(fixture.name, in: fixture.directory, change: Self.reject).undo)
        try ExifTool.run(["-q", "-overwrite_original", "-XMP-crs:Exposure2012=-2.00", fixture.path], in: fixture.scratch.string)
        #expect(try !writer.undo(again, of: fixture.name, in: fixture.directory))
        #expect(try fixture.value("XMP-crs:Exposure2012") == "-2.00" && fixture.value("XMP-xmp:Rating") == "-1")
        #expect(try fixture.names() == ["IMG_0001.xmp", "exiftool.config"])

        let created = try writer.create("IMG_0002.xmp", in: fixture.directory, owner: (0, 0), mode: 0o644,
                                        change: MarksChange(rating: .set(2)))
        #expect(try writer.undo(try #require(created.undo), of: "IMG_0002.xmp", in: fixture.directory))
        #expect(try fixture.names() == ["IMG_0001.xmp", "exiftool.config"])
    }
}
