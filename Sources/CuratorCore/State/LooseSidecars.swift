// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// In a root that does not group (`groups: false`) every photo file is a photo of
/// its own and a sidecar belongs to no group; its marks are still a photo's
/// (docs/XMP.md, "A root without groups"). A sidecar `BASE.xmp` there is about the
/// photo named `BASE` (its own, `NAME.EXT.xmp`: darktable's, digiKam's) and about
/// each RAW named `BASE.EXT` (the shot's, `NAME.xmp`: Lightroom's and Capture One's,
/// which those tools write only beside a RAW; curatord creates it only for one).
enum LooseSidecars {
    /// The RAW extensions, each as it is and in capitals, as cameras name files.
    private static let rawExtensions: [[UInt8]] = PhotoType.allCases.filter { $0.family == .raw }.flatMap { type in
        type.extensions.flatMap { ext in [Array(ext.utf8), Array(ext.uppercased().utf8)] }
    }

    /// The photos of `folder` the sidecar `name` is about, by name lookups in the
    /// folder (no walk over it).
    static func owners(of name: ByteString, folder: Int32, in library: PhotoLibrary) -> [Int64] {
        let bytes = name.bytes
        guard bytes.count > 4, MarkedFiles.folded(ByteString(Array(bytes.suffix(4)))) == ".xmp" else { return [] }
        let base = Array(bytes.dropLast(4))
        // The file's own sidecar (darktable's `NAME.EXT.xmp`, the common case): one lookup.
        if let own = library.photoID(folder: folder, name: ByteString(base)), library.photo(own)?.type.isSidecar == false {
            return [own]
        }
        var owners: [Int64] = []
        for ext in rawExtensions {
            if let raw = library.photoID(folder: folder, name: ByteString(base + [UInt8(ascii: ".")] + ext)), !owners.contains(raw) {
                owners.append(raw)
            }
        }
        return owners
    }

    /// The sidecars about `photo` (in a root that does not group): its own and,
    /// for a RAW, the shot's, each named with `.xmp` or `.XMP`.
    static func of(_ photo: Photo, in library: PhotoLibrary) -> [Photo] {
        var bases = [photo.name.bytes]
        if photo.type.family == .raw, let dot = photo.name.bytes.lastIndex(of: UInt8(ascii: ".")), dot > 0 {
            bases.append(Array(photo.name.bytes[..<dot]))
        }
        var found: [Photo] = []
        for base in bases {
            for suffix in [".xmp", ".XMP"] {
                guard let id = library.photoID(folder: photo.folderID, name: ByteString(base + Array(suffix.utf8))),
                      let sidecar = library.photo(id), sidecar.type == .xmp else { continue }
                found.append(sidecar)
            }
        }
        return found
    }
}
