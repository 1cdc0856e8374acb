// SPDX-License-Identifier: GPL-2.0-or-later
import CImagingShim
import CVips
import Synchronization

/// libvips, started once per process for decoding untrusted files one at a time.
public enum Vips {
    private static let started = Mutex<Bool>(false)

    /// Starts libvips (once; later calls do nothing): no operation cache, `threads`
    /// worker threads, no loader but the photo formats' (JPEG, PNG, WebP, TIFF,
    /// HEIF/AVIF, GIF: never PDF, SVG and the like, whatever a file's name says), its
    /// warnings (one per damaged file) not printed.
    public static func start(threads: Int = 1) throws(VipsError) {
        try started.withLock { (done: inout Bool) throws(VipsError) in
            if done { return }
            guard curator_vips_start("curatord", Int32(max(1, threads))) == 0 else { throw VipsError.take("vips_init") }
            done = true
        }
    }

    /// `body` with `threads` worker threads for the pipelines it runs (a picture a
    /// person waits for), then the number before. The worker runs one job at a time.
    static func withThreads<T>(_ threads: Int, _ body: () throws(ThumbnailMakingError) -> T) throws(ThumbnailMakingError) -> T {
        let before = vips_concurrency_get()
        vips_concurrency_set(Int32(max(1, threads)))
        defer { vips_concurrency_set(before) }
        return try body()
    }

    /// libvips' version, "8.14.1".
    public static var version: String { String(cString: vips_version_string()) }
}

/// A libvips failure: the operation and libvips' own message.
public struct VipsError: Error, CustomStringConvertible, Sendable {
    public let operation: String
    public let message: String

    public var description: String { message.isEmpty ? operation : "\(operation): \(message)" }

    /// The message libvips left, which it then forgets. libvips keeps one buffer for the
    /// whole process: with several threads decoding, a message may be another thread's
    /// or gone, so nothing decides on it alone where a result says enough.
    static func take(_ operation: String) -> VipsError {
        let text = String(cString: vips_error_buffer())
        vips_error_clear()
        let lines = text.split(separator: "\n").map { String($0.drop(while: { $0 == " " })) }.filter { !$0.isEmpty }
        return VipsError(operation: operation, message: lines.joined(separator: "; "))
    }
}

/// One reference to a libvips image, released when this goes away. Not Sendable:
/// a libvips image is used by the thread that made it.
final class VipsImageRef {
    let pointer: UnsafeMutablePointer<VipsImage>

    init(_ pointer: UnsafeMutablePointer<VipsImage>) { self.pointer = pointer }

    deinit { g_object_unref(pointer) }

    var width: Int { Int(vips_image_get_width(pointer)) }
    var height: Int { Int(vips_image_get_height(pointer)) }
    var bands: Int { Int(vips_image_get_bands(pointer)) }

    /// Runs a libvips call that makes one image from this one.
    func apply(_ operation: String, _ call: (UnsafeMutablePointer<VipsImage>, UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>) -> Int32) throws(VipsError) -> VipsImageRef {
        var out: UnsafeMutablePointer<VipsImage>?
        guard call(pointer, &out) == 0, let out else { throw VipsError.take(operation) }
        return VipsImageRef(out)
    }

    /// 8-bit sRGB (with alpha when the image has it).
    func srgb8() throws(VipsError) -> VipsImageRef { try apply("colourspace") { curator_vips_to_srgb8($0, $1) } }

    /// Computes every pixel now, into memory: decoding errors surface here, once.
    func materialized() throws(VipsError) -> VipsImageRef {
        guard let copy = vips_image_copy_memory(pointer) else { throw VipsError.take("copy_memory") }
        return VipsImageRef(copy)
    }

    func png(compression: Int = 6) throws(VipsError) -> [UInt8] {
        try encoded("pngsave") { curator_vips_png_buffer(pointer, $0, $1, Int32(compression)) }
    }

    func jpeg(quality: Int = 90) throws(VipsError) -> [UInt8] {
        try encoded("jpegsave") { curator_vips_jpeg_buffer(pointer, $0, $1, Int32(quality)) }
    }

    private func encoded(_ operation: String, _ save: (UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>) -> Int32) throws(VipsError) -> [UInt8] {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard save(&buffer, &length) == 0, let buffer else { throw VipsError.take(operation) }
        defer { g_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }

    /// A string field of the header ("vips-loader"), nil when absent.
    func string(_ field: String) -> String? {
        guard vips_image_get_typeof(pointer, field) != 0 else { return nil }
        var value: UnsafePointer<CChar>?
        guard vips_image_get_string(pointer, field, &value) == 0, let value else {
            vips_error_clear()
            return nil
        }
        return String(cString: value)
    }

    /// An 8-bit image of `bands` bands from packed pixels (copied).
    static func fromPixels(_ pixels: [UInt8], width: Int, height: Int, bands: Int) throws(VipsError) -> VipsImageRef {
        let image = pixels.withUnsafeBytes { raw in
            vips_image_new_from_memory_copy(raw.baseAddress, raw.count, Int32(width), Int32(height), Int32(bands), VIPS_FORMAT_UCHAR)
        }
        guard let image else { throw VipsError.take("new_from_memory") }
        return VipsImageRef(image)
    }

    /// The pixels, packed row by row, of an 8-bit image.
    func pixels() throws(VipsError) -> [UInt8] {
        let memory = try materialized()
        guard let data = vips_image_get_data(memory.pointer) else { throw VipsError.take("get_data") }
        return Array(UnsafeRawBufferPointer(start: data, count: memory.width * memory.height * memory.bands))
    }
}

/// A libvips source (a descriptor or bytes in memory), released when this goes away.
final class VipsSourceRef {
    let pointer: UnsafeMutablePointer<VipsSource>

    private init(_ pointer: UnsafeMutablePointer<VipsSource>) { self.pointer = pointer }

    deinit { g_object_unref(pointer) }

    /// Reads through a copy of `descriptor` (libvips keeps its own).
    static func descriptor(_ fd: Int32) throws(VipsError) -> VipsSourceRef {
        guard let source = vips_source_new_from_descriptor(fd) else { throw VipsError.take("source") }
        return VipsSourceRef(source)
    }

    /// Reads `bytes`, which must outlive the source.
    static func memory(_ bytes: UnsafeRawBufferPointer) throws(VipsError) -> VipsSourceRef {
        guard let source = vips_source_new_from_memory(bytes.baseAddress, bytes.count) else { throw VipsError.take("source") }
        return VipsSourceRef(source)
    }
}
