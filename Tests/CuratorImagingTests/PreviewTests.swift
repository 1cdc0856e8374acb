// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorImaging
import CuratorProtocol
import CuratorSystem
import CuratorThumbnails
import Foundation
import Glibc
import Testing
import CuratorTestSupport

/// The full-size preview the real worker makes for a photo a browser cannot show
/// (`"preview": true` in a job): a RAW's embedded JPEG as the camera wrote it,
/// turned by an Exif orientation; a HEIF decoded and saved as JPEG; none when the
/// embedded preview is smaller than `xx-large`.
struct PreviewTests {
    typealias Setup = ThumbnailerProcessTests.Setup

    private func make(_ setup: Setup, _ path: ByteString, previews: Set<PreviewKind> = [.full]) throws -> ThumbnailResult {
        let source = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK)
        defer { try? source.close() }
        var request = ThumbnailerRequest(uri: try FileURI(path: path), source: source, cache: setup.directory.descriptor,
                                         sizes: [.normal, .large])
        request.previews = previews
        return try setup.thumbnailer.make(request)
    }

    @Test func aRawsPreviewIsItsEmbeddedJPEGWithAnOrientation() throws {
        let setup = try Setup()
        // The marker, 1600 x 1200 upright, stored 1200 x 1600 as orientation 6 says.
        let dng = try Samples.dng(setup.photos.appending("DSC_0100.DNG"), orientation: 6)
        let result = try make(setup, dng)
        #expect(result.status == .written && result.preview == .written, "\(result)")

        let uri = try FileURI(path: dng)
        let path = setup.cache.previewPath(for: uri)
        let preview = try setup.scratch.read(path)
        #expect(try FileStatus.of(path).mode & 0o777 == 0o600)
        // The camera's bytes, after SOI and what we put first: not decoded again.
        let file = try setup.scratch.read(dng)
        let embedded = try #require(file.withUnsafeBytes { EmbeddedPreview.find(in: $0) })
        let camera = Array(file[embedded.range])
        #expect(preview.count > camera.count && Array(preview.suffix(camera.count - 2)) == Array(camera.dropFirst(2)),
                "\(preview.count) bytes, the camera's \(camera.count)")
        // Read by others' code: exiftool finds orientation 6, and vips turned by it
        // sees the marker upright (red top-left) at full size.
        #expect(try ExifTool.tags(["Orientation"], of: path.lossyString, numeric: true)["Orientation"] == "6")
        let upright = setup.scratch.child("upright.png").lossyString
        let turned = try Tool.run("/usr/bin/vips", ["autorot", path.lossyString, upright])
        try #require(turned.status == 0, "\(turned.stderr)")
        #expect(try Pixels.size(ByteString(upright)) == (1600, 1200))
        #expect(Pixels.isRed(try Pixels.at(ByteString(upright), x: 20, y: 20)))
        #expect(Pixels.isBlue(try Pixels.at(ByteString(upright), x: 1580, y: 20)))

        // Asked again: found valid. Once the photo changes, the old one is not its
        // preview (the cache will not open it) until it is made again.
        #expect(try make(setup, dng).preview == .reused)
        var times = [timespec(tv_sec: time(nil) + 60, tv_nsec: 0), timespec(tv_sec: time(nil) + 60, tv_nsec: 0)]
        _ = dng.withCString { utimensat(AT_FDCWD, $0, &times, 0) }
        #expect(try setup.directory.openPreview(try setup.subject(dng)) == nil, "stale")
        #expect(try make(setup, dng).preview == .written)
        let reopened = try #require(try setup.directory.openPreview(try setup.subject(dng)))
        try reopened.close()
    }

    /// A CR2 LibRaw refuses: its preview is found from the file's structure, and its
    /// own Exif (orientation 1, as the marker JPEG was written) gives way to the RAW's.
    @Test func aPreviewLibRawRefusesIsTurnedAsTheRawSays() throws {
        let setup = try Setup()
        let jpeg = try setup.scratch.read(try Samples.marker(setup.scratch.child("m.jpg"), width: 1600, height: 1200))
        var tiff = TIFFFileBuilder()
        tiff.blocks = [jpeg, EmbeddedPreviewTests.losslessJPEG(200_000)]
        tiff.ifd0 = [(0x010F, .ascii("Canon")), (0x0110, .ascii("Canon EOS R1")), (0x0112, .shorts([6])),
                     (0x0103, .shorts([6])), (0x0111, .offsetOfBlock(0)), (0x0117, .lengthOfBlock(0))]
        tiff.ifd1 = [(0x0103, .shorts([6])), (0x0111, .offsetOfBlock(1)), (0x0117, .lengthOfBlock(1))]
        let cr2 = try setup.scratch.write("photos/IMG_0001.CR2", tiff.bytes)
        let result = try make(setup, cr2)
        #expect(result.preview == .written, "\(result)")

        let path = setup.cache.previewPath(for: try FileURI(path: cr2))
        let preview = try setup.scratch.read(path)
        let exifLength = 2 + (Int(jpeg[4]) << 8 | Int(jpeg[5]))
        let rest = Array(jpeg.dropFirst(2 + exifLength))
        #expect(Array(preview.suffix(rest.count)) == rest, "the camera's pixels' bytes as they were")
        #expect(try ExifTool.tags(["Orientation"], of: path.lossyString, numeric: true)["Orientation"] == "6")
        let upright = setup.scratch.child("upright.png").lossyString
        let turned = try Tool.run("/usr/bin/vips", ["autorot", path.lossyString, upright])
        try #require(turned.status == 0, "\(turned.stderr)")
        #expect(try Pixels.size(ByteString(upright)) == (1200, 1600))
        #expect(Pixels.isRed(try Pixels.at(ByteString(upright), x: 1180, y: 20)), "the marker's top-left, turned to the top-right")
    }

    @Test func anEmbeddedPreviewSmallerThanXXLargeMakesNone() throws {
        let setup = try Setup()
        let dng = try Samples.dng(setup.photos.appending("small.dng"), width: 800, height: 600)
        let result = try make(setup, dng)
        #expect(result.status == .written && result.preview == .unavailable, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: setup.cache.previewPath(for: try FileURI(path: dng)).lossyString))
    }

    @Test func aHEICsPreviewIsTheImageAsJPEG() throws {
        let setup = try Setup()
        let heic = try Samples.heic(setup.photos.appending("phone.heic"), width: 1600, height: 1200)
        let result = try make(setup, heic)
        #expect(result.preview == .written, "\(result)")
        let path = setup.cache.previewPath(for: try FileURI(path: heic))
        #expect(Array(try setup.scratch.read(path).prefix(2)) == [0xFF, 0xD8])
        #expect(try Pixels.size(path) == (1600, 1200))
        #expect(Pixels.isRed(try Pixels.at(path, x: 20, y: 20)))
    }

    /// A large JPEG's screen preview: shrunk to the screen side, upright (the marker
    /// stored turned, orientation 6), stamped, and found valid the next time.
    @Test func aLargeJPEGsScreenPreviewIsUprightAndScreenSized() throws {
        let setup = try Setup()
        // 3000 x 4000 upright: stored 4000 x 3000 turned as orientation 6 says.
        let jpeg = try Samples.marker(setup.photos.appending("IMG_0001.JPG"), width: 3000, height: 4000, orientation: 6)
        let result = try make(setup, jpeg, previews: [.screen])
        #expect(result.status == .written && result.screen == .written && result.preview == nil, "\(result)")
        let path = setup.cache.previewPath(for: try FileURI(path: jpeg), kind: .screen)
        #expect(path.lossyString.contains("/curatord-screen/"))
        #expect(try FileStatus.of(path).mode & 0o777 == 0o600)
        #expect(try Pixels.size(path) == (1920, 2560), "upright, its longer side the screen's")
        #expect(try Pixels.isRed(Pixels.at(path, x: 20, y: 20)) && Pixels.isBlue(Pixels.at(path, x: 1900, y: 20)))
        #expect(try ExifTool.tags(["Orientation"], of: path.lossyString, numeric: true)["Orientation"] == nil,
                "turned already: nothing may turn it again")
        #expect(!FileManager.default.fileExists(atPath: setup.cache.previewPath(for: try FileURI(path: jpeg)).lossyString),
                "no full-size one: the JPEG is its own")
        #expect(try make(setup, jpeg, previews: [.screen]).screen == .reused)
        let fd = try #require(try setup.directory.openPreview(try setup.subject(jpeg), kind: .screen))
        try fd.close()
        #expect(try setup.directory.openPreview(try setup.subject(jpeg)) == nil, "the kinds are kept apart")
    }

    @Test func aPhotoNoLargerThanAScreenHasNoScreenPreview() throws {
        let setup = try Setup()
        let jpeg = try Samples.marker(setup.photos.appending("small.jpg"), width: 2560, height: 1700)
        let result = try make(setup, jpeg, previews: [.screen])
        #expect(result.status == .written && result.screen == .unavailable, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: setup.cache.previewPath(for: try FileURI(path: jpeg), kind: .screen).lossyString))
    }

    /// A RAW's screen preview is its embedded one shrunk and turned as the RAW says;
    /// both kinds come of one job.
    @Test func aRawsScreenPreviewIsItsEmbeddedOneShrunkAndTurned() throws {
        let setup = try Setup()
        let dng = try Samples.dng(setup.photos.appending("DSC_0200.DNG"), orientation: 6, width: 4000, height: 3000)
        let result = try make(setup, dng, previews: [.full, .screen])
        #expect(result.preview == .written && result.screen == .written, "\(result)")
        let path = setup.cache.previewPath(for: try FileURI(path: dng), kind: .screen)
        #expect(try Pixels.size(path) == (2560, 1920))
        #expect(try Pixels.isRed(Pixels.at(path, x: 20, y: 20)) && Pixels.isBlue(Pixels.at(path, x: 2540, y: 20)),
                "the marker's top-left, upright")
    }
}
