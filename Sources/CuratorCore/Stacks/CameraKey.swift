// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Which camera took a photo, as one number: a hash of EXIF Make, Model and
/// BodySerialNumber (when recorded: two bodies of one model are two cameras).
/// 0 when the file records neither make nor model; such photos are one camera to
/// the stack search, which still asks that they be taken seconds apart and look alike.
enum CameraKey {
    /// From the photo already open (the thumbnail scheduler's descriptor), bounded as
    /// `ExifReader` is. Unreadable EXIF is no camera.
    static func read(_ descriptor: FileDescriptor, size: Int64) -> UInt64 {
        do throws(SystemError) {
            var source = try ExifFileSource(descriptor: descriptor, size: size, budget: ExifReader.readBudget,
                                            headSize: ExifReader.headSize)
            guard let tiff = try ExifLocator.locate(in: &source), let tags = ExifTags(tiff: tiff) else { return 0 }
            return key(make: tags.text(.make, in: .primary), model: tags.text(.model, in: .primary),
                       serial: tags.text(.bodySerialNumber, in: .exif))
        } catch {
            return 0
        }
    }

    static func key(make: String?, model: String?, serial: String?) -> UInt64 {
        guard make != nil || model != nil else { return 0 }
        let text = Array([make ?? "", model ?? "", serial ?? ""].joined(separator: "\u{0}").utf8)
        let hash = text.withUnsafeBytes { ContentHash(of: $0) }
        // Never 0, which means "none recorded".
        return hash.low == 0 ? 1 : hash.low
    }
}
