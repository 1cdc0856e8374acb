// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// The part a file plays in a group. The raw value is the wire name (a listing's
/// `members[].kind`), so it never changes.
public enum MemberKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// A picture a camera or program rendered: JPEG, HEIC, PNG, TIFF, WebP, AVIF, GIF.
    case rendered
    case raw
    /// A clip: a Live Photo's motion, a camera's movie.
    case video
    /// Not a photo: edits or metadata about one (`.xmp`, `.aae`, `.pp3`, `.dop`, `.thm`).
    case sidecar

    public init(_ type: PhotoType) {
        switch type.family {
        case .image: self = .rendered
        case .raw: self = .raw
        case .video: self = .video
        case .sidecar: self = .sidecar
        }
    }
}

/// The sidecar formats a group takes along, told by extension (ASCII case folded).
public enum SidecarFormat: String, Hashable, Sendable, CaseIterable {
    /// Adobe XMP (darktable, Lightroom, digiKam, RawTherapee's metadata).
    case xmp
    /// Apple Photos' edits.
    case aae
    /// RawTherapee's processing profile.
    case pp3
    /// DxO PhotoLab's edits.
    case dop
    /// Canon's thumbnail of a movie.
    case thm

    /// The format of a sidecar's type; nil for a photo's. A switch, not the raw
    /// value looked up as a string: asked of every sidecar a grouping reads.
    init?(_ type: PhotoType) {
        switch type {
        case .xmp: self = .xmp
        case .aae: self = .aae
        case .pp3: self = .pp3
        case .dop: self = .dop
        case .thm: self = .thm
        case .jpeg, .png, .heic, .webp, .tiff, .gif, .avif, .cr2, .cr3, .nef, .arw, .dng, .orf, .rw2, .raf, .mp4, .mov: return nil
        }
    }
}

/// What a file name says about the shot it belongs to. Names are bytes: only ASCII
/// letters are case folded, so a name that is not UTF-8 groups like any other.
enum ShotName: Hashable {
    /// A photo of shot `base` (its name without the extension, case folded).
    case photo(PhotoType, base: ByteString)
    /// A sidecar of the whole shot `base`: `IMG_0001.xmp`, `IMG_0001.AAE`.
    case shotSidecar(SidecarFormat, base: ByteString)
    /// A sidecar of one file, named by appending to that file's whole name:
    /// `IMG_0001.CR2.xmp` is about `IMG_0001.CR2`. `duplicateOf` is the file a
    /// darktable duplicate's sidecar (`IMG_0001_01.CR2.xmp`) is about.
    case fileSidecar(SidecarFormat, file: ByteString, duplicateOf: ByteString?)
    case other

    init(_ name: ByteString) {
        // Read from the bytes (`ShotKeys`' reading of extensions, as
        // `PhotoType.detectFile` tells them): a folder's names are all read here.
        self = name.bytes.withUnsafeBufferPointer { bytes in
            guard let (type, dot) = ShotKeys.fileType(bytes) else { return .other }
            guard type.isSidecar else { return .photo(type, base: Self.folded(bytes[..<dot])) }
            guard let format = SidecarFormat(type) else { return .other }
            let stem = UnsafeBufferPointer(rebasing: bytes[..<dot])
            if let (file, _) = ShotKeys.fileType(stem), !file.isSidecar {
                let stem = ByteString(Array(stem))
                return .fileSidecar(format, file: stem, duplicateOf: format == .xmp ? Self.darktableOriginal(stem) : nil)
            }
            return .shotSidecar(format, base: Self.folded(stem[...]))
        }
    }

    /// The bases whose grouping this name can change: a photo's own, a shot
    /// sidecar's, the files a file sidecar may be about. Names that share none
    /// group independently of each other.
    static func keys(of name: ByteString) -> [ByteString] {
        switch ShotName(name) {
        case .photo(_, let base), .shotSidecar(_, let base): [base]
        case .fileSidecar(_, let file, let original): [foldedStem(file)] + (original.map { [foldedStem($0)] } ?? [])
        case .other: []
        }
    }

    var isSidecar: Bool {
        switch self {
        case .shotSidecar, .fileSidecar: true
        case .photo, .other: false
        }
    }

    /// The name without its last extension (`IMG_0001.CR2.xmp` → `IMG_0001.CR2`).
    /// Only called for names that have one.
    static func stem(_ name: ByteString) -> ByteString {
        guard let dot = name.bytes.lastIndex(of: UInt8(ascii: ".")) else { return name }
        return ByteString(Array(name.bytes[..<dot]))
    }

    static func foldedStem(_ name: ByteString) -> ByteString { folded(stem(name)) }

    /// ASCII letters lowercased; every other byte as it is.
    static func folded(_ name: ByteString) -> ByteString {
        ByteString(name.bytes.map { ($0 >= 65 && $0 <= 90) ? $0 + 32 : $0 })
    }

    static func folded(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> ByteString {
        ByteString(bytes.map { ($0 >= 65 && $0 <= 90) ? $0 + 32 : $0 })
    }

    /// darktable names the sidecar of a photo's n-th duplicate (n from 1)
    /// `<base>_<nn>.<ext>.xmp`, two digits or three past 99: the file it is about
    /// is `<base>.<ext>`. Nil when `stem` is not shaped so; a camera's own number
    /// (`IMG_0001`, four digits) is not taken for a duplicate's.
    static func darktableOriginal(_ stem: ByteString) -> ByteString? {
        let bytes = stem.bytes
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")) else { return nil }
        var i = dot
        while i > bytes.startIndex, bytes[i - 1] >= UInt8(ascii: "0"), bytes[i - 1] <= UInt8(ascii: "9") { i -= 1 }
        let digits = dot - i
        guard (2...3).contains(digits), bytes[i..<dot].contains(where: { $0 != UInt8(ascii: "0") }),
              i - 1 > bytes.startIndex, bytes[i - 1] == UInt8(ascii: "_") else { return nil }
        return ByteString(Array(bytes[..<(i - 1)]) + Array(bytes[dot...]))
    }
}
