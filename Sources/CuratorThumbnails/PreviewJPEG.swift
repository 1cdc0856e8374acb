// SPDX-License-Identifier: GPL-2.0-or-later

/// The segments a preview JPEG gets from us, right after its SOI: an Exif APP1
/// that says only its orientation (browsers turn a JPEG by it, so a camera's
/// preview is kept as it was written, never decoded and encoded again), then a COM
/// segment stamping it with the photo it was made of, as a PNG thumbnail carries
/// `Thumb::URI` and `Thumb::MTime`: a preview of an older version of the photo
/// is never taken for the photo's.
public enum PreviewJPEG {
    /// Opens the COM segment's text, so that no other comment is taken for a stamp.
    static let stampTag = "curatord-preview"
    /// How much of a preview's head holds the stamp: SOI, our Exif APP1, the COM
    /// segment (at most 64 KiB).
    public static let headLimit = 2 + 36 + 2 + 65_535

    /// `jpeg` stamped as made of `subject`, with an Exif APP1 saying `orientation`
    /// (1-8) when it is given, in place of any Exif APP1 it carried. nil when
    /// `jpeg` is no JPEG whose header segments can be walked, or the stamp does not
    /// fit in a segment.
    public static func stamped(_ jpeg: [UInt8], subject: ThumbnailSubject, orientation: Int?) -> [UInt8]? {
        guard let (segments, scan) = headerSegments(jpeg) else { return nil }
        var text = stampTag + "\n"
        for (key, value) in subject.textEntries { text += "\(key)=\(value)\n" }
        let comment = Array(text.utf8)
        guard comment.count + 2 <= 0xFFFF else { return nil }
        var out: [UInt8] = [0xFF, 0xD8]
        if let orientation { out += exifOrientation(orientation) }
        out += [0xFF, 0xFE, UInt8((comment.count + 2) >> 8), UInt8((comment.count + 2) & 0xFF)] + comment
        for segment in segments {
            let body = jpeg[segment.range].dropFirst(4)
            if segment.marker == 0xFE && body.starts(with: stampTag.utf8) { continue }
            if orientation != nil && segment.marker == 0xE1 && body.starts(with: exifHeader) { continue }
            out += jpeg[segment.range]
        }
        out += jpeg[scan...]
        return out
    }

    /// The stamp's keys and values in a preview whose first bytes are `head`; nil
    /// when it has none.
    public static func stamp(inHead head: [UInt8]) -> [String: String]? {
        guard let (segments, _) = headerSegments(head, needsScan: false) else { return nil }
        for segment in segments where segment.marker == 0xFE {
            let lines = head[segment.range].dropFirst(4).split(separator: 0x0A, omittingEmptySubsequences: false)
            guard let first = lines.first, first.elementsEqual(stampTag.utf8) else { continue }
            var text: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let equals = line.firstIndex(of: 0x3D) else { continue }
                text[String(decoding: line[..<equals], as: UTF8.self)] = String(decoding: line[(equals + 1)...], as: UTF8.self)
            }
            return text
        }
        return nil
    }

    /// The size a baseline, extended or progressive JPEG's frame header says; nil
    /// for another kind (a lossless one is no picture a browser shows).
    public static func dimensions(_ jpeg: [UInt8]) -> (width: Int, height: Int)? {
        guard let (segments, _) = headerSegments(jpeg, stopAtFrame: true),
              let frame = segments.last, [0xC0, 0xC1, 0xC2].contains(frame.marker), frame.range.count >= 9 else { return nil }
        let at = frame.range.lowerBound
        let height = Int(jpeg[at + 5]) << 8 | Int(jpeg[at + 6])
        let width = Int(jpeg[at + 7]) << 8 | Int(jpeg[at + 8])
        return width > 0 && height > 0 ? (width, height) : nil
    }

    static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]

    /// An Exif APP1 segment holding IFD0 with Orientation alone (big-endian TIFF).
    static func exifOrientation(_ orientation: Int) -> [UInt8] {
        let tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,
                             0x00, 0x01,
                             0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, UInt8(clamping: orientation), 0x00, 0x00,
                             0x00, 0x00, 0x00, 0x00]
        let length = 2 + exifHeader.count + tiff.count
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + exifHeader + tiff
    }

    struct Segment {
        var marker: UInt8
        /// From its 0xFF to its end.
        var range: Range<Int>
    }

    /// The segments between SOI and the first scan (SOS), and where the scan begins.
    /// Bounded: at most 64 segments, each inside `bytes`. With `stopAtFrame`, the
    /// walk ends at (and includes) the first frame header; without `needsScan`, a
    /// head cut short ends it.
    static func headerSegments(_ bytes: [UInt8], needsScan: Bool = true, stopAtFrame: Bool = false) -> ([Segment], scan: Int)? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var segments: [Segment] = []
        var at = 2
        for _ in 0..<64 {
            guard at + 4 <= bytes.count else { break }
            guard bytes[at] == 0xFF else { return nil }
            let marker = bytes[at + 1]
            if marker == 0xFF {
                at += 1
                continue
            }
            if marker == 0xDA { return (segments, at) }
            if marker == 0xD9 || (0xD0...0xD7).contains(marker) || marker == 0x01 { return nil }
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2 else { return nil }
            guard at + 2 + length <= bytes.count else { break }
            segments.append(Segment(marker: marker, range: at..<(at + 2 + length)))
            if stopAtFrame, (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) { return (segments, at + 2 + length) }
            at += 2 + length
        }
        return needsScan ? nil : (segments, at)
    }
}
