// SPDX-License-Identifier: GPL-2.0-or-later
import CImagingShim
import CuratorProtocol
import CuratorSystem
import CuratorThumbnails
import CVips

/// Makes thumbnails with libvips: the largest size wanted is decoded once, with
/// shrink-on-load where the format has it (JPEG decodes at 1/2, 1/4 or 1/8 scale;
/// HEIC uses its embedded thumbnail when large enough; WebP scales while decoding),
/// turned upright from EXIF, converted to 8-bit sRGB, and the smaller sizes are made
/// from it. RAW files go through their embedded preview (`RawPreview`).
///
/// Hostile input is bounded before a pixel is decoded: the header's width times
/// height must not exceed `maxPixels`, and a truncated file is an error rather than
/// a grey-filled picture. Memory stays bounded whatever the size: images are read
/// sequentially, and only the (small) thumbnail is ever held whole.
public struct ThumbnailMaker: Sendable {
    /// The largest image decoded, width x height as its header says.
    public var maxPixels: Int
    /// PNG compression level of the thumbnails (zlib 0-9): 1 costs a little size and
    /// saves much time on small images.
    public var pngCompression: Int = 1

    public init(maxPixels: Int) { self.maxPixels = maxPixels }

    /// One size, encoded.
    public struct Thumbnail: Sendable {
        /// PNG bytes without the standard's text (the caller stamps it).
        public var png: [UInt8]
        public var width: Int
        public var height: Int
    }

    public struct Made: Sendable {
        public var thumbnails: [ThumbnailSize: Thumbnail]
        /// The original's size, upright.
        public var width: Int
        public var height: Int
        /// The width a JPEG was decoded at (before rotation: 500 for a 4000x3000 photo
        /// at 1/8); nil for other formats, which libvips' thumbnail decodes as it chooses.
        public var decodedWidth: Int?
    }

    /// Thumbnails of the file open at `fd` (`size` bytes) at `sizes`.
    public func make(from fd: FileDescriptor, size: Int, family: ImageFamily, sizes: [ThumbnailSize]) throws(ThumbnailMakingError) -> Made {
        guard let largest = sizes.max() else { throw ThumbnailMakingError(.badJob, "no size asked for") }
        // libvips 8.14 takes an empty file for a pipe and fails an assertion (abort).
        guard size > 0 else { throw ThumbnailMakingError(.corrupt, "an empty file") }
        switch family {
        case .video:
            throw ThumbnailMakingError(.unsupported, "a video clip")
        case .image:
            let source: VipsSourceRef
            do { source = try VipsSourceRef.descriptor(fd.rawValue) } catch { throw ThumbnailMakingError(.unreadable, error.description) }
            let header = try checkedHeader(source, rotate: true)
            let (image, decodedWidth) = try thumbnail(source, header, side: largest.pixels, rotate: true)
            var made = try encode(image, sizes: sizes, width: header.upright.width, height: header.upright.height)
            made.decodedWidth = decodedWidth
            return made
        case .raw:
            let preview = try RawPreview.read(fd, size: size)
            var image: VipsImageRef
            var previewSize: (width: Int, height: Int)
            switch preview.pixels {
            case .jpeg(let bytes):
                // withUnsafeBytes does not carry a typed error: go through a Result.
                let decoded = bytes.withUnsafeBytes { raw in
                    Result { () throws(ThumbnailMakingError) -> (VipsImageRef, (width: Int, height: Int)) in
                        let source: VipsSourceRef
                        do throws(VipsError) { source = try VipsSourceRef.memory(raw) } catch { throw .decoding(error) }
                        let header = try checkedHeader(source, rotate: false)
                        // The preview's own EXIF (if any) is not trusted for orientation:
                        // the RAW file's is (LibRaw's, or its own tag when LibRaw refused it).
                        return (try thumbnail(source, header, side: largest.pixels, rotate: false).image, header.stored)
                    }
                }
                (image, previewSize) = try decoded.get()
            case .bitmap(let pixels, let width, let height, let bands):
                try checkPixels(width: width, height: height)
                previewSize = (width, height)
                do {
                    let bitmap = try VipsImageRef.fromPixels(pixels, width: width, height: height, bands: bands)
                    image = try bitmap.apply("thumbnail_image") {
                        curator_vips_thumbnail_image($0, $1, Int32(largest.pixels), Int32(largest.pixels))
                    }.materialized()
                } catch {
                    throw ThumbnailMakingError.decoding(error)
                }
            }
            if preview.rotation != 0 {
                do {
                    image = try image.apply("rot") { curator_vips_rotate($0, $1, Int32(preview.rotation)) }.materialized()
                } catch {
                    throw ThumbnailMakingError.decoding(error)
                }
            }
            if preview.rotation % 180 != 0 { previewSize = (previewSize.height, previewSize.width) }
            let original = preview.size ?? previewSize
            return try encode(image, sizes: sizes, width: original.width, height: original.height)
        }
    }

    /// The loaders a photo may reach. libvips' own blocking (`Vips.start`) misses the
    /// loaders in its plug-in modules (PDF through poppler, OpenSlide, JPEG XL,
    /// ImageMagick): the loader is therefore chosen here, by content, and refused
    /// unless it is one of these, before anything but the first bytes is read.
    static let photoLoaders = [
        "VipsForeignLoadJpeg", "VipsForeignLoadPng", "VipsForeignLoadWebp", "VipsForeignLoadTiff",
        "VipsForeignLoadHeif", "VipsForeignLoadNsgif",
    ]

