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
        case subSecTime, subSecTimeOriginal, subSecTimeDigitized
        case offsetTime, offsetTimeOriginal, offsetTimeDigitized
        case make, model, lensModel, orientation, pixelXDimension, pixelYDimension, bodySerialNumber
        case exposureTime, fNumber, isoSpeedRatings, focalLength

        fileprivate var exifTag: ExifTag {
            switch self {
            case .subSecTime: EXIF_TAG_SUB_SEC_TIME
            case .subSecTimeOriginal: EXIF_TAG_SUB_SEC_TIME_ORIGINAL
            case .subSecTimeDigitized: EXIF_TAG_SUB_SEC_TIME_DIGITIZED
            case .offsetTime: EXIF_TAG_OFFSET_TIME
            case .offsetTimeOriginal: EXIF_TAG_OFFSET_TIME_ORIGINAL
            case .offsetTimeDigitized: EXIF_TAG_OFFSET_TIME_DIGITIZED
            case .dateTime: EXIF_TAG_DATE_TIME
            case .dateTimeOriginal: EXIF_TAG_DATE_TIME_ORIGINAL
            case .dateTimeDigitized: EXIF_TAG_DATE_TIME_DIGITIZED
            case .make: EXIF_TAG_MAKE
            case .model: EXIF_TAG_MODEL
            case .lensModel: EXIF_TAG_LENS_MODEL
            case .bodySerialNumber: EXIF_TAG_BODY_SERIAL_NUMBER
            case .orientation: EXIF_TAG_ORIENTATION
            case .pixelXDimension: EXIF_TAG_PIXEL_X_DIMENSION
            case .pixelYDimension: EXIF_TAG_PIXEL_Y_DIMENSION
            case .exposureTime: EXIF_TAG_EXPOSURE_TIME
            case .fNumber: EXIF_TAG_FNUMBER
            case .isoSpeedRatings: EXIF_TAG_ISO_SPEED_RATINGS
            case .focalLength: EXIF_TAG_FOCAL_LENGTH
            }
        }
    }

    /// An ASCII tag's text, without its NUL and surrounding spaces (cameras pad
    /// Make and Model); nil when absent, empty, or not ASCII-typed.
    func text(_ tag: Tag, in ifd: IFD) -> String? {
        guard let content = ifd.content(of: data),
              let entry = exif_content_get_entry(content, tag.exifTag),
              entry.pointee.format == EXIF_FORMAT_ASCII, let bytes = entry.pointee.data
        else { return nil }
        let raw = UnsafeBufferPointer(start: bytes, count: Int(entry.pointee.size)).prefix { $0 != 0 }
        let text = String(decoding: raw, as: UTF8.self)
        let trimmed = text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()
        return trimmed.isEmpty ? nil : String(trimmed)
    }

    /// A SHORT or LONG tag's first value, in the block's byte order.
    func integer(_ tag: Tag, in ifd: IFD) -> Int? {
        guard let content = ifd.content(of: data),
              let entry = exif_content_get_entry(content, tag.exifTag),
              entry.pointee.components >= 1, let bytes = entry.pointee.data
        else { return nil }
        let order = exif_data_get_byte_order(data)
        switch entry.pointee.format {
        case EXIF_FORMAT_SHORT where entry.pointee.size >= 2: return Int(exif_get_short(bytes, order))
        case EXIF_FORMAT_LONG where entry.pointee.size >= 4: return Int(exif_get_long(bytes, order))
        default: return nil
        }
    }

    /// An unsigned RATIONAL tag's first value as a number (1/250 is 0.004); nil
    /// when absent, of another type, or over a zero denominator.
    func rational(_ tag: Tag, in ifd: IFD) -> Double? {
        guard let content = ifd.content(of: data),
              let entry = exif_content_get_entry(content, tag.exifTag),
              entry.pointee.format == EXIF_FORMAT_RATIONAL, entry.pointee.size >= 8, let bytes = entry.pointee.data
        else { return nil }
        let value = exif_get_rational(bytes, exif_data_get_byte_order(data))
        guard value.denominator != 0 else { return nil }
        return Double(value.numerator) / Double(value.denominator)
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
