// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// How a file is turned into a thumbnail: decoded by libvips, through a RAW file's
/// embedded preview, or not at all (a video clip).
public enum ImageFamily: String, Sendable, Equatable {
    case image, raw, video

    /// By the daemon's photo type (its wire name) when given, else by the name's
    /// extension; anything else is an image, and libvips tells by the content
    /// (a HEIC saved as `.jpg` is still read right).
    public static func of(type: String?, name: ByteString) -> ImageFamily {
        if let type, let family = byName[type.lowercased()] { return family }
        if let ext = name.lowercasedExtension, let family = byName[ext] { return family }
        return .image
    }

    /// The MIME type for `Thumb::Mimetype`, when the name says it.
    public static func mimeType(type: String?, name: ByteString) -> String? {
        let key = type?.lowercased() ?? name.lowercasedExtension ?? ""
        return mimeTypes[key]
    }

    private static let byName: [String: ImageFamily] = {
        var table: [String: ImageFamily] = [:]
        for raw in ["cr2", "cr3", "crw", "nef", "nrw", "arw", "srf", "sr2", "dng", "orf", "rw2", "raf", "pef", "srw", "rwl",
                    "3fr", "iiq", "erf", "kdc", "mrw", "x3f"] {
            table[raw] = .raw
        }
        for video in ["mp4", "mov", "m4v", "3gp", "mts", "m2ts", "avi", "mkv", "webm"] { table[video] = .video }
        return table
    }()

    private static let mimeTypes: [String: String] = [
        "jpeg": "image/jpeg", "jpg": "image/jpeg", "png": "image/png", "heic": "image/heic", "heif": "image/heif", "hif": "image/heif",
        "webp": "image/webp", "tiff": "image/tiff", "tif": "image/tiff", "gif": "image/gif", "avif": "image/avif",
        "cr2": "image/x-canon-cr2", "cr3": "image/x-canon-cr3", "nef": "image/x-nikon-nef", "arw": "image/x-sony-arw",
        "dng": "image/x-adobe-dng", "orf": "image/x-olympus-orf", "rw2": "image/x-panasonic-rw2", "raf": "image/x-fuji-raf",
        "mp4": "video/mp4", "mov": "video/quicktime",
    ]
}
