// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import Testing

/// Every rule of issue 15's "What a group is", one folder's names at a time.
@Suite struct PhotoGroupingTests {
    /// A group written as its member names, the shown one first; a sidecar of one
    /// file as `name>file`.
    static func shape(_ grouping: FolderGrouping) -> [[String]] {
        grouping.groups.map { group in
            group.members.map { member in
                member.sidecarOf.map { "\(member.name)>\($0)" } ?? member.name.lossyString
            }
        }
    }

    static func group(_ names: [String], _ settings: GroupSettings = .default) -> FolderGrouping {
        PhotoGrouping.group(names: names.map { ByteString($0) }, settings: settings)
    }

    // MARK: pairs

    @Test func renderedAndRawOfOneBaseArePairedCaseInsensitively() {
        #expect(Self.shape(Self.group(["IMG_0001.JPG", "IMG_0001.CR2"])) == [["IMG_0001.JPG", "IMG_0001.CR2"]])
        #expect(Self.shape(Self.group(["img_0002.cr2", "IMG_0002.JPG"])) == [["IMG_0002.JPG", "img_0002.cr2"]])
        #expect(Self.shape(Self.group(["PXL_20241010_093012123.jpg", "PXL_20241010_093012123.dng"]))
                == [["PXL_20241010_093012123.jpg", "PXL_20241010_093012123.dng"]])
    }

    @Test(arguments: ["jpg", "jpeg", "JPG", "heic", "heif", "HIF", "png", "tif", "tiff", "webp", "avif"])
    func everyRenderedTypePairsWithEveryRaw(ext: String) {
        for raw in ["cr2", "cr3", "nef", "arw", "dng", "orf", "rw2", "raf", "NEF"] {
            let grouping = Self.group(["DSC_1.\(ext)", "DSC_1.\(raw)"])
            #expect(Self.shape(grouping) == [["DSC_1.\(ext)", "DSC_1.\(raw)"]], "\(ext) + \(raw)")
            #expect(grouping.groups.first?.members.map(\.kind) == [.rendered, .raw])
        }
    }

    @Test func aRootMayShowTheRaw() {
        let grouping = Self.group(["IMG_0001.JPG", "IMG_0001.CR2", "IMG_0001.xmp"], GroupSettings(shown: .raw))
        #expect(Self.shape(grouping) == [["IMG_0001.CR2", "IMG_0001.JPG", "IMG_0001.xmp"]])
        // A Live Photo has no RAW: its still is shown either way.
        #expect(Self.shape(Self.group(["IMG_0002.HEIC", "IMG_0002.MOV"], GroupSettings(shown: .raw)))
                == [["IMG_0002.HEIC", "IMG_0002.MOV"]])
    }

    @Test func differentBasesDoNotPair() {
        #expect(Self.shape(Self.group(["IMG_0001.JPG", "IMG_0002.CR2", "IMG_0001a.CR2", "IMG_000.CR2"]))
                == [["IMG_000.CR2"], ["IMG_0001.JPG"], ["IMG_0001a.CR2"], ["IMG_0002.CR2"]])
        // The base is the name without its last extension only.
        #expect(Self.shape(Self.group(["a.b.jpg", "a.cr2"])) == [["a.b.jpg"], ["a.cr2"]])
        #expect(Self.shape(Self.group(["a.b.jpg", "A.B.CR2"])) == [["a.b.jpg", "A.B.CR2"]])
    }

    // MARK: Live Photos

    @Test func aLivePhotoIsItsStillAndItsClip() {
        #expect(Self.shape(Self.group(["IMG_0001.HEIC", "IMG_0001.MOV"])) == [["IMG_0001.HEIC", "IMG_0001.MOV"]])
        #expect(Self.shape(Self.group(["IMG_0002.JPG", "IMG_0002.mov"])) == [["IMG_0002.JPG", "IMG_0002.mov"]])
        #expect(Self.group(["IMG_0001.HEIC", "IMG_0001.MOV"]).groups.first?.members.map(\.kind) == [.rendered, .video])
        // With its edits and a RAW too, still one shot.
        #expect(Self.shape(Self.group(["IMG_0003.HEIC", "IMG_0003.MOV", "IMG_0003.AAE", "IMG_0003.DNG"]))
                == [["IMG_0003.HEIC", "IMG_0003.DNG", "IMG_0003.MOV", "IMG_0003.AAE"]])
    }

    @Test func aClipWithoutAJpegOrHeicStillIsNotALivePhoto() {
        #expect(Self.shape(Self.group(["IMG_0001.PNG", "IMG_0001.MOV"])) == [["IMG_0001.MOV"], ["IMG_0001.PNG"]])
        #expect(Self.shape(Self.group(["IMG_0001.CR2", "IMG_0001.MOV"])) == [["IMG_0001.CR2"], ["IMG_0001.MOV"]])
        // A clip alone is a photo of its own (a camera's movie).
        #expect(Self.shape(Self.group(["MVI_0001.MOV"])) == [["MVI_0001.MOV"]])
    }

    // MARK: ambiguity

    @Test func twoOfAKindAreNotGroupedAndEachStaysItsOwnPhoto() {
        #expect(Self.shape(Self.group(["IMG_0001.JPG", "IMG_0001.HEIC"])) == [["IMG_0001.HEIC"], ["IMG_0001.JPG"]])
        #expect(Self.shape(Self.group(["IMG_0001.CR2", "IMG_0001.DNG", "IMG_0001.JPG"]))
                == [["IMG_0001.CR2"], ["IMG_0001.DNG"], ["IMG_0001.JPG"]])
        #expect(Self.shape(Self.group(["IMG_0001.JPG", "IMG_0001.jpg", "IMG_0001.CR2"]))
                == [["IMG_0001.CR2"], ["IMG_0001.JPG"], ["IMG_0001.jpg"]])
        #expect(Self.shape(Self.group(["IMG_0001.HEIC", "IMG_0001.MOV", "IMG_0001.MP4"]))
                == [["IMG_0001.HEIC"], ["IMG_0001.MOV"], ["IMG_0001.MP4"]])
        #expect(Self.shape(Self.group(["IMG_0001.GIF", "IMG_0001.CR2"])) == [["IMG_0001.CR2"], ["IMG_0001.GIF"]])
    }

    /// No one photo takes a shot sidecar of two photos of one base: it is listed as an
    /// orphan (where `ls --orphans` shows it), never trashed with either photo.
    @Test func aShotSidecarOfAnAmbiguousBaseIsAnOrphanButFileSidecarsStillFollowTheirFile() {
        let grouping = Self.group(["IMG_0001.JPG", "IMG_0001.HEIC", "IMG_0001.xmp", "IMG_0001.JPG.xmp"])
        #expect(Self.shape(grouping) == [["IMG_0001.HEIC"], ["IMG_0001.JPG", "IMG_0001.JPG.xmp>IMG_0001.JPG"]])
        #expect(grouping.orphans == ["IMG_0001.xmp"])
        #expect(grouping.undecided.isEmpty)
        let twoJPEGs = Self.group(["IMG_0007.JPG", "IMG_0007.jpeg", "IMG_0007.xmp"])
        #expect(Self.shape(twoJPEGs) == [["IMG_0007.JPG"], ["IMG_0007.jpeg"]])
        #expect(twoJPEGs.orphans == ["IMG_0007.xmp"])
        // A file sidecar that matches two files only case-insensitively is no one's either.
        #expect(Self.group(["IMG_0001.JPG", "IMG_0001.jpg", "IMG_0001.Jpg.xmp"]).orphans == ["IMG_0001.Jpg.xmp"])
    }

    // MARK: sidecars

    @Test func bothXmpConventions() {
        let grouping = Self.group(["IMG_0001.JPG", "IMG_0001.CR2", "IMG_0001.xmp", "IMG_0001.CR2.xmp", "IMG_0001.JPG.XMP"])
        #expect(Self.shape(grouping) == [[
            "IMG_0001.JPG", "IMG_0001.CR2", "IMG_0001.CR2.xmp>IMG_0001.CR2", "IMG_0001.JPG.XMP>IMG_0001.JPG", "IMG_0001.xmp",
        ]])
        #expect(grouping.groups.first?.members.map(\.kind) == [.rendered, .raw, .sidecar, .sidecar, .sidecar])
        #expect(grouping.orphans.isEmpty && grouping.undecided.isEmpty)
    }

    @Test func darktableDuplicatesBelongToTheirOriginal() {
        let grouping = Self.group(["IMG_0001.CR2", "IMG_0001.JPG", "IMG_0001.CR2.xmp", "IMG_0001_01.CR2.xmp", "IMG_0001_12.CR2.xmp"])
        #expect(Self.shape(grouping) == [[
            "IMG_0001.JPG", "IMG_0001.CR2", "IMG_0001.CR2.xmp>IMG_0001.CR2", "IMG_0001_01.CR2.xmp>IMG_0001.CR2",
            "IMG_0001_12.CR2.xmp>IMG_0001.CR2",
        ]])
        // A file that really is named so takes its own sidecar.
        #expect(Self.shape(Self.group(["IMG_0001.CR2", "IMG_0001_01.CR2", "IMG_0001_01.CR2.xmp"]))
                == [["IMG_0001.CR2"], ["IMG_0001_01.CR2", "IMG_0001_01.CR2.xmp>IMG_0001_01.CR2"]])
        // One digit, or a camera's four, is not darktable's duplicate number: that sidecar's image is gone.
        #expect(Self.group(["IMG_0001.CR2", "IMG_0001_1.CR2.xmp"]).orphans == ["IMG_0001_1.CR2.xmp"])
        #expect(Self.group(["IMG.CR2", "IMG_0001.CR2.xmp"]).orphans == ["IMG_0001.CR2.xmp"])
        // Only XMP: darktable writes no other sidecar.
        #expect(Self.group(["IMG_0001.CR2", "IMG_0001_01.CR2.pp3"]).orphans == ["IMG_0001_01.CR2.pp3"])
    }

    @Test(arguments: SidecarFormat.allCases)
    func everySidecarFormatInBothConventions(format: SidecarFormat) {
        let shot = "IMG_0001.\(format.rawValue.uppercased())"
        let file = "IMG_0001.NEF.\(format.rawValue)"
        let grouping = Self.group(["IMG_0001.JPG", "IMG_0001.NEF", shot, file])
        // Sidecars come by name.
        let sidecars = [shot, file].sorted().map { $0 == file ? "\(file)>IMG_0001.NEF" : $0 }
        #expect(Self.shape(grouping) == [["IMG_0001.JPG", "IMG_0001.NEF"] + sidecars])
        #expect(grouping.groups.first?.sidecars.first { $0.name.lossyString == shot }?.sidecarOf == nil)
    }

    @Test func aSinglePhotoWithSidecarsIsAGroupOfOnePhoto() {
        let grouping = Self.group(["MVI_0001.MOV", "MVI_0001.THM", "IMG_0002.JPG", "IMG_0002.aae"])
        #expect(Self.shape(grouping) == [["IMG_0002.JPG", "IMG_0002.aae"], ["MVI_0001.MOV", "MVI_0001.THM"]])
        #expect(grouping.groups.allSatisfy { $0.isGroup && $0.photos.count == 1 })
        #expect(!Self.group(["IMG_0003.JPG"]).groups[0].isGroup)
    }

    @Test func aFileSidecarMatchesItsImageCaseInsensitivelyWhenNoNameMatchesExactly() {
        #expect(Self.shape(Self.group(["IMG_0001.CR2", "img_0001.cr2.xmp"])) == [["IMG_0001.CR2", "img_0001.cr2.xmp>IMG_0001.CR2"]])
        // Two images that differ only in case: which one it is about is a guess, so it
        // is no one's, and listed as an orphan.
        let two = Self.group(["IMG_0001.CR2", "img_0001.CR2", "IMG_0001.cr2.xmp"])
        #expect(Self.shape(two) == [["IMG_0001.CR2"], ["img_0001.CR2"]])
        #expect(two.orphans == ["IMG_0001.cr2.xmp"] && two.undecided.isEmpty)
    }

    @Test func sidecarsWhoseImageIsGoneAreOrphans() {
        let grouping = Self.group(["IMG_0001.xmp", "IMG_0002.CR2.xmp", "IMG_0003_01.NEF.xmp", "IMG_0004.AAE", "IMG_0005.JPG",
                                   "IMG_0005.CR2.xmp", "notes.txt"])
        #expect(grouping.orphans == ["IMG_0001.xmp", "IMG_0002.CR2.xmp", "IMG_0003_01.NEF.xmp", "IMG_0004.AAE", "IMG_0005.CR2.xmp"])
        // The JPEG is there, but the CR2 that sidecar is about is gone.
        #expect(Self.shape(grouping) == [["IMG_0005.JPG"]])
        #expect(grouping.undecided.isEmpty)
    }

    @Test func sidecarsAreNeverPhotosAndOtherFilesAreIgnored() {
        let grouping = Self.group(["a.xmp", "b.pp3", "c.txt", ".xmp", "README", "IMG_0001.JPG.bak"])
        #expect(grouping.groups.isEmpty)
        #expect(grouping.orphans == ["a.xmp", "b.pp3"])
    }

    @Test func namesThatAreNotUTF8GroupByTheirBytes() {
        let base: [UInt8] = [0x66, 0xFF, 0x6F]  // "f\xFFo"
        let jpg = ByteString(base + Array(".JPG".utf8))
        let raw = ByteString(base + Array(".cr2".utf8))
        let xmp = ByteString(base + Array(".CR2.xmp".utf8))
        let grouping = PhotoGrouping.group(names: [xmp, raw, jpg])
        #expect(grouping.groups.map { $0.members.map(\.name) } == [[jpg, raw, xmp]])
        #expect(grouping.groups.first?.members.last?.sidecarOf == raw)
    }

    // MARK: settings

    @Test func groupingOffLeavesEveryPhotoAloneAndIgnoresSidecars() {
        let grouping = Self.group(["IMG_0001.JPG", "IMG_0001.CR2", "IMG_0001.xmp", "IMG_0009.xmp"], GroupSettings(enabled: false))
        #expect(Self.shape(grouping) == [["IMG_0001.CR2"], ["IMG_0001.JPG"]])
        #expect(grouping.orphans.isEmpty && grouping.undecided.isEmpty)
    }

    @Test func photosOfTypesTheRootDoesNotCountAreNoMembersAndLeaveTheirSidecarsUndecided() throws {
        let jpegOnly = GroupSettings(types: try PhotoTypeFilter(names: ["jpg"]))
        let grouping = Self.group(["IMG_0001.JPG", "IMG_0001.CR2", "IMG_0001.CR2.xmp", "IMG_0001.xmp", "IMG_0002.JPG",
                                   "IMG_0002.xmp"], jpegOnly)
        #expect(Self.shape(grouping) == [["IMG_0001.JPG"], ["IMG_0002.JPG", "IMG_0002.xmp"]])
        // Their images are there: never orphans (a cleanup must not take a RAW's edits).
        #expect(grouping.undecided == ["IMG_0001.CR2.xmp", "IMG_0001.xmp"])
        #expect(grouping.orphans.isEmpty)
    }

    // MARK: parts

    @Test func aPartTakesItsPhotoAndTheSidecarsOfThatFileOnly() throws {
        let grouping = Self.group(["IMG_0001.JPG", "IMG_0001.CR2", "IMG_0001.xmp", "IMG_0001.CR2.xmp", "IMG_0001_01.CR2.xmp",
                                   "IMG_0001.JPG.xmp"])
        let group = try #require(grouping.groups.first)
        #expect(group.part(.raw).map(\.name.lossyString) == ["IMG_0001.CR2", "IMG_0001.CR2.xmp", "IMG_0001_01.CR2.xmp"])
        #expect(group.part(.rendered).map(\.name.lossyString) == ["IMG_0001.JPG", "IMG_0001.JPG.xmp"])
        #expect(group.part(.video).isEmpty, "no clip: nothing of this group")
    }

    @Test func aPartThatIsEveryPhotoTakesTheShotSidecarsToo() throws {
        let group = try #require(Self.group(["IMG_0001.CR2", "IMG_0001.xmp", "IMG_0001.CR2.xmp"]).groups.first)
        #expect(group.part(.raw).map(\.name.lossyString) == ["IMG_0001.CR2", "IMG_0001.CR2.xmp", "IMG_0001.xmp"])
        #expect(group.part(.rendered).isEmpty)
    }

    // MARK: names

    @Test func shotNamesSayWhatAFileIsAbout() {
        #expect(ShotName("IMG_0001.JPG") == .photo(.jpeg, base: "img_0001"))
        #expect(ShotName("IMG_0001.XMP") == .shotSidecar(.xmp, base: "img_0001"))
        #expect(ShotName("IMG_0001.CR2.xmp") == .fileSidecar(.xmp, file: "IMG_0001.CR2", duplicateOf: nil))
        #expect(ShotName("IMG_00.CR2.xmp") == .fileSidecar(.xmp, file: "IMG_00.CR2", duplicateOf: nil), "duplicates count from 1")
        #expect(ShotName("IMG_0001_01.CR2.xmp") == .fileSidecar(.xmp, file: "IMG_0001_01.CR2", duplicateOf: "IMG_0001.CR2"))
        #expect(ShotName("IMG_0001_123.CR2.xmp") == .fileSidecar(.xmp, file: "IMG_0001_123.CR2", duplicateOf: "IMG_0001.CR2"))
        #expect(ShotName("_01.CR2.xmp") == .fileSidecar(.xmp, file: "_01.CR2", duplicateOf: nil))
        #expect(ShotName("IMG_0001.CR2.pp3") == .fileSidecar(.pp3, file: "IMG_0001.CR2", duplicateOf: nil))
        #expect(ShotName("holiday.2024.xmp") == .shotSidecar(.xmp, base: "holiday.2024"))
        #expect(ShotName("notes.txt") == .other)
        #expect(ShotName(".xmp") == .other)
    }
}
