// SPDX-License-Identifier: GPL-2.0-or-later

/// What a photo looks like, as the stack search compares photos: measured by the
/// worker on the thumbnails (libvips never enters the daemon).
///
///     "look":{"dhash":"f0e4c8d0b0a09088","sharpness":412.5}
public struct ThumbnailLook: Codable, Equatable, Sendable {
    /// A 64-bit difference hash of the `normal` thumbnail (16 hex digits): its
    /// luminance on a 9x8 grid, one bit per pair of neighbours in a row, set when
    /// the left one is darker. Photos that look alike differ in few bits.
    public var dhash: String
    /// The variance of the Laplacian of the `large` thumbnail's luminance (the
    /// `normal` one's when there is no large): larger is sharper.
    public var sharpness: Double

    public init(dhash: UInt64, sharpness: Double) {
        let digits = String(dhash, radix: 16)
        self.dhash = String(repeating: "0", count: 16 - digits.count) + digits
        self.sharpness = sharpness
    }

    /// The hash as bits; nil when the text is not 16 hex digits.
    public var hashBits: UInt64? {
        guard dhash.utf8.count == 16 else { return nil }
        return UInt64(dhash, radix: 16)
    }
}
