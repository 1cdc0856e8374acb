// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem
import CuratorTestSupport
import CuratorXMP
import Testing

/// Sidecars written by exiftool the way each tool writes them (docs/XMP.md, "What
/// each tool writes") read as that tool shows them.
@Suite(.serialized)
struct InteropReadingTests {
    func marks(of name: String, _ assignments: [String]) throws -> PhotoMarks? {
        let scratch = try ScratchDirectory(label: "xmp-read")
        let path = scratch.string + "/" + name
        try ExifTool.create(path, assignments, in: scratch.string)
        let directory = try DirectoryHandle.open(scratch.path, followingSymlinks: false)
        let file = try #require(try SidecarFile.read(ByteString(name), in: directory))
        return PhotoMarks(try XMPPacket(parsing: file.bytes, path: path))
    }

    /// darktable: stars in xmp:Rating, its labels a Seq of indices, and its history.
    @Test func darktableStarsAndLabels() throws {
        let marks = try marks(of: "IMG_0001.CR2.xmp", [
            "-XMP-xmp:Rating=3", "-XMP-darktable:colorlabels=3", "-XMP-darktable:colorlabels=1",
            "-XMP-darktable:xmp_version=5", "-XMP-darktable:history_end=2",
            "-XMP-darktable:history_operation=exposure", "-XMP-darktable:history_operation=filmicrgb",
        ])
        #expect(marks == PhotoMarks(rating: 3, flag: .none, label: .yellow))
    }

    /// darktable's reject: xmp:Rating -1, the stars gone.
    @Test func darktableReject() throws {
        let marks = try marks(of: "IMG_0001_01.CR2.xmp", ["-XMP-xmp:Rating=-1", "-XMP-darktable:colorlabels=0"])
        #expect(marks == PhotoMarks(rating: nil, flag: .reject, label: .red))
    }

    /// digiKam: xmp:Rating with Windows' percentage, PickLabel, ColorLabel and Lightroom's name.
    @Test func digiKamPickAndColour() throws {
        let marks = try marks(of: "IMG_0002.JPG.xmp", [
            "-XMP-xmp:Rating=4", "-XMP-microsoft:RatingPercent=75", "-XMP-digiKam:PickLabel=3",
            "-XMP-digiKam:ColorLabel=5", "-XMP-xmp:Label=Blue",
        ])
        #expect(marks == PhotoMarks(rating: 4, flag: .pick, label: .blue))
    }

    /// digiKam's reject, and a colour (orange) no other tool has.
    @Test func digiKamRejectWithOrange() throws {
        let marks = try marks(of: "IMG_0003.JPG.xmp", ["-XMP-xmp:Rating=2", "-XMP-digiKam:PickLabel=1", "-XMP-digiKam:ColorLabel=2"])
        #expect(marks == PhotoMarks(rating: 2, flag: .reject, label: nil))
    }

    /// Lightroom: a RAW's NAME.xmp, stars, a label name and develop settings.
    @Test func lightroomStarsAndLabel() throws {
        let marks = try marks(of: "IMG_0004.xmp", [
            "-XMP-xmp:Rating=5", "-XMP-xmp:Label=Purple", "-XMP-crs:Exposure2012=+0.50", "-XMP-crs:WhiteBalance=As Shot",
        ])
        #expect(marks == PhotoMarks(rating: 5, flag: .none, label: .purple))
    }

    /// Bridge's reject, and a Lightroom label set's own name, which is no colour.
    @Test func bridgeRejectWithACustomLabel() throws {
        let marks = try marks(of: "IMG_0005.xmp", ["-XMP-xmp:Rating=-1", "-XMP-xmp:Label=Second round"])
        #expect(marks == PhotoMarks(rating: nil, flag: .reject, label: nil))
    }

    /// Photo Mechanic: its tag is a pick.
    @Test func photoMechanicTagged() throws {
        let marks = try marks(of: "IMG_0006.xmp", ["-XMP-xmp:Rating=2", "-XMP-photomech:Tagged#=True", "-XMP-photomech:ColorClass=3"])
        #expect(marks == PhotoMarks(rating: 2, flag: .pick, label: nil))
    }

    /// Windows: only a percentage.
    @Test func windowsPercentage() throws {
        #expect(try marks(of: "IMG_0007.JPG.xmp", ["-XMP-microsoft:RatingPercent=50"]) == PhotoMarks(rating: 3))
    }

    /// A sidecar with develop settings only: no marks said.
    @Test func developSettingsOnly() throws {
        #expect(try marks(of: "IMG_0008.xmp", ["-XMP-crs:Exposure2012=-0.30"]) == nil)
    }
}
