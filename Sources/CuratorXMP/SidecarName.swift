// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// The sidecar curatord creates for a photo that has none (docs/XMP.md, "The
/// sidecar curatord creates"): a RAW's `NAME.xmp`, which Lightroom, Bridge, Camera
/// Raw and Capture One read; any other photo's `NAME.EXT.xmp`, which darktable
/// and digiKam read.
public enum SidecarName {
    public static func forNewSidecar(of photo: ByteString, isRaw: Bool) -> ByteString {
        let suffix = Array(".xmp".utf8)
        guard isRaw, let dot = photo.bytes.lastIndex(of: UInt8(ascii: ".")), dot > 0 else {
            return ByteString(photo.bytes + suffix)
        }
        return ByteString(Array(photo.bytes[..<dot]) + suffix)
    }
}
