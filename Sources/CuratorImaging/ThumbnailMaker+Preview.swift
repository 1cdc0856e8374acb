// SPDX-License-Identifier: GPL-2.0-or-later
import CImagingShim
import CuratorProtocol
import CuratorSystem
import CuratorThumbnails
import CVips
import Glibc

/// The full-size preview of a photo a browser cannot show: a RAW's embedded JPEG
/// as the camera wrote it (no decoding: fast, and nothing lost), or the image
/// (a RAW's bitmap preview, a HEIF, a TIFF) decoded upright and saved as a JPEG.
extension ThumbnailMaker {
    /// A preview smaller than this on its longer side is none: the `xx-large`
    /// thumbnail shows as much.
    public static let previewMinimum = ThumbnailSize.xxLarge.pixels
    /// The longest side a decoded preview is made at (shrink-on-load), so that the
    /// worker's memory bound holds whatever the photo's size.
    public static let previewMaximum = 8192
    /// The quality of a preview saved as JPEG.
    static let previewQuality = 90

    public struct Preview: Sendable {
        /// A JPEG, without our stamp.
        public var jpeg: [UInt8]
        /// The EXIF orientation the JPEG is to carry (1-8): a camera's preview is
        /// stored as the sensor saw it. nil: the pixels are upright already.
        public var orientation: Int?
        public var width: Int
        public var height: Int
    }

    /// The preview of the file open at `fd` (`size` bytes); nil when there is none
    /// of at least `previewMinimum`.
    public func preview(from fd: FileDescriptor, size: Int, family: ImageFamily) throws(ThumbnailMakingError) -> Preview? {
        guard size > 0 else { throw ThumbnailMakingError(.corrupt, "an empty file") }
        switch family {
        case .video:
            return nil
        case .raw:
            let raw = try RawPreview.read(fd, size: size)
            switch raw.pixels {
            case .jpeg(let bytes):
                guard let stored = PreviewJPEG.dimensions(bytes), max(stored.width, stored.height) >= Self.previewMinimum else { return nil }
                let orientation = switch raw.rotation {
                case 90: 6
                case 180: 3
                case 270: 8
                default: 1
                }
                return Preview(jpeg: bytes, orientation: orientation, width: stored.width, height: stored.height)
            case .bitmap(let pixels, let width, let height, let bands):
                guard max(width, height) >= Self.previewMinimum else { return nil }
                try checkPixels(width: width, height: height)
                do {
                    var image = try VipsImageRef.fromPixels(pixels, width: width, height: height, bands: bands)
                    if max(width, height) > Self.previewMaximum {
                        image = try image.apply("thumbnail_image") {
                            curator_vips_thumbnail_image($0, $1, Int32(Self.previewMaximum), Int32(Self.previewMaximum))
                        }
                    }
                    if raw.rotation != 0 { image = try image.apply("rot") { curator_vips_rotate($0, $1, Int32(raw.rotation)) } }
                    return try saved(image.srgb8())
                } catch {
                    throw ThumbnailMakingError.decoding(error)
                }
            }
        case .image:
            // The thumbnails were read through this descriptor's offset (libvips reads
            // a copy of it, which shares the offset).
            guard lseek(fd.rawValue, 0, SEEK_SET) == 0 else { throw ThumbnailMakingError(.unreadable, "lseek: \(Errno.current)") }
            let source: VipsSourceRef
            do { source = try VipsSourceRef.descriptor(fd.rawValue) } catch { throw ThumbnailMakingError(.unreadable, error.description) }
            let header = try checkedHeader(source, rotate: true)
            guard max(header.upright.width, header.upright.height) >= Self.previewMinimum else { return nil }
            var out: UnsafeMutablePointer<VipsImage>?
            let side = Int32(Self.previewMaximum)
            guard curator_vips_thumbnail_source(source.pointer, &out, side, side, 0, Int32(VIPS_FAIL_ON_TRUNCATED.rawValue)) == 0, let out else {
                throw ThumbnailMakingError.decoding(VipsError.take("thumbnail"))
            }
            do {
                return try saved(VipsImageRef(out).srgb8())
            } catch {
                throw ThumbnailMakingError.decoding(error)
            }
        }
    }

    /// An upright image as a preview JPEG.
    func saved(_ image: VipsImageRef, quality: Int = Self.previewQuality) throws(VipsError) -> Preview {
        Preview(jpeg: try image.jpeg(quality: quality), orientation: nil, width: image.width, height: image.height)
    }
}
