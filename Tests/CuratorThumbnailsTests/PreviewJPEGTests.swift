// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorProtocol
import CuratorSystem
@testable import CuratorThumbnails
import Foundation
import Glibc
import Testing
import CuratorTestSupport

/// The preview's stamp and orientation segments, and the cache's check of the
/// stamp against the photo as it is now.
struct PreviewJPEGTests {
    /// SOI, an Exif APP1 (a camera's, orientation 1), a JFIF-ish APP0, a frame
    /// header of 2000 x 1500, a scan, EOI.
    static let camera: [UInt8] = {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += PreviewJPEG.exifOrientation(1)
        bytes += [0xFF, 0xE0, 0x00, 0x07] + Array("APP0!".utf8)
        bytes += [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x05, 0xDC, 0x07, 0xD0, 0x01, 0x01, 0x11, 0x00]
        bytes += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x12, 0x34, 0xFF, 0xD9]
        return bytes
    }()

    static func subject(mtime: Int64 = 1_700_000_000, size: UInt64 = 123_456) throws -> ThumbnailSubject {
        ThumbnailSubject(uri: try FileURI(path: "/photos/IMG 1=2.CR2"), mtime: mtime, size: size)
    }

    @Test func theStampAndOrientationGoFirstAndTheRestIsKeptAsItWas() throws {
        let subject = try Self.subject()
        let stamped = try #require(PreviewJPEG.stamped(Self.camera, subject: subject, orientation: 6))
        let ours = 2 + PreviewJPEG.exifOrientation(6).count
        #expect(Array(stamped.prefix(ours)) == [0xFF, 0xD8] + PreviewJPEG.exifOrientation(6), "our Exif replaces the camera's")
        let kept = Array(Self.camera.dropFirst(2 + PreviewJPEG.exifOrientation(1).count))
        #expect(Array(stamped.suffix(kept.count)) == kept, "every other byte as the camera wrote it")
        let text = try #require(PreviewJPEG.stamp(inHead: Array(stamped.prefix(PreviewJPEG.headLimit))))
        #expect(subject.isDescribed(by: text), "\(text)")
        #expect(PreviewJPEG.dimensions(stamped).map { $0 == (2000, 1500) } == true)

        // Stamped again (a photo changed since): one stamp, the new one.
        let newer = try Self.subject(mtime: 1_700_000_100)
        let again = try #require(PreviewJPEG.stamped(stamped, subject: newer, orientation: 3))
        #expect(again.count == stamped.count)
        let againText = try #require(PreviewJPEG.stamp(inHead: again))
        #expect(newer.isDescribed(by: againText) && !subject.isDescribed(by: againText))
    }

    @Test func withoutAnOrientationTheImagesOwnExifStays() throws {
        let stamped = try #require(PreviewJPEG.stamped(Self.camera, subject: try Self.subject(), orientation: nil))
        #expect(Array(stamped.suffix(Self.camera.count - 2)) == Array(Self.camera.dropFirst(2)))
    }

    @Test func whatIsNoJPEGIsNotStamped() throws {
        let subject = try Self.subject()
        #expect(PreviewJPEG.stamped(Array("not a jpeg".utf8), subject: subject, orientation: 1) == nil)
        #expect(PreviewJPEG.stamped(Array(Self.camera.prefix(30)), subject: subject, orientation: 1) == nil, "no scan")
        #expect(PreviewJPEG.stamp(inHead: Self.camera) == nil, "a JPEG without our comment")
        #expect(PreviewJPEG.dimensions([0xFF, 0xD8, 0xFF, 0xC3, 0x00, 0x0B, 8, 0, 1, 0, 1, 1, 1, 0x11, 0]) == nil, "lossless")
    }

    /// A preview stamped for an older version of the photo (or another size) is
    /// never opened as the photo's; nor is a symlink under its name.
    @Test func aPreviewOfAnotherVersionOfThePhotoIsNotOpened() throws {
        let scratch = try ScratchDirectory(label: "preview")
        let cache = ThumbnailCache(root: scratch.child("cache/thumbnails"))
        let directory = try ThumbnailDirectory.open(cache, create: true)
        let subject = try Self.subject()
        try directory.writePreview(try #require(PreviewJPEG.stamped(Self.camera, subject: subject, orientation: 1)), for: subject.uri)

        let path = cache.previewPath(for: subject.uri)
        #expect(path.lossyString.hasSuffix("/thumbnails/curatord-preview/\(subject.uri.thumbnailHash).jpg"))
        #expect(try FileStatus.of(path).mode & 0o7777 == 0o600)
        #expect(try FileStatus.of(cache.root.appending("curatord-preview")).mode & 0o7777 == 0o700)
        let fd = try #require(try directory.openPreview(subject))
        try fd.close()
        #expect(try directory.openPreview(try Self.subject(mtime: 1_700_000_001)) == nil, "changed since")
        #expect(try directory.openPreview(try Self.subject(size: 123_457)) == nil, "changed since")

        // Removed with the thumbnails of a photo gone for good.
        #expect(try directory.removeAll(for: subject.uri) == 1)
        #expect(try directory.openPreview(subject) == nil)

        // A symlink to a valid preview elsewhere is not followed.
        let elsewhere = try scratch.write("elsewhere.jpg", try #require(PreviewJPEG.stamped(Self.camera, subject: subject, orientation: 1)))
        #expect(symlink(elsewhere.lossyString, path.lossyString) == 0)
        #expect(try directory.openPreview(subject) == nil)
    }
}
