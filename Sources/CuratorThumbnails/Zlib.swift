// SPDX-License-Identifier: GPL-2.0-or-later
import CZlib

/// zlib streams, as PNG stores its compressed text and pixels.
enum Zlib {
    struct Failure: Error, CustomStringConvertible {
        let code: Int32
        let what: String
        var description: String { "zlib: \(what) (\(code))" }
    }

    /// Inflates `compressed`, refusing to produce more than `limit` bytes: a text
    /// chunk that claims to hold a URI never needs more, and a bomb stops there.
    static func inflate(_ compressed: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        let start = curator_inflate_init(&stream)
        guard start == Z_OK else { throw Failure(code: start, what: "inflateInit") }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: limit + 1)
        let status: Int32 = compressed.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        let produced = Int(stream.total_out)
        guard produced <= limit else { throw Failure(code: Z_BUF_ERROR, what: "more than \(limit) bytes") }
        guard status == Z_STREAM_END else { throw Failure(code: status, what: "inflate") }
        return Array(output[0..<produced])
    }

    /// A zlib stream of stored (uncompressed) blocks: what a 1x1 fail record's pixels
    /// need, without a compressor.
    static func stored(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, bytes.count - offset)
            let final: UInt8 = offset + count == bytes.count ? 1 : 0
            out.append(final)
            out += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += bytes[offset..<offset + count]
            offset += count
        } while offset < bytes.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        let adler = b << 16 | a
        out += [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        return out
    }
}
