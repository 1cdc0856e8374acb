// SPDX-License-Identifier: GPL-2.0-or-later

/// The JPEGs we make for browsers beside the thumbnails, each in its own directory
/// of the cache and stamped as a `PreviewJPEG`.
public enum PreviewKind: String, Codable, Sendable, CaseIterable {
    /// At full size, for a photo a browser cannot show (a RAW, HEIF, TIFF): what a
    /// loupe zooms to 100 %.
    case full
    /// At most `screenSide` on the longer side, for a photo larger than that: what a
    /// loupe shows fitted, a fraction of the bytes to fetch and of the pixels to
    /// decode (a browser decodes all of a photo's pixels, whatever size it draws it).
    case screen

    /// Larger than a desktop's 1440p or a tablet's 2048 device pixels, so that
    /// nothing on a screen of that size is drawn from fewer pixels than it shows.
    public static let screenSide = 2560

    /// Beside the standard's size folders, never in one (other programs read those
    /// and expect PNGs of at most their size).
    public var directoryName: String {
        switch self {
        case .full: "curatord-preview"
        case .screen: "curatord-screen"
        }
    }
}
