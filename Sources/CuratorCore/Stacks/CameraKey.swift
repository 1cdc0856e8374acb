// SPDX-License-Identifier: GPL-2.0-or-later
import CuratorSystem

/// Which camera took a photo, as one 32-bit number: a hash of EXIF Make, Model and
/// BodySerialNumber (when recorded: two bodies of one model are two cameras).
/// `unknown` when the file records neither make nor model: no camera, equal to no
/// other, so such photos are never in a stack (`StackSets`).
enum CameraKey {
    static let unknown: UInt32 = 0

    /// From the photo already open (the thumbnail scheduler's descriptor), bounded as
    /// `ExifReader` is. Unreadable EXIF is no camera.
    static func read(_ descriptor: FileDescriptor, size: Int64) -> UInt32 {
        do throws(SystemError) {
            var source = try ExifFileSource(descriptor: descriptor, size: size, budget: ExifReader.readBudget,
                                            headSize: ExifReader.headSize)
            guard let tiff = try ExifLocator.locate(in: &source), let tags = ExifTags(tiff: tiff) else { return unknown }
            return key(make: tags.text(.make, in: .primary), model: tags.text(.model, in: .primary),
                       serial: tags.text(.bodySerialNumber, in: .exif))
        } catch {
            return unknown
        }
    }

    static func key(make: String?, model: String?, serial: String?) -> UInt32 {
        guard make != nil || model != nil else { return unknown }
        let text = Array([make ?? "", model ?? "", serial ?? ""].joined(separator: "\u{0}").utf8)
        let hash = text.withUnsafeBytes { ContentHash(of: $0) }
        return narrowed(hash.low == 0 ? 1 : hash.low)
    }

    /// A key as the index of version 6 kept it (64 bits, 0 for none) in 32 bits,
    /// as `key` makes it now; never `unknown` unless it was none.
    static func narrowed(_ wide: UInt64) -> UInt32 {
        guard wide != 0 else { return unknown }
        let narrow = UInt32(truncatingIfNeeded: wide)
        return narrow == unknown ? 1 : narrow
    }
}