    struct Header {
        /// As the pixels are stored, and turned upright by the EXIF orientation (when asked).
        var stored: (width: Int, height: Int)
        var upright: (width: Int, height: Int)
        var isJPEG: Bool
    }

    /// The image's size from its header; refuses one larger than `maxPixels` or in a
    /// format that is not a photo's.
    func checkedHeader(_ source: VipsSourceRef, rotate: Bool) throws(ThumbnailMakingError) -> Header {
        let loader = try Self.checkLoader(source)
        guard let opened = curator_vips_open_source(source.pointer, Int32(VIPS_FAIL_ON_TRUNCATED.rawValue)) else {
            throw ThumbnailMakingError.decoding(VipsError.take("open"))
        }
        let image = VipsImageRef(opened)
        try checkPixels(width: image.width, height: image.height)
        let stored = (image.width, image.height)
        let swap = rotate && vips_image_get_orientation_swap(opened) != 0
        return Header(stored: stored, upright: swap ? (image.height, image.width) : stored, isJPEG: loader.hasPrefix("VipsForeignLoadJpeg"))
    }

    /// The loader libvips picks for the source's content; refuses one that is not a
    /// photo format's.
    @discardableResult
    static func checkLoader(_ source: VipsSourceRef) throws(ThumbnailMakingError) -> String {
        // No loader claims the first bytes: not a format libvips knows, whatever the
        // message says. (libvips keeps one error buffer for the process: another thread's
        // `take` may have emptied it, so the message cannot be what tells.)
        guard let found = vips_foreign_find_load_source(source.pointer) else {
            let error = VipsError.take("find loader")
            throw ThumbnailMakingError(.unsupported, error.message.isEmpty ? "not in a known format" : error.description)
        }
        let loader = String(cString: found)
        guard photoLoaders.contains(where: { loader.hasPrefix($0) }) else {
            throw ThumbnailMakingError(.unsupported, "not a photo format (\(loader))")
        }
        return loader
    }

    /// The JPEG shrink-on-load factor for a thumbnail of at most `largest`: the
    /// greatest of 8, 4, 2, 1 that leaves the decoded image's longer side at least
    /// the thumbnail's, so that the resize after it only ever shrinks. (libvips'
    /// own choice keeps a further factor of two: a 12 MP photo's 256-pixel thumbnail
    /// is decoded at 1/4, 1000x750, where 1/8 gives 500x375. Each pixel at 1/8 is its
    /// 8x8 block's mean, which is already the averaging a shrink wants.)
    public static func jpegShrink(width: Int, height: Int, largest: ThumbnailSize) -> Int {
        jpegShrink(width: width, height: height, side: largest.pixels)
    }

    static func jpegShrink(width: Int, height: Int, side: Int) -> Int {
        let longer = max(width, height)
        for shrink in [8, 4, 2] where longer >= side * shrink { return shrink }
        return 1
    }

    func checkPixels(width: Int, height: Int) throws(ThumbnailMakingError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixels, width > 0, height > 0 else {
            throw ThumbnailMakingError(.tooLarge, "\(width)x\(height) pixels, more than the \(maxPixels) decoded")
        }
    }

    /// The largest size, upright and 8-bit sRGB: a pipeline that decodes when it is
    /// written (`encode` makes it once into memory when more than one size is made).
    /// A JPEG is decoded at the `jpegShrink` of its size, other formats as libvips
    /// chooses.
    func thumbnail(_ source: VipsSourceRef, _ header: Header, side longest: Int, rotate: Bool) throws(ThumbnailMakingError) -> (image: VipsImageRef, decodedWidth: Int?) {
        var out: UnsafeMutablePointer<VipsImage>?
        let failOn = Int32(VIPS_FAIL_ON_TRUNCATED.rawValue)
        let side = Int32(longest)
        var decodedWidth: Int32 = 0
        let made = header.isJPEG
            ? curator_vips_jpeg_thumbnail(
                source.pointer, &out, Int32(Self.jpegShrink(width: header.stored.width, height: header.stored.height, side: longest)),
                side, side, rotate ? 0 : 1, failOn, &decodedWidth)
            : curator_vips_thumbnail_source(source.pointer, &out, side, side, rotate ? 0 : 1, failOn)
        guard made == 0, let out else {
            throw ThumbnailMakingError.decoding(VipsError.take("thumbnail"))
        }
        do {
            return (try VipsImageRef(out).srgb8(), header.isJPEG ? Int(decodedWidth) : nil)
        } catch {
            throw ThumbnailMakingError.decoding(error)
        }
    }

    /// Each size from the largest, as PNG: a single size straight from the decoding
    /// pipeline, several from the largest decoded once into memory.
    private func encode(_ pipeline: VipsImageRef, sizes: [ThumbnailSize], width: Int, height: Int) throws(ThumbnailMakingError) -> Made {
        var made = Made(thumbnails: [:], width: width, height: height)
        let image: VipsImageRef
        do {
            image = Set(sizes).count > 1 ? try pipeline.materialized() : pipeline
        } catch {
            throw ThumbnailMakingError.decoding(error)
        }
        for size in Set(sizes).sorted(by: >) {
            do {
                let scaled = image.width <= size.pixels && image.height <= size.pixels
                    ? image
                    : try image.apply("thumbnail_image") { curator_vips_thumbnail_image($0, $1, Int32(size.pixels), Int32(size.pixels)) }
                made.thumbnails[size] = Thumbnail(png: try scaled.png(compression: pngCompression), width: scaled.width, height: scaled.height)
            } catch {
                throw ThumbnailMakingError.decoding(error)
            }
        }
        return made
    }
}
