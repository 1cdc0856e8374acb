// SPDX-License-Identifier: GPL-2.0-or-later
@testable import CuratorImaging
import CuratorProtocol
import CuratorSystem
import CuratorTestSupport
import CuratorThumbnails
import Glibc
import Testing

/// RAW files LibRaw refuses (a body newer than it, a CR3 whose image data was
/// pruned, a cut CR2) but that carry the camera's JPEG: the thumbnail is that
/// JPEG's picture, turned as the RAW says.
struct EmbeddedPreviewTests {
    let maker = ThumbnailMaker(maxPixels: 16384 * 16384)

    init() throws { try Vips.start() }

    private func make(_ path: ByteString) throws(ThumbnailMakingError) -> ThumbnailMaker.Made {
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(path, O_RDONLY) } catch { throw ThumbnailMakingError(.unreadable, "\(error)") }
        defer { try? fd.close() }
        let size = (try? FileStatus.of(descriptor: fd).size) ?? 0
        return try maker.make(from: fd, size: Int(size), family: .raw, sizes: [.large])
    }

    /// The marker (600 x 400, red top-left quarter) stored as is, in a RAW whose
    /// orientation is 6: upright, the thumbnail is 171 x 256 with red top-right.
    private func expectTurnedMarker(_ made: ThumbnailMaker.Made, in scratch: ScratchDirectory,
                                    sourceLocation: SourceLocation = #_sourceLocation) throws {
        let large = try scratch.write("large.png", try #require(made.thumbnails[.large]).png)
        #expect(try Pixels.size(large) == (171, 256), sourceLocation: sourceLocation)
        #expect(Pixels.isRed(try Pixels.at(large, x: 160, y: 10)), "top-right is red", sourceLocation: sourceLocation)
        #expect(Pixels.isBlue(try Pixels.at(large, x: 10, y: 10)), "top-left is blue", sourceLocation: sourceLocation)
        #expect(Pixels.isBlue(try Pixels.at(large, x: 160, y: 245)), sourceLocation: sourceLocation)
        #expect(made.width == 400 && made.height == 600, "the preview's size, upright")
    }

    /// A lossless JPEG (SOF3) as a CR2 or DNG keeps its raw data: larger than the
    /// preview, and no picture libjpeg decodes.
    static func losslessJPEG(_ size: Int) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xC3, 0x00, 0x0B, 0x0E, 0x01, 0x00, 0x01, 0x00, 0x01, 0x01, 0x11, 0x00]
            + [UInt8](repeating: 0x55, count: size)
    }

    /// A CR2-like file: IFD0's strip is the preview (as Canon's are), IFD1 a
    /// lossless raw strip; no sensor data LibRaw knows what to do with.
    @Test func aCR2LibRawRefusesGivesItsIFD0Preview() throws {
        let scratch = try ScratchDirectory(label: "preview")
        let jpeg = try scratch.read(try Samples.marker(scratch.child("m.jpg"), width: 600, height: 400))
        var tiff = TIFFFileBuilder()
        tiff.blocks = [jpeg, Self.losslessJPEG(200_000)]
        tiff.ifd0 = [(0x010F, .ascii("Canon")), (0x0110, .ascii("Canon EOS R1")), (0x0112, .shorts([6])),
                     (0x0103, .shorts([6])), (0x0111, .offsetOfBlock(0)), (0x0117, .lengthOfBlock(0))]
        tiff.ifd1 = [(0x0103, .shorts([6])), (0x0111, .offsetOfBlock(1)), (0x0117, .lengthOfBlock(1))]
        let path = try scratch.write("IMG_0001.CR2", tiff.bytes)
        try expectTurnedMarker(try make(path), in: scratch)
    }

    /// A NEF-like file whose preview is IFD1's JPEGInterchangeFormat.
    @Test(arguments: [false, true])
    func aNEFLibRawRefusesGivesItsIFD1JPEG(bigEndian: Bool) throws {
        let scratch = try ScratchDirectory(label: "preview")
        let jpeg = try scratch.read(try Samples.marker(scratch.child("m.jpg"), width: 600, height: 400))
        var tiff = TIFFFileBuilder(bigEndian: bigEndian)
        tiff.blocks = [jpeg]
        tiff.ifd0 = [(0x010F, .ascii("NIKON CORPORATION")), (0x0110, .ascii("NIKON Z 9X")), (0x0112, .shorts([6]))]
        tiff.ifd1 = [(0x0103, .shorts([6])), (0x0201, .offsetOfBlock(0)), (0x0202, .lengthOfBlock(0))]
        let path = try scratch.write("DSC_0001.NEF", tiff.bytes)
        try expectTurnedMarker(try make(path), in: scratch)
    }

    /// A CR3 whose image data was pruned: moov holds Canon's box (CMT1 with the
    /// orientation, THMB with a small JPEG), PRVW the larger preview, mdat nothing.
    @Test func aPrunedCR3GivesItsPRVWPreview() throws {
        let scratch = try ScratchDirectory(label: "preview")
        let preview = try scratch.read(try Samples.marker(scratch.child("p.jpg"), width: 600, height: 400))
        let thumbnail = try scratch.read(try Samples.marker(scratch.child("t.jpg"), width: 160, height: 120))
        func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be32(8 + payload.count) + Array(type.utf8) + payload }
        var cmt1 = TIFFFileBuilder()
        cmt1.ifd0 = [(0x010F, .ascii("Canon")), (0x0110, .ascii("Canon EOS R1")), (0x0112, .shorts([6]))]
        let thmb = box("THMB", [0, 0, 0, 0] + be16(160) + be16(120) + be32(thumbnail.count) + [0, 1, 0, 0] + thumbnail)
        let canon = box("uuid", EmbeddedPreview.canonUUID + box("CNCV", Array("CanonCR3_003/01.09.00/00.00.00".utf8))
                        + box("CMT1", cmt1.bytes) + thmb)
        let prvw = box("PRVW", [0, 0, 0, 0, 0, 1] + be16(600) + be16(400) + [0, 1] + be32(preview.count) + preview)
        let file = box("ftyp", Array("crx ".utf8) + be32(1) + Array("crx isom".utf8))
            + box("moov", canon) + box("uuid", EmbeddedPreview.previewUUID + [0, 0, 0, 0, 0, 0, 0, 1] + prvw) + box("mdat", [])
        let path = try scratch.write("IMG_0001.CR3", file)
        try expectTurnedMarker(try make(path), in: scratch)
        // Without PRVW, THMB's small JPEG.
        let thumbOnly = box("ftyp", Array("crx ".utf8) + be32(1) + Array("crx isom".utf8)) + box("moov", canon) + box("mdat", [])
        let small = try make(try scratch.write("IMG_0002.CR3", thumbOnly))
        #expect(small.thumbnails[.large]?.width == 120 && small.thumbnails[.large]?.height == 160)
    }

    /// With no JPEG to fall back on, LibRaw's refusal stands; a plain JPEG named
    /// like a RAW is still no RAW.
    @Test func withoutAnEmbeddedJPEGLibRawsRefusalStands() throws {
        let scratch = try ScratchDirectory(label: "preview")
        var tiff = TIFFFileBuilder()
        tiff.blocks = [Self.losslessJPEG(5000)]
        tiff.ifd0 = [(0x010F, .ascii("Canon")), (0x0111, .offsetOfBlock(0)), (0x0117, .lengthOfBlock(0))]
        #expect(throws: ThumbnailMakingError.self) { try make(try scratch.write("IMG_0003.CR2", tiff.bytes)) }
        let jpeg = try Samples.marker(scratch.child("fake.nef"))
        do {
            _ = try make(jpeg)
            Issue.record("a JPEG made a RAW thumbnail")
        } catch {
            #expect(error.code == .unsupported, "\(error)")
        }
    }

    /// Damaged and hostile structures: never a trap, never a range outside the file.
    @Test func damagedFilesNeverTrap() throws {
        let scratch = try ScratchDirectory(label: "preview")
        let jpeg = try scratch.read(try Samples.marker(scratch.child("m.jpg"), width: 64, height: 48))
        var tiff = TIFFFileBuilder()
        tiff.blocks = [jpeg]
        tiff.ifd0 = [(0x0112, .shorts([6])), (0x014A, .long(8)), (0x0111, .offsetOfBlock(0)), (0x0117, .lengthOfBlock(0))]
        tiff.ifd1 = [(0x0201, .offsetOfBlock(0)), (0x0202, .lengthOfBlock(0)), (0x002E, .undefined([1, 2, 3, 4, 5, 6]))]
        let sample = tiff.bytes
        var random = SplitMix64(seed: 48)
        var found = 0
        for _ in 0..<3000 {
            var bytes = sample
            for _ in 0..<(1 + random.next() % 6) {
                bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
            }
            let cut = Int(random.next() % UInt64(bytes.count + 1))
            let damaged = random.next() % 4 == 0 ? Array(bytes.prefix(cut)) : bytes
            damaged.withUnsafeBytes { raw in
                if let preview = EmbeddedPreview.find(in: raw) {
                    found += 1
                    #expect(preview.range.upperBound <= raw.count && (1...8).contains(preview.orientation))
                }
            }
        }
        #expect(found > 0)
    }
}
