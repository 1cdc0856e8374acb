// SPDX-License-Identifier: GPL-2.0-or-later

/// The thumbnail standard's four sizes: the longest side is at most this many
/// pixels, and each has its own directory under `thumbnails/`.
public enum ThumbnailSize: String, CaseIterable, Comparable, Codable, Sendable {
    case normal
    case large
    case xLarge = "x-large"
    case xxLarge = "xx-large"

    public var pixels: Int {
        switch self {
        case .normal: 128
        case .large: 256
        case .xLarge: 512
        case .xxLarge: 1024
        }
    }

    /// The directory under `thumbnails/`; also the name on the wire.
    public var directoryName: String { rawValue }

    /// The smallest size whose thumbnails are at least `pixels` on their longest side.
    public static func fitting(_ pixels: Int) -> ThumbnailSize {
        allCases.first { $0.pixels >= pixels } ?? .xxLarge
    }

    public static func < (a: ThumbnailSize, b: ThumbnailSize) -> Bool { a.pixels < b.pixels }
}
