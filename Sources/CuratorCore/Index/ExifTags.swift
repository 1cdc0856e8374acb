// SPDX-License-Identifier: GPL-2.0-or-later
import CExif

/// The parsed IFDs of one EXIF block, owned by this value: libexif's data is
/// released when it goes out of scope. Each value has its own libexif objects
/// and libexif keeps no global state while parsing, so any thread may make one.
struct ExifTags: ~Copyable {
    private let data: UnsafeMutablePointer<ExifData>

    /// Parses a TIFF block (`II*\0...`); nil when libexif cannot allocate.
    init?(tiff: [UInt8]) {
        guard let data = exif_data_new() else { return nil }
        // Load what is there and nothing more. By default libexif drops tags it
        // does not expect in an IFD (CR3 keeps DateTimeOriginal in a TIFF's
        // first IFD, some writers put it in IFD0), and then "fixes" the data to
        // the standard by adding mandatory entries, work we never read.
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        var block = ExifLocator.exifHeader
        block.append(contentsOf: tiff.prefix(ExifLocator.maximumTIFFSize))
        block.withUnsafeBufferPointer { buffer in
            exif_data_load_data(data, buffer.baseAddress, UInt32(buffer.count))
        }
        self.data = data
    }

    deinit { exif_data_unref(data) }

    enum IFD {
        case primary, exif

        fileprivate func content(of data: UnsafeMutablePointer<ExifData>) -> UnsafeMutablePointer<ExifContent>? {
            switch self {
            case .primary: data.pointee.ifd.0
            case .exif: data.pointee.ifd.2
            }
        }
    }

    enum Tag {
        case dateTime, dateTimeOriginal, dateTimeDigitized

        fileprivate var exifTag: ExifTag {
            switch self {
            case .dateTime: EXIF_TAG_DATE_TIME
            case .dateTimeOriginal: EXIF_TAG_DATE_TIME_ORIGINAL
            case .dateTimeDigitized: EXIF_TAG_DATE_TIME_DIGITIZED
            }
        }
    }

    /// The raw bytes of a tag's value, whatever its declared format.
    func value(_ tag: Tag, in ifd: IFD) -> [UInt8]? {
        guard let content = ifd.content(of: data),
              let entry = exif_content_get_entry(content, tag.exifTag),
              let bytes = entry.pointee.data
        else { return nil }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(entry.pointee.size)))
    }
}
