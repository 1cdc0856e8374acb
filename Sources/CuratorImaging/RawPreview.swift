// SPDX-License-Identifier: GPL-2.0-or-later
import CRaw
import CuratorSystem
import CuratorThumbnails
import Glibc

/// The preview a camera embeds in its RAW file (a JPEG of the photo as the camera
/// rendered it, often full size), read with LibRaw without decoding the raw data:
/// a thumbnail of a 50 MB RAW costs one JPEG decode, as for a camera JPEG.
struct RawPreview {
    enum Pixels {
        /// JPEG bytes.
        case jpeg([UInt8])
        /// Packed 8-bit pixels.
        case bitmap([UInt8], width: Int, height: Int, bands: Int)
    }

    let pixels: Pixels
    /// Clockwise degrees that turn the preview upright (LibRaw's `flip`).
    let rotation: Int
    /// The photo's size, upright; nil when only the preview's is known (see
    /// `EmbeddedPreview`: then the preview's, upright, stands for it).
    let size: (width: Int, height: Int)?

    /// Reads the preview of the RAW file open at `fd` (mapped, never read whole).
    static func read(_ fd: FileDescriptor, size: Int) throws(ThumbnailMakingError) -> RawPreview {
        guard size > 0 else { throw ThumbnailMakingError(.corrupt, "an empty file") }
        guard let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd.rawValue, 0), mapping != MAP_FAILED else {
            // ENOMEM: larger than the worker's address space may grow.
            let error = Errno.current
            throw ThumbnailMakingError(error == Errno(ENOMEM) ? .tooLarge : .unreadable, "mmap of \(size) bytes: \(error)")
        }
        defer { munmap(mapping, size) }
        do {
            return try libRaw(mapping, size: size)
        } catch {
            // LibRaw refuses what it does not know (a body newer than it) or cannot
            // parse whole (pruned, truncated): the preview the camera embedded may
            // still be there, where the file's own structure says.
            let file = UnsafeRawBufferPointer(start: mapping, count: size)
            guard let found = EmbeddedPreview.find(in: file) else { throw error }
            let rotation = switch found.orientation {
            case 3: 180
            case 6: 90
            case 8: 270
            default: 0
            }
            return RawPreview(pixels: .jpeg(Array(file[found.range])), rotation: rotation, size: nil)
        }
    }

    /// The preview as LibRaw reads it from the file mapped at `mapping`.
    private static func libRaw(_ mapping: UnsafeMutableRawPointer, size: Int) throws(ThumbnailMakingError) -> RawPreview {
        guard let raw = libraw_init(0) else { throw ThumbnailMakingError(.tooLarge, "libraw_init: out of memory") }
        defer { libraw_close(raw) }

        let opened = libraw_open_buffer(raw, mapping, size)
        guard opened == LIBRAW_SUCCESS.rawValue else {
            let code: ThumbnailFailure = opened == LIBRAW_FILE_UNSUPPORTED.rawValue ? .unsupported : .corrupt
            throw ThumbnailMakingError(code, "LibRaw: \(message(opened))")
        }
        let unpacked = libraw_unpack_thumb(raw)
        guard unpacked == LIBRAW_SUCCESS.rawValue else {
            let none = unpacked == LIBRAW_NO_THUMBNAIL.rawValue || unpacked == LIBRAW_UNSUPPORTED_THUMBNAIL.rawValue
            throw ThumbnailMakingError(none ? .noPreview : .corrupt, "LibRaw: \(message(unpacked))")
        }
        var status: Int32 = 0
        guard let image = libraw_dcraw_make_mem_thumb(raw, &status) else {
            throw ThumbnailMakingError(.noPreview, "LibRaw: \(message(status))")
        }
        defer { libraw_dcraw_clear_mem(image) }

        let header = image.pointee
        let bytes = Array(UnsafeBufferPointer(start: curator_raw_image_bytes(image), count: Int(header.data_size)))
        let pixels: Pixels
        switch header.type {
        case LIBRAW_IMAGE_JPEG:
            pixels = .jpeg(bytes)
        case LIBRAW_IMAGE_BITMAP:
            let width = Int(header.width), height = Int(header.height), bands = Int(header.colors)
            guard bands == 1 || bands == 3, header.bits == 8 || header.bits == 16 else {
                throw ThumbnailMakingError(.noPreview, "a \(header.colors)-colour, \(header.bits)-bit preview")
            }
            // 16-bit previews keep their high bytes (little-endian samples).
            let eight = header.bits == 16 ? stride(from: 1, to: bytes.count, by: 2).map { bytes[$0] } : bytes
            guard eight.count >= width * height * bands else { throw ThumbnailMakingError(.corrupt, "a short preview") }
            pixels = .bitmap(Array(eight.prefix(width * height * bands)), width: width, height: height, bands: bands)
        default:
            throw ThumbnailMakingError(.noPreview, "a preview of an unknown kind")
        }
        let rotation: Int
        switch curator_raw_flip(raw) {
        case 3: rotation = 180
        case 5: rotation = 270
        case 6: rotation = 90
        default: rotation = 0
        }
        var width = Int(curator_raw_width(raw)), height = Int(curator_raw_height(raw))
        if rotation % 180 != 0 { swap(&width, &height) }
        return RawPreview(pixels: pixels, rotation: rotation, size: (width, height))
    }

    private static func message(_ code: Int32) -> String {
        guard let text = libraw_strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
