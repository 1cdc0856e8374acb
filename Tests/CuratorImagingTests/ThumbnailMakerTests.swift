// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorImaging
import CuratorProtocol
import CuratorSystem
import CuratorThumbnails
import Foundation
import Glibc
import Synchronization
import Testing
import CuratorTestSupport

/// The engine in this process (libvips and LibRaw), on files made by an independent
/// generator; pixels are read back with the `vips` tool.
struct ThumbnailMakerTests {
    let maker = ThumbnailMaker(maxPixels: 16384 * 16384)

    init() throws { try Vips.start() }

    private func make(_ path: ByteString, family: ImageFamily = .image, sizes: [ThumbnailSize] = [.large]) throws(ThumbnailMakingError) -> ThumbnailMaker.Made {
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(path, O_RDONLY) } catch { throw ThumbnailMakingError(.unreadable, "\(error)") }
        defer { try? fd.close() }
        let size = (try? FileStatus.of(descriptor: fd).size) ?? 0
        return try maker.make(from: fd, size: Int(size), family: family, sizes: sizes)
    }

    private func save(_ thumbnail: ThumbnailMaker.Thumbnail?, in scratch: ScratchDirectory, _ name: String) throws -> ByteString {
        try scratch.write(ByteString(name), try #require(thumbnail).png)
    }

    /// EXIF orientation 6 (camera held upright: stored 90 degrees turned): the
    /// thumbnail is upright, taller than wide, the red quarter top-left.
    @Test(arguments: [1, 3, 6, 8])
    func orientationIsApplied(orientation: Int) throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let photo = try Samples.marker(scratch.child("m.jpg"), width: 600, height: 400, orientation: orientation)
        let made = try make(photo, sizes: [.normal, .large])
        #expect(made.width == 600 && made.height == 400)
        let large = try save(made.thumbnails[.large], in: scratch, "large.png")
        #expect(try Pixels.size(large) == (256, 171))
        #expect(Pixels.isRed(try Pixels.at(large, x: 10, y: 10)), "top-left is red")
        #expect(Pixels.isBlue(try Pixels.at(large, x: 245, y: 10)), "top-right is blue")
        #expect(Pixels.isBlue(try Pixels.at(large, x: 10, y: 160)), "bottom-left is blue")
        // Made from the large one: 85 or 86 rows, as rounding goes.
        let normal = try save(made.thumbnails[.normal], in: scratch, "normal.png")
        let (width, height) = try Pixels.size(normal)
        #expect(width == 128 && (85...86).contains(height))
    }

    @Test func portraitCameraJPEGComesOutPortrait() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let photo = try Samples.cameraJPEG(scratch.child("IMG_0001.JPG"), orientation: 6)
        let made = try make(photo, sizes: [.normal, .large, .xLarge, .xxLarge])
        #expect(made.width == 3000 && made.height == 4000)
        #expect(made.thumbnails[.xxLarge].map { ($0.width, $0.height) } ?? (0, 0) == (768, 1024))
        #expect(made.thumbnails[.normal].map { ($0.width, $0.height) } ?? (0, 0) == (96, 128))
    }

    /// A JPEG is decoded at the smallest DCT scale that still covers the largest size
    /// wanted: 1/8 for a 12 MP photo's 256-pixel thumbnail (libvips' own choice was
    /// 1/4, a quarter more CPU), 1/2 for 1024 pixels; never below the size, so the
    /// thumbnail is as large as asked.
    @Test func cameraJPEGIsDecodedAtTheSmallestScaleThatCoversTheSize() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let photo = try Samples.cameraJPEG(scratch.child("IMG_0002.JPG"))
        let large = try make(photo, sizes: [.normal, .large])
        #expect(large.decodedWidth == 500, "decoded at 1/8")
        #expect(large.thumbnails[.large].map { ($0.width, $0.height) } ?? (0, 0) == (256, 192))
        #expect(large.thumbnails[.normal].map { ($0.width, $0.height) } ?? (0, 0) == (128, 96))
        let huge = try make(photo, sizes: [.xxLarge])
        #expect(huge.decodedWidth == 2000, "decoded at 1/2")
        #expect(huge.thumbnails[.xxLarge].map { ($0.width, $0.height) } ?? (0, 0) == (1024, 768))
        // The same picture as libvips' own thumbnail (decoded at 1/4), to within a level or two.
        let ours = try save(large.thumbnails[.large], in: scratch, "ours.png")
        let theirs = try scratch.write("theirs.png", try Pixels.png(of: photo, side: 256))
        #expect(try Pixels.meanDifference(ours, theirs) < 2.0)
    }

    @Test func jpegShrinkKeepsTheLongerSideAtLeastTheSize() {
        #expect(ThumbnailMaker.jpegShrink(width: 4000, height: 3000, largest: .large) == 8)
        #expect(ThumbnailMaker.jpegShrink(width: 3000, height: 4000, largest: .large) == 8)
        #expect(ThumbnailMaker.jpegShrink(width: 4000, height: 3000, largest: .xLarge) == 4)
        #expect(ThumbnailMaker.jpegShrink(width: 4000, height: 3000, largest: .xxLarge) == 2)
        #expect(ThumbnailMaker.jpegShrink(width: 2047, height: 1000, largest: .large) == 4)
        #expect(ThumbnailMaker.jpegShrink(width: 2048, height: 1000, largest: .large) == 8)
        #expect(ThumbnailMaker.jpegShrink(width: 600, height: 400, largest: .large) == 2)
        #expect(ThumbnailMaker.jpegShrink(width: 100, height: 60, largest: .large) == 1)
    }

    /// A small image is never enlarged: the standard's sizes are upper bounds.
    @Test func smallImagesStaySmall() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let photo = try Samples.marker(scratch.child("small.jpg"), width: 100, height: 60)
        let made = try make(photo, sizes: [.normal, .xxLarge])
        #expect(made.thumbnails[.xxLarge]?.width == 100)
        #expect(made.thumbnails[.normal]?.width == 100)
    }

    @Test func heic() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let photo = try Samples.heic(scratch.child("IMG_5001.HEIC"))
        let made = try make(photo)
        let large = try save(made.thumbnails[.large], in: scratch, "large.png")
        #expect(try Pixels.size(large) == (256, 171))
        #expect(Pixels.isRed(try Pixels.at(large, x: 10, y: 10)))
        #expect(Pixels.isBlue(try Pixels.at(large, x: 245, y: 160)))
    }

    /// A RAW file's embedded JPEG preview, turned as the RAW says (its orientation
    /// tag, read by LibRaw), never a decode of the raw data.
    @Test(arguments: [1, 6])
    func rawThroughItsEmbeddedPreview(orientation: Int) throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let dng = try Samples.dng(scratch.child("DSC_0001.DNG"), orientation: orientation)
        let made = try make(dng, family: .raw, sizes: [.large])
        let large = try save(made.thumbnails[.large], in: scratch, "large.png")
        // The preview is 1600x1200 upright: a landscape thumbnail, red top-left.
        #expect(try Pixels.size(large) == (256, 192))
        #expect(Pixels.isRed(try Pixels.at(large, x: 10, y: 10)))
        #expect(Pixels.isBlue(try Pixels.at(large, x: 245, y: 10)))
        #expect(Pixels.isBlue(try Pixels.at(large, x: 10, y: 180)))
    }

    /// The original's size (`Thumb::Image::Width`/`Height`) of a RAW file is its raw
    /// image's, turned as the RAW says: not its preview's, nor the thumbnail's. (The
    /// raw image is 640x480 here, the preview 1600x1200 upright, the large thumbnail
    /// 256x192.)
    @Test(arguments: [1, 6])
    func aRawsSizeIsItsImagesNotItsPreviews(orientation: Int) throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let dng = try Samples.dng(scratch.child("DSC_0003.DNG"), orientation: orientation, rawWidth: 640, rawHeight: 480)
        let made = try make(dng, family: .raw, sizes: [.large])
        #expect(made.width == (orientation == 6 ? 480 : 640) && made.height == (orientation == 6 ? 640 : 480),
                "\(made.width)x\(made.height)")
        #expect(made.thumbnails[.large]?.width == 256 && made.thumbnails[.large]?.height == 192)
    }

    /// A DNG whose only preview is IFD0's 160x120 bitmap: that is used, not the raw data.
    @Test func rawWithOnlyASmallBitmapPreview() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let dng = try Samples.dng(scratch.child("DSC_0002.DNG"), preview: false)
        let made = try make(dng, family: .raw, sizes: [.normal, .large])
        let normal = try save(made.thumbnails[.normal], in: scratch, "normal.png")
        #expect(try Pixels.size(normal) == (128, 96))
        #expect(Pixels.isRed(try Pixels.at(normal, x: 5, y: 5)))
        #expect(made.thumbnails[.large]?.width == 160)
    }

    @Test func aJPEGIsNotARaw() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let photo = try Samples.marker(scratch.child("fake.nef"))
        #expect(throws: ThumbnailMakingError.self) { try make(photo, family: .raw) }
        do {
            _ = try make(photo, family: .raw)
        } catch {
            #expect(error.code == .unsupported, "\(error)")
        }
    }

    // MARK: hostile files

    private func expectFailure(_ code: ThumbnailFailure, _ path: ByteString, family: ImageFamily = .image,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try make(path, family: family, sizes: [.normal, .large])
            Issue.record("no failure", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        }
    }

    /// A 60 000 x 60 000 header is refused from the header alone: fast, no memory.
    @Test func hugeHeaderIsRefusedBeforeDecoding() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let small = try scratch.read(try Samples.marker(scratch.child("m.jpg")))
        let huge = try scratch.write("huge.jpg", Samples.jpegClaiming(width: 60000, height: 60000, from: small))
        let started = MonotonicClock.nanoseconds()
        expectFailure(.tooLarge, huge)
        #expect(MonotonicClock.nanoseconds() - started < 2_000_000_000)
    }

    @Test func truncatedFilesAreCorruptNotGreyFilled() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let jpeg = try scratch.read(try Samples.cameraJPEG(scratch.child("c.jpg")))
        expectFailure(.corrupt, try scratch.write("cut.jpg", Array(jpeg.prefix(jpeg.count / 3))))
        let heic = try scratch.read(try Samples.heic(scratch.child("h.heic")))
        expectFailure(.corrupt, try scratch.write("cut.heic", Array(heic.prefix(heic.count / 2))))
        let dng = try scratch.read(try Samples.dng(scratch.child("d.dng")))
        expectFailure(.corrupt, try scratch.write("cut.dng", Array(dng.prefix(dng.count / 2))), family: .raw)
    }

    @Test func emptyAndGarbageFiles() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        expectFailure(.corrupt, try scratch.write("empty.jpg", []))
        expectFailure(.unsupported, try scratch.write("text.jpg", Array(String(repeating: "not an image ", count: 200).utf8)))
        expectFailure(.corrupt, try scratch.write("empty.cr2", []), family: .raw)
        expectFailure(.unsupported, try scratch.write("text.cr2", Array(String(repeating: "no raw ", count: 200).utf8)), family: .raw)
    }

    /// libvips keeps one error buffer for the process: with files refused on several
    /// threads at once, one thread's message is taken (and cleared) by another. A format
    /// no loader knows is still told as such on every thread.
    @Test func unknownFormatsAreToldSoOnManyThreadsAtOnce() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let text = try scratch.write("text.jpg", Array(String(repeating: "not an image ", count: 200).utf8))
        let outcomes = Mutex([String: Int]())
        DispatchQueue.concurrentPerform(iterations: 4000) { _ in
            let outcome: String
            do throws(ThumbnailMakingError) {
                _ = try make(text, sizes: [.normal])
                outcome = "a thumbnail"
            } catch {
                outcome = error.code.rawValue
            }
            outcomes.withLock { $0[outcome, default: 0] += 1 }
        }
        #expect(outcomes.withLock { $0 } == [ThumbnailFailure.unsupported.rawValue: 4000])
    }

    /// A PNG that claims 30 000 x 30 000 pixels over a few kilobytes of zeros.
    @Test func pngBombIsRefusedByItsHeader() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let bomb = scratch.child("bomb.png")
        let script = """
            import struct, sys, zlib
            def chunk(t, b): return struct.pack('>I', len(b)) + t + b + struct.pack('>I', zlib.crc32(t + b) & 0xffffffff)
            c = zlib.compressobj(9)
            data = b''.join(c.compress(b'\\0' * (1 + 30000 * 3)) for _ in range(50)) + c.flush()
            open(sys.argv[1], 'wb').write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 30000, 30000, 8, 2, 0, 0, 0))
                                          + chunk(b'IDAT', data) + chunk(b'IEND', b''))
            """
        let out = try Tool.run("/usr/bin/python3", ["-c", script, bomb.lossyString])
        try #require(out.status == 0, "\(out.stderr)")
        expectFailure(.tooLarge, bomb)
    }

    /// Only the photo formats' decoders run: an SVG, a PDF or a vips file under a
    /// photo's name is refused, not parsed by librsvg, poppler and the like.
    @Test func nonPhotoFormatsAreNotParsed() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"64\" height=\"64\"><rect width=\"64\" height=\"64\"/></svg>"
        expectFailure(.unsupported, try scratch.write("drawing.jpg", Array(svg.utf8)))
        let pdf = "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"
        expectFailure(.unsupported, try scratch.write("scan.jpg", Array(pdf.utf8)))
        let vips = scratch.child("image.v")
        _ = try Tool.run("/usr/bin/vips", ["black", vips.lossyString, "16", "16"])
        expectFailure(.unsupported, vips)
        // The photo formats still are.
        let png = scratch.child("photo.png")
        _ = try Tool.run("/usr/bin/vips", ["copy", try Samples.marker(scratch.child("m.jpg")).lossyString, png.lossyString])
        let webp = scratch.child("photo.webp")
        _ = try Tool.run("/usr/bin/vips", ["copy", png.lossyString, webp.lossyString])
        let tiff = scratch.child("photo.tif")
        _ = try Tool.run("/usr/bin/vips", ["copy", png.lossyString, tiff.lossyString])
        let gif = scratch.child("photo.gif")
        _ = try Tool.run("/usr/bin/vips", ["copy", png.lossyString, gif.lossyString])
        for photo in [png, webp, tiff, gif] {
            #expect(try make(photo).thumbnails[.large]?.width == 256, "\(photo)")
        }
    }

    @Test func videoIsNotDecoded() throws {
        let scratch = try ScratchDirectory(label: "thumbs")
        expectFailure(.unsupported, try scratch.write("clip.mp4", [0, 0, 0, 0x18] + Array("ftypmp42".utf8)), family: .video)
    }
}
