// SPDX-License-Identifier: GPL-2.0-or-later
import CImagingShim
import CVips
import CuratorThumbnails

/// Measures thumbnails for the stack search, in the worker: a difference hash of
/// the `normal` one and the variance of the Laplacian of the `large` one, both by
/// libvips on the thumbnail's luminance. The thumbnails are small (256 and 512
/// pixels), so a measure costs a few milliseconds beside the photo's decoding.
public enum LookMeasure {
    /// The grid of the difference hash: 9 columns give 8 differences a row, 8 rows.
    static let gridWidth = 9, gridHeight = 8

    public static func look(normal: [UInt8], large: [UInt8]?) throws(VipsError) -> ThumbnailLook {
        let hash = try dHash(png: normal)
        let sharpness = try self.sharpness(png: large ?? normal)
        return ThumbnailLook(dhash: hash, sharpness: sharpness)
    }

    /// Bit 63 is the first pair of the first row; a bit is set when the left pixel
    /// of its pair is darker than the right one.
    static func dHash(png: [UInt8]) throws(VipsError) -> UInt64 {
        let image = try decoded(png)
        let grid = try image.apply("grey_grid") { curator_vips_grey_grid($0, $1, Int32(gridWidth), Int32(gridHeight)) }
        let pixels = try grid.pixels()
        guard grid.width == gridWidth, grid.height == gridHeight, grid.bands == 1, pixels.count == gridWidth * gridHeight else {
            throw VipsError(operation: "grey_grid", message: "\(grid.width)x\(grid.height)x\(grid.bands) instead of 9x8x1")
        }
        var bits: UInt64 = 0
        for row in 0..<gridHeight {
            for column in 0..<(gridWidth - 1) {
                let left = pixels[row * gridWidth + column], right = pixels[row * gridWidth + column + 1]
                bits = bits << 1 | (left < right ? 1 : 0)
            }
        }
        return bits
    }

    static func sharpness(png: [UInt8]) throws(VipsError) -> Double {
        let image = try decoded(png)
        var variance = 0.0
        guard curator_vips_laplacian_variance(image.pointer, &variance) == 0 else { throw VipsError.take("laplacian") }
        return variance
    }

    private static func decoded(_ png: [UInt8]) throws(VipsError) -> VipsImageRef {
        var result: Result<VipsImageRef, VipsError> = .failure(VipsError(operation: "pngload", message: "no bytes"))
        png.withUnsafeBytes { bytes in
            do throws(VipsError) {
                let source = try VipsSourceRef.memory(bytes)
                guard let image = curator_vips_open_source(source.pointer, Int32(VIPS_FAIL_ON_TRUNCATED.rawValue)) else {
                    throw VipsError.take("pngload")
                }
                // Decoded while the bytes are here: the image must not outlive them lazily.
                result = .success(try VipsImageRef(image).materialized())
            } catch {
                result = .failure(error)
            }
        }
        return try result.get()
    }
}
