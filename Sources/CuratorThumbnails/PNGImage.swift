// SPDX-License-Identifier: GPL-2.0-or-later

/// The pixels of a thumbnail-sized PNG, decoded without an imaging library: 8-bit
/// grey, grey with alpha, RGB or RGBA, not interlaced, which is what thumbnailers
/// write (GNOME, KDE, GIMP and curatord). Contact sheets and terminal views read
/// hundreds of thumbnails at a time, and a general decoder's per-image cost (format
/// sniffing, a thread pool) is several times the decoding itself. Anything else (a
/// palette, 16 bits, interlacing) is `unsupported`: use a general decoder.
public struct PNGImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// 1 (grey), 2 (grey, alpha), 3 (RGB) or 4 (RGBA).
    public let bands: Int
    /// Packed rows, `width * bands` bytes each.
    public let pixels: [UInt8]

    public init(width: Int, height: Int, bands: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * bands, "pixels match the size")
        (self.width, self.height, self.bands, self.pixels) = (width, height, bands, pixels)
    }

    public enum Failure: Error, Equatable, Sendable {
        /// A PNG this decoder does not handle (palette, 16-bit, interlaced, too large).
        case unsupported(String)
        case malformed(String)
    }

    /// The largest image decoded, in pixels: a thumbnail is at most 1024 x 1024.
    public static let maxPixels = 4096 * 4096

    public init(decoding png: [UInt8]) throws(Failure) {
        guard png.count >= 33, Array(png[0..<8]) == PNGChunks.signature,
              String(decoding: png[12..<16], as: UTF8.self) == "IHDR" else { throw .malformed("no PNG signature and IHDR") }
        let width = Int(PNGChunks.be32(png, 16)), height = Int(PNGChunks.be32(png, 20))
        let depth = png[24], colour = png[25], interlace = png[28]
        guard width > 0, height > 0, width * height <= Self.maxPixels else { throw .unsupported("\(width)x\(height)") }
        guard depth == 8, interlace == 0 else { throw .unsupported("bit depth \(depth), interlace \(interlace)") }
        let bands: Int
        switch colour {
        case 0: bands = 1
        case 4: bands = 2
        case 2: bands = 3
        case 6: bands = 4
        default: throw .unsupported("colour type \(colour)")
        }
        // Gather IDAT.
        var compressed: [UInt8] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length = Int(PNGChunks.be32(png, offset))
            guard offset + 12 + length <= png.count else { throw .malformed("a chunk runs past the end") }
            let type = (png[offset + 4], png[offset + 5], png[offset + 6], png[offset + 7])
            if type == (0x49, 0x44, 0x41, 0x54) { compressed += png[(offset + 8)..<(offset + 8 + length)] }  // IDAT
            if type == (0x49, 0x45, 0x4E, 0x44) { break }  // IEND
            offset += 12 + length
        }
        let stride = width * bands
        let raw: [UInt8]
        do {
            raw = try Zlib.inflate(compressed, limit: height * (stride + 1))
        } catch {
            throw .malformed("\(error)")
        }
        guard raw.count == height * (stride + 1) else { throw .malformed("\(raw.count) bytes of pixels, not \(height * (stride + 1))") }
        self.init(width: width, height: height, bands: bands, pixels: try Self.unfilter(raw, stride: stride, bands: bands, height: height))
    }

    /// Undoes PNG's per-row filters (none, sub, up, average, Paeth).
    static func unfilter(_ raw: [UInt8], stride: Int, bands: Int, height: Int) throws(Failure) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: stride * height)
        var bad: UInt8?
        raw.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                for y in 0..<height {
                    let filter = input[y * (stride + 1)]
                    let src = y * (stride + 1) + 1, dst = y * stride, up = dst - stride
                    switch filter {
                    case 0:
                        for i in 0..<stride { output[dst + i] = input[src + i] }
                    case 1:
                        for i in 0..<stride { output[dst + i] = input[src + i] &+ (i >= bands ? output[dst + i - bands] : 0) }
                    case 2:
                        for i in 0..<stride { output[dst + i] = input[src + i] &+ (y > 0 ? output[up + i] : 0) }
                    case 3:
                        for i in 0..<stride {
                            let left = i >= bands ? Int(output[dst + i - bands]) : 0
                            let above = y > 0 ? Int(output[up + i]) : 0
                            output[dst + i] = input[src + i] &+ UInt8((left + above) / 2)
                        }
                    case 4:
                        for i in 0..<stride {
                            let a = i >= bands ? Int(output[dst + i - bands]) : 0
                            let b = y > 0 ? Int(output[up + i]) : 0
                            let c = i >= bands && y > 0 ? Int(output[up + i - bands]) : 0
                            let p = a + b - c
                            let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                            let predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                            output[dst + i] = input[src + i] &+ UInt8(predictor)
                        }
                    default:
                        bad = filter
                        return
                    }
                }
            }
        }
        if let bad { throw .malformed("row filter \(bad)") }
        return out
    }

    /// Scaled down (never up) to fit `side` x `side`, by averaging the source pixels
    /// each output pixel covers (fractions at the edges weighed): what a reduction
    /// between 1 and 1/8 needs to stay sharp without aliasing.
    public func fitted(within side: Int) -> PNGImage {
        let scale = Double(side) / Double(max(width, height))
        guard scale < 1 else { return self }
        let outW = max(1, Int((Double(width) * scale).rounded())), outH = max(1, Int((Double(height) * scale).rounded()))
        let horizontal = Taps(from: width, to: outW), vertical = Taps(from: height, to: outH)
        let bands = bands, width = width, height = height
        // Rows first, into a float buffer, then columns.
        var rows = [Float](repeating: 0, count: outW * height * bands)
        pixels.withUnsafeBufferPointer { src in
            rows.withUnsafeMutableBufferPointer { dst in
                horizontal.weights.withUnsafeBufferPointer { weights in
                    for y in 0..<height {
                        let line = y * width * bands
                        for x in 0..<outW {
                            let first = horizontal.first[x], offset = horizontal.offset[x], count = horizontal.count[x]
                            for band in 0..<bands {
                                var sum: Float = 0
                                for k in 0..<count { sum += Float(src[line + (first + k) * bands + band]) * weights[offset + k] }
                                dst[(y * outW + x) * bands + band] = sum
                            }
                        }
                    }
                }
            }
        }
        var out = [UInt8](repeating: 0, count: outW * outH * bands)
        let rowLength = outW * bands
        rows.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                vertical.weights.withUnsafeBufferPointer { weights in
                    var sums = [Float](repeating: 0, count: rowLength)
                    for y in 0..<outH {
                        for i in 0..<rowLength { sums[i] = 0 }
                        let first = vertical.first[y], offset = vertical.offset[y]
                        for k in 0..<vertical.count[y] {
                            let weight = weights[offset + k], line = (first + k) * rowLength
                            for i in 0..<rowLength { sums[i] += src[line + i] * weight }
                        }
                        for i in 0..<rowLength { dst[y * rowLength + i] = UInt8(clamping: Int(sums[i] + 0.5)) }
                    }
                }
            }
        }
        return PNGImage(width: outW, height: outH, bands: bands, pixels: out)
    }

    /// For each output position: the first source position it covers, how many, and
    /// their weights (flattened, from `offset`).
    private struct Taps {
        var first: [Int] = []
        var count: [Int] = []
        var offset: [Int] = []
        var weights: [Float] = []

        init(from source: Int, to target: Int) {
            let ratio = Double(source) / Double(target)
            for i in 0..<target {
                let start = Double(i) * ratio, end = Double(i + 1) * ratio
                first.append(Int(start))
                offset.append(weights.count)
                var j = Int(start)
                while Double(j) < end && j < source {
                    weights.append(Float((min(end, Double(j + 1)) - max(start, Double(j))) / ratio))
                    j += 1
                }
                count.append(weights.count - offset[i])
            }
        }
    }
}
