// SPDX-License-Identifier: GPL-2.0-or-later
import CImagingShim
import CuratorProtocol
import CuratorSystem
import CuratorThumbnails
import CVips
import FoundationEssentials
import Glibc

/// The screen-sized preview (`PreviewKind.screen`): the photo, or a RAW's embedded
/// preview, decoded with shrink-on-load (a JPEG at 1/2 or 1/4 of its size, through
/// the scaled DCT), upright, at most `PreviewKind.screenSide` on its longer side.
extension ThumbnailMaker {
    /// Enough for a photo seen whole; a loupe zoomed past it goes to the full size.
    static let screenQuality = 85
    /// libvips' threads for a screen picture: two, where there are two cores.
    var screenThreads: Int { min(2, ProcessInfo.processInfo.activeProcessorCount) }

    /// The screen-sized preview of the file open at `fd` (`size` bytes); nil when
    /// the photo (or the RAW's preview) is no larger than a screen: it is its own.
    public func screen(from fd: FileDescriptor, size: Int, family: ImageFamily) throws(ThumbnailMakingError) -> Preview? {
        // Asked for by a person waiting at a loupe, unlike the background's
        // thumbnails: worth a second core while it is made.
        try Vips.withThreads(screenThreads) { () throws(ThumbnailMakingError) -> Preview? in
            try makeScreen(from: fd, size: size, family: family)
        }
    }

    private func makeScreen(from fd: FileDescriptor, size: Int, family: ImageFamily) throws(ThumbnailMakingError) -> Preview? {
        guard size > 0 else { throw ThumbnailMakingError(.corrupt, "an empty file") }
        let side = PreviewKind.screenSide
        switch family {
        case .video:
            return nil
        case .raw:
            let raw = try RawPreview.read(fd, size: size)
            let image: VipsImageRef
            switch raw.pixels {
            case .jpeg(let bytes):
                guard let stored = PreviewJPEG.dimensions(bytes), max(stored.width, stored.height) > side else { return nil }
                // The JPEG's bytes must outlive every step that reads them, the
                // encoding included (libvips decodes when the result is written).
                let saved = bytes.withUnsafeBytes { memory in
                    Result { () throws(ThumbnailMakingError) -> Preview in
                        let source: VipsSourceRef
                        do throws(VipsError) { source = try VipsSourceRef.memory(memory) } catch { throw .decoding(error) }
                        // Turned by the RAW file's orientation, not the preview's own EXIF.
                        let header = try checkedHeader(source, rotate: false)
                        let shrunk = try thumbnail(source, header, side: side, rotate: false).image
                        return try upright(shrunk, rotation: raw.rotation)
                    }
                }
                return try saved.get()
            case .bitmap(let pixels, let width, let height, let bands):
                guard max(width, height) > side else { return nil }
                try checkPixels(width: width, height: height)
                do {
                    image = try VipsImageRef.fromPixels(pixels, width: width, height: height, bands: bands)
                        .apply("thumbnail_image") { curator_vips_thumbnail_image($0, $1, Int32(side), Int32(side)) }
                } catch {
                    throw ThumbnailMakingError.decoding(error)
                }
                return try upright(image, rotation: raw.rotation)
            }
        case .image:
            // The thumbnails may have been read through this descriptor's offset.
            guard lseek(fd.rawValue, 0, SEEK_SET) == 0 else { throw ThumbnailMakingError(.unreadable, "lseek: \(Errno.current)") }
            let source: VipsSourceRef
            do { source = try VipsSourceRef.descriptor(fd.rawValue) } catch { throw ThumbnailMakingError(.unreadable, error.description) }
            let header = try checkedHeader(source, rotate: true)
            guard max(header.upright.width, header.upright.height) > side else { return nil }
            return try upright(try thumbnail(source, header, side: side, rotate: true).image, rotation: 0)
        }
    }

    /// `image` turned by `rotation` degrees clockwise and saved as a screen preview.
    private func upright(_ image: VipsImageRef, rotation: Int) throws(ThumbnailMakingError) -> Preview {
        do {
            var image = image
            // A turn reads out of order: the shrunk image is made in memory first.
            if rotation != 0 { image = try image.materialized().apply("rot") { curator_vips_rotate($0, $1, Int32(rotation)) } }
            return try saved(image.srgb8(), quality: Self.screenQuality)
        } catch {
            throw ThumbnailMakingError.decoding(error)
        }
    }
}
