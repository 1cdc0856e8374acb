// SPDX-License-Identifier: GPL-2.0-or-later
import CZlib
import CuratorThumbnails

/// Encodes 8-bit pixels as PNG without an imaging library, for pictures of flat
/// areas and photos side by side (contact sheets): rows filtered "up" (each minus
/// the one above, so that flat paper becomes zeros), deflated at level 1 with
/// zlib's run-length strategy, in one IDAT chunk. On a sheet page that is quicker
/// and smaller than level 1's hash chains (a 1612x2600 page: 84 ms and 3.1 MB
/// against 122 ms and 3.3 MB), and it skips the copy into an imaging library.
enum PNGWriter {
    struct Failure: Error, CustomStringConvertible, Sendable {
        let description: String
    }

    /// A PNG of `pixels`: `height` rows of `width` pixels of `bands` bytes (1 grey,
    /// 2 grey and alpha, 3 RGB, 4 RGBA).
    static func encode(_ pixels: [UInt8], width: Int, height: Int, bands: Int) throws(Failure) -> [UInt8] {
        let colour: UInt8
        switch bands {
        case 1: colour = 0
        case 2: colour = 4
        case 3: colour = 2
        case 4: colour = 6
        default: throw Failure(description: "PNG: \(bands) bands")
        }
        let stride = width * bands
        guard width > 0, height > 0, width <= 1 << 24, height <= 1 << 24, pixels.count == stride * height else {
            throw Failure(description: "PNG: \(pixels.count) bytes for \(width)x\(height)x\(bands)")
        }
        let filtered = filteredUp(pixels, stride: stride, height: height)
        let compressed = try deflate(filtered)
        var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [8, colour, 0, 0, 0]  // depth, colour type, deflate, adaptive filtering, no interlace
        var out = PNGChunks.signature
        out.reserveCapacity(8 + 25 + compressed.count + 12 + 12)
        append("IHDR", header, to: &out)
        append("IDAT", compressed, to: &out)
        append("IEND", [], to: &out)
        return out
    }

    /// Each row preceded by its filter type, 2 ("up"): the byte minus the one above
    /// (the first row as it is, the row above it being zeros).
    static func filteredUp(_ pixels: [UInt8], stride: Int, height: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: (stride + 1) * height) { out, count in
            pixels.withUnsafeBufferPointer { src in
                for y in 0..<height {
                    let to = y * (stride + 1), from = y * stride
                    out[to] = 2
                    if y == 0 {
                        for i in 0..<stride { out[to + 1 + i] = src[i] }
                    } else {
                        for i in 0..<stride { out[to + 1 + i] = src[from + i] &- src[from - stride + i] }
                    }
                }
            }
            count = (stride + 1) * height
        }
    }

    /// A zlib stream of `bytes`, level 1, run-length strategy.
    static func deflate(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        // deflateInit2 is a macro: its expansion, with the library's own version.
        let started = deflateInit2_(&stream, 1, Z_DEFLATED, 15, 8, Z_RLE, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard started == Z_OK else { throw Failure(description: "zlib: deflateInit2 (\(started))") }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, UInt(bytes.count)))
        var produced = 0
        var status: Int32 = Z_OK
        let out = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            bytes.withUnsafeBufferPointer { input in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = buffer.baseAddress
                stream.avail_out = UInt32(buffer.count)
                status = CZlib.deflate(&stream, Z_FINISH)
            }
            produced = Int(stream.total_out)
            count = status == Z_STREAM_END ? produced : 0
        }
        guard status == Z_STREAM_END else { throw Failure(description: "zlib: deflate (\(status))") }
        return out
    }

    /// A chunk: length, type, data, CRC of type and data (zlib's crc32, quick on the
    /// megabytes of an IDAT).
    static func append(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        var crc = typeBytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) }
        crc = data.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, UInt32($0.count)) }
        out += bigEndian(UInt32(data.count))
        out += typeBytes
        out += data
        out += bigEndian(UInt32(truncatingIfNeeded: crc))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
