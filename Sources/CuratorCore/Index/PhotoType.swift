// SPDX-License-Identifier: GPL-2.0-or-later
// TEMPORARY stand-in; replaced by the full version from the exif branch.
import CuratorSystem

public enum PhotoType: String, Sendable, CaseIterable {
    case jpeg, png, heic, webp, tiff, gif, avif, cr2, cr3, nef, arw, dng, orf, rw2, raf, mp4, mov

    public var wireName: String { rawValue }
    public init?(wireName: String) { self.init(rawValue: wireName) }

    public static func detect(name: ByteString) -> PhotoType? {
        guard let ext = name.lowercasedExtension else { return nil }
        switch ext {
        case "jpg", "jpeg": return .jpeg
        case "heif": return .heic
        case "tif": return .tiff
        default: return PhotoType(rawValue: ext)
        }
    }
}
