// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorCore
import CuratorSystem
import CuratorTestSupport
import Testing

@Suite struct PhotoTypeTests {
    static let expected: [(String, PhotoType)] = [
        ("jpg", .jpeg), ("jpeg", .jpeg), ("png", .png), ("heic", .heic), ("heif", .heic), ("hif", .heic),
        ("webp", .webp), ("tif", .tiff), ("tiff", .tiff), ("gif", .gif), ("avif", .avif),
        ("cr2", .cr2), ("cr3", .cr3), ("nef", .nef), ("arw", .arw), ("dng", .dng),
        ("orf", .orf), ("rw2", .rw2), ("raf", .raf), ("mp4", .mp4), ("mov", .mov),
    ]

    @Test(arguments: expected.map { $0.0 })
    func detectsEveryExtensionInAnyCase(ext: String) throws {
        let type = try #require(Self.expected.first { $0.0 == ext }?.1)
        let mixed = String(ext.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.uppercased()) : $0.element })
        for spelling in [ext, ext.uppercased(), mixed] {
            #expect(PhotoType.detect(name: ByteString("IMG_0001.\(spelling)")) == type, "IMG_0001.\(spelling)")
        }
    }

    @Test func wireNamesAreStable() {
        // Stored in the index and sent to clients: changing one is a migration.
        #expect(PhotoType.allCases.map(\.wireName) == [
            "jpeg", "png", "heic", "webp", "tiff", "gif", "avif",
            "cr2", "cr3", "nef", "arw", "dng", "orf", "rw2", "raf", "mp4", "mov",
            "xmp", "aae", "pp3", "dop", "thm",
        ])
        for type in PhotoType.allCases {
            #expect(PhotoType(wireName: type.wireName) == type)
        }
        #expect(PhotoType(wireName: "jpg") == nil, "an extension is not a wire name")
        #expect(PhotoType(wireName: "JPEG") == nil)
        #expect(PhotoType(wireName: "") == nil)
    }

    /// The index's type column is read in place at start-up: its bytes name the
    /// type the `String` names, and nothing else names one.
    @Test func wireNameBytesReadAsTheWireName() {
        func read(_ text: String) -> PhotoType? {
            Array(text.utf8).withUnsafeBufferPointer { PhotoType(wireName: $0) }
        }
        for type in PhotoType.allCases { #expect(read(type.wireName) == type) }
        for junk in ["", "JPEG", "jpe", "jpegs", "xjpeg", "jpeg\0", "jpg", "tif", "heicheic", "abcdefgh", "\u{1}jpeg"] {
            #expect(read(junk) == nil, "\(junk.debugDescription)")
            #expect(read(junk) == PhotoType(wireName: junk))
        }
    }

    @Test func familiesGroupTheTypes() {
        #expect(PhotoType.jpeg.family == .image)
        #expect(PhotoType.avif.family == .image)
        #expect(PhotoType.allCases.filter { $0.family == .raw } == [.cr2, .cr3, .nef, .arw, .dng, .orf, .rw2, .raf])
        #expect(PhotoType.allCases.filter { $0.family == .video } == [.mp4, .mov])
    }

    @Test func sidecarsAreFilesTheIndexKnowsButNeverPhotos() {
        for (name, type) in [("IMG_0001.XMP", PhotoType.xmp), ("IMG_0001.CR2.xmp", .xmp), ("IMG_0001.aae", .aae),
                             ("IMG_0001.CR2.pp3", .pp3), ("IMG_0001.NEF.dop", .dop), ("MVI_0001.THM", .thm)] {
            #expect(PhotoType.detect(name: ByteString(name)) == nil, "\(name) is not a photo")
            #expect(PhotoType.detectFile(name: ByteString(name)) == type, "\(name)")
            #expect(type.family == .sidecar && type.isSidecar && !type.mayCarryExif)
            #expect(PhotoType(configName: type.wireName) == nil, "a root's types are photo types")
        }
        #expect(PhotoType.detectFile(name: "IMG_0001.JPG") == .jpeg)
        for type in PhotoType.allCases {
            #expect(SidecarFormat(type) == SidecarFormat(rawValue: type.rawValue), "\(type)")
            #expect((SidecarFormat(type) != nil) == type.isSidecar, "\(type)")
        }
        #expect(!PhotoTypeFilter.all.types.contains { $0.isSidecar })
        #expect(PhotoType.photoTypes.count == 17)
        #expect(throws: UnknownPhotoTypeError.self) { try PhotoTypeFilter(names: ["sidecar"]) }
        #expect(throws: UnknownPhotoTypeError.self) { try PhotoTypeFilter(names: ["xmp"]) }
    }

    @Test func namesThatAreNotUTF8StillHaveTheirType() {
        // "caf\xE9.JPG" in Latin-1: the stem is not UTF-8, the extension is ASCII.
        let latin1 = ByteString([0x63, 0x61, 0x66, 0xE9, 0x2E, 0x4A, 0x50, 0x47])
        #expect(latin1.utf8String == nil)
        #expect(PhotoType.detect(name: latin1) == .jpeg)
        #expect(PhotoType.detect(name: ByteString([0xFF, 0xFE, 0x2E, 0x6E, 0x65, 0x66])) == .nef)
        // An extension that is itself not UTF-8 is no type.
        #expect(PhotoType.detect(name: ByteString([0x61, 0x2E, 0x6A, 0x70, 0xE7])) == nil)
        #expect(PhotoType.detect(name: ByteString("Été à Nice.jpg")) == .jpeg)
    }

    @Test(arguments: [
        "IMG_0001", "README", ".jpg", ".JPG", "IMG_0001.", "photo.jpg.zip", "notes.xmp", "Thumbs.db",
        ".DS_Store", "IMG_0001.jpgx", "IMG_0001.xjpg", "IMG_0001.jp", "movie.mkv", "",
    ])
    func otherNamesAreNotPhotos(name: String) {
        #expect(PhotoType.detect(name: ByteString(name)) == nil)
    }

    @Test func onlyTheLastComponentCounts() {
        #expect(PhotoType.detect(name: "2024/05-beach/DSC_1234.NEF") == .nef)
        #expect(PhotoType.detect(name: "album.jpg/README") == nil)
        #expect(PhotoType.detect(name: "archive.tar.JPG") == .jpeg)
        // A hidden file's extension still says its type; hiding is Exclusions' job.
        #expect(PhotoType.detect(name: "._IMG_1.JPG") == .jpeg)
        // A dotfile below a folder has no extension either; nor has a folder's path.
        #expect(PhotoType.detect(name: "2024/.jpg") == nil)
        #expect(PhotoType.detect(name: "2024/trip.jpg/") == nil)
        #expect(PhotoType.detectFile(name: "2024.07/IMG_0001.CR2.xmp") == .xmp)
    }

    /// A filter tells its types by a bit per case number (a 32-bit word): each
    /// filter of one type admits that type alone, and a filter of some types
    /// admits exactly those.
    @Test func aFilterAdmitsExactlyItsTypes() {
        #expect(PhotoType.allCases.allSatisfy { $0.caseNumber < 32 })
        for type in PhotoType.allCases {
            let one = PhotoTypeFilter(types: [type])
            #expect(PhotoType.allCases.filter(one.contains) == [type])
        }
        var random = SplitMix64(seed: 3)
        for _ in 0..<200 {
            let some = Set(PhotoType.allCases.filter { _ in Bool.random(using: &random) })
            let filter = PhotoTypeFilter(types: some)
            #expect(Set(PhotoType.allCases.filter(filter.contains)) == some)
        }
        #expect(PhotoType.allCases.filter(PhotoTypeFilter.all.contains) == PhotoType.photoTypes)
    }

    /// Types are hashed by case (not by wire name, as a `String` raw value would
    /// have it): every case its own number, and sets and dictionaries keyed by
    /// type still tell every type apart.
    @Test func everyTypeHashesAsItsOwnCase() {
        #expect(Set(PhotoType.allCases.map(\.caseNumber)).count == PhotoType.allCases.count)
        let byType = Dictionary(uniqueKeysWithValues: PhotoType.allCases.map { ($0, $0.wireName) })
        for type in PhotoType.allCases { #expect(byType[type] == type.wireName) }
        #expect(Set(PhotoType.allCases).count == PhotoType.allCases.count)
        var byCase = Hasher(), byName = Hasher()
        byCase.combine(PhotoType.png)
        byName.combine("png")
        #expect(byCase.finalize() != byName.finalize())
    }

    @Test func configNamesAcceptWireNamesAndExtensions() {
        #expect(PhotoType(configName: "jpeg") == .jpeg)
        #expect(PhotoType(configName: "jpg") == .jpeg)
        #expect(PhotoType(configName: ".JPG") == .jpeg)
        #expect(PhotoType(configName: "HEIF") == .heic)
        #expect(PhotoType(configName: "tif") == .tiff)
        #expect(PhotoType(configName: "raw") == nil)
        #expect(PhotoType(configName: "jp") == nil)
        #expect(PhotoType(configName: ".") == nil)
    }
}

@Suite struct PhotoTypeFilterTests {
    @Test func aConfiguredSubsetAcceptsOnlyItsTypes() throws {
        let filter = try PhotoTypeFilter(names: ["jpg", ".CR2", "video"])
        #expect(filter.types == [.jpeg, .cr2, .mp4, .mov])
        #expect(filter.detect(name: "IMG_1.JPG") == .jpeg)
        #expect(filter.detect(name: "IMG_1.jpeg") == .jpeg, "an extension admits its whole type")
        #expect(filter.detect(name: "IMG_1.CR2") == .cr2)
        #expect(filter.detect(name: "clip.MOV") == .mov)
        #expect(filter.detect(name: "IMG_1.png") == nil)
        #expect(filter.detect(name: "IMG_1.NEF") == nil)
        #expect(filter.detect(name: "README") == nil)
        #expect(filter.wireNames == ["jpeg", "cr2", "mp4", "mov"])
    }

    @Test func familiesAndWireNamesMix() throws {
        let filter = try PhotoTypeFilter(names: ["RAW", "heic", "png"])
        #expect(filter.types == [.cr2, .cr3, .nef, .arw, .dng, .orf, .rw2, .raf, .heic, .png])
        #expect(try PhotoTypeFilter(names: ["image"]).types == Set(PhotoType.allCases.filter { $0.family == .image }))
    }

    @Test func allAcceptsEveryPhotoType() {
        for type in PhotoType.photoTypes {
            #expect(PhotoTypeFilter.all.detect(name: ByteString("x.\(type.extensions[0])")) == type)
        }
    }

    @Test func anUnknownNameIsAnErrorThatNamesIt() {
        #expect(throws: UnknownPhotoTypeError(name: "jpgg")) {
            try PhotoTypeFilter(names: ["jpeg", "jpgg", "png"])
        }
        let error = UnknownPhotoTypeError(name: "bmp")
        #expect(error.description.contains("'bmp'"))
        #expect(error.description.contains("jpeg"))
    }
}
