// SPDX-License-Identifier: GPL-2.0-or-later

/// Just enough of PNG for the thumbnail standard: walking the chunks of a file to
/// read its text (`Thumb::URI`, `Thumb::MTime`, ...) without decoding a pixel, and
/// putting text chunks into a PNG that an encoder wrote.
public enum PNGChunks {
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    public struct Malformed: Error, Equatable, Sendable, CustomStringConvertible {
        public let reason: String
        public init(_ reason: String) { self.reason = reason }
        public var description: String { "not a valid PNG: \(reason)" }
    }

    /// The largest text chunk read; a URI of the longest Linux path fits many times.
    static let textLimit = 65536
    /// The most chunks looked at before giving up on finding the end.
    static let chunkLimit = 100_000

    /// The image's size from its IHDR chunk and its text chunks: tEXt, zTXt and
    /// iTXt (compressed or not), keyword to text (those after the pixel data only when
    /// the standard's URI and MTime were not before it). `read(offset, count)` returns up
    /// to `count` bytes at `offset` (fewer only at the end of the file); chunks
    /// other than text and IHDR are skipped, never read.
    public static func metadata(
        fileSize: Int, read: (_ offset: Int, _ count: Int) throws -> [UInt8]
    ) throws -> (width: Int, height: Int, text: [String: String]) {
        let head = try read(0, 8 + 8 + 13 + 4)
        guard head.count == 33, Array(head[0..<8]) == signature else { throw Malformed("no PNG signature") }
        guard String(decoding: head[12..<16], as: UTF8.self) == "IHDR", be32(head, 8) == 13 else {
            throw Malformed("the first chunk is not IHDR")
        }
        let width = Int(be32(head, 16))
        let height = Int(be32(head, 20))
        var text: [String: String] = [:]
        var offset = 33
        for _ in 0..<chunkLimit {
            guard offset + 12 <= fileSize else { throw Malformed("no IEND chunk") }
            let header = try read(offset, 8)
            guard header.count == 8 else { throw Malformed("truncated chunk header") }
            let length = Int(be32(header, 0))
            let type = String(decoding: header[4..<8], as: UTF8.self)
            guard length <= Int(Int32.max), offset + 12 + length <= fileSize else { throw Malformed("chunk \(type) runs past the end") }
            if type == "IEND" { return (width, height, text) }
            // As GLib: the standard's keys come before the pixels in practice, so once
            // both are known the pixel data need not be walked (a 1024-pixel thumbnail
            // has dozens of IDAT chunks).
            if type == "IDAT", text[ThumbnailKeys.uri] != nil, text[ThumbnailKeys.mtime] != nil { return (width, height, text) }
            if type == "tEXt" || type == "zTXt" || type == "iTXt", length <= textLimit {
                let body = try read(offset + 8, length + 4)
                guard body.count == length + 4 else { throw Malformed("truncated \(type)") }
                let data = Array(body[0..<length])
                if CRC32.checksum(data, continuing: CRC32.checksum(header[4..<8])) == be32(body, length),
                   let (key, value) = decodeText(type: type, data) {
                    // As libpng: the first chunk of a keyword wins.
                    if text[key] == nil { text[key] = value }
                }
            }
            offset += 12 + length
        }
        throw Malformed("more than \(chunkLimit) chunks")
    }

    /// `png` with tEXt chunks for `entries` right after IHDR, in order. Keys and
    /// values are Latin-1 as tEXt requires: callers pass ASCII.
    public static func insertingText(_ entries: [(key: String, value: String)], into png: [UInt8]) throws(Malformed) -> [UInt8] {
        guard png.count >= 33, Array(png[0..<8]) == signature, String(decoding: png[12..<16], as: UTF8.self) == "IHDR" else {
            throw Malformed("no PNG signature and IHDR")
        }
        var out = Array(png[0..<33])
        out.reserveCapacity(png.count + entries.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 13 })
        for entry in entries {
            out += chunk("tEXt", Array(entry.key.utf8) + [0] + Array(entry.value.utf8))
        }
        out += png[33...]
        return out
    }

    /// One chunk: length, type, data, CRC of type and data.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        precondition(typeBytes.count == 4, "a PNG chunk type has four letters")
        var out = u32(UInt32(data.count))
        out += typeBytes
        out += data
        out += u32(CRC32.checksum(data, continuing: CRC32.checksum(typeBytes)))
        return out
    }

    /// A transparent 1x1 PNG carrying `entries` as text: the standard's fail record.
    public static func emptyImage(text entries: [(key: String, value: String)]) -> [UInt8] {
        // 8-bit RGBA, no interlace.
        let ihdr = u32(1) + u32(1) + [8, 6, 0, 0, 0]
        var out = signature + chunk("IHDR", ihdr)
        for entry in entries { out += chunk("tEXt", Array(entry.key.utf8) + [0] + Array(entry.value.utf8)) }
        out += chunk("IDAT", Zlib.stored([0, 0, 0, 0, 0]))  // filter byte, then one clear pixel
        out += chunk("IEND", [])
        return out
    }

    // MARK: text chunks

    static func decodeText(type: String, _ data: [UInt8]) -> (String, String)? {
        guard let nul = data.firstIndex(of: 0), nul >= 1, nul <= 79 else { return nil }
        let key = latin1(data[0..<nul])
        var rest = data[(nul + 1)...]
        switch type {
        case "tEXt":
            return (key, latin1(rest))
        case "zTXt":
            guard rest.first == 0, let inflated = try? Zlib.inflate(Array(rest.dropFirst()), limit: textLimit) else { return nil }
            return (key, latin1(inflated[...]))
        default:  // iTXt: compression flag, method, language tag, translated keyword, UTF-8 text
            guard rest.count >= 2 else { return nil }
            let compressed = rest[rest.startIndex] == 1
            guard rest[rest.startIndex + 1] == 0 else { return nil }
            rest = rest.dropFirst(2)
            for _ in 0..<2 {
                guard let end = rest.firstIndex(of: 0) else { return nil }
                rest = rest[(end + 1)...]
            }
            let bytes: [UInt8]
            if compressed {
                guard let inflated = try? Zlib.inflate(Array(rest), limit: textLimit) else { return nil }
                bytes = inflated
            } else {
                bytes = Array(rest)
            }
            guard let value = String(validating: bytes, as: UTF8.self) else { return nil }
            return (key, value)
        }
    }

    private static func latin1(_ bytes: ArraySlice<UInt8>) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
        return text
    }

    static func be32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    static func u32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
