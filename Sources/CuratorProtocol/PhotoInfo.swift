// SPDX-License-Identifier: GPL-2.0-or-later

/// `photo.info`: one photo's facts read from its file when asked (the camera, the
/// image's size), beside what the index knows of it.
public struct PhotoInfoRequest: ProtocolRequest {
    public static let name = "photo.info"
    public typealias Result = PhotoInfoResult
    public var photo: Int64?

    public init(photo: Int64) { self.photo = photo }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        photo = try container.integer(Int64.self, forKey: .photo, literals: NumberLiterals.of(decoder.userInfo))
    }
}

public struct PhotoInfoResult: Codable, Sendable {
    /// The photo as a listing shows it (every field; no `position`).
    public var photo: PhotoSummary
    /// EXIF Make and Model (IFD0), trimmed; absent when the file has none.
    public var cameraMake: String?
    public var cameraModel: String?
    /// Lens model (EXIF LensModel), when recorded.
    public var lens: String?
    /// The image's pixel size as stored (before `orientation` is applied), from the
    /// image's own header (JPEG, PNG, GIF, WebP) or else EXIF PixelX/YDimension.
    public var width: Int?
    public var height: Int?
    /// EXIF Orientation, 1-8, when recorded (5-8 show the image turned a quarter).
    public var orientation: Int?
    /// The exposure as EXIF records it: ExposureTime in seconds (1/250 is 0.004),
    /// FNumber, ISO (ISOSpeedRatings' first value), FocalLength in millimetres.
    public var exposureTime: Double?
    public var fNumber: Double?
    public var iso: Int?
    public var focalLength: Double?
    /// Why the file could not be read (the index's facts in `photo` still hold):
    /// `not_there`, `unreadable` or `offline`, then what happened.
    public var unreadable: String?
    /// Its stars, flag and colour label as its XMP sidecars say them now
    /// (docs/XMP.md); absent when a sidecar could not be read.
    public var marks: PhotoMarksValue?

    public init(photo: PhotoSummary, cameraMake: String? = nil, cameraModel: String? = nil, lens: String? = nil,
                width: Int? = nil, height: Int? = nil, orientation: Int? = nil, unreadable: String? = nil,
                marks: PhotoMarksValue? = nil, exposureTime: Double? = nil, fNumber: Double? = nil, iso: Int? = nil,
                focalLength: Double? = nil) {
        self.photo = photo
        self.cameraMake = cameraMake
        self.cameraModel = cameraModel
        self.lens = lens
        self.width = width
        self.height = height
        self.orientation = orientation
        self.unreadable = unreadable
        self.marks = marks
        self.exposureTime = exposureTime
        self.fNumber = fNumber
        self.iso = iso
        self.focalLength = focalLength
    }

    /// The camera as people name it: the model alone when it starts with the make's
    /// first word ("Canon" + "Canon EOS R5"), else both.
    public var camera: String? {
        let make = cameraMake ?? "", model = cameraModel ?? ""
        if make.isEmpty { return model.isEmpty ? nil : model }
        if model.isEmpty { return make }
        let brand = make.split(separator: " ").first.map { $0.lowercased() } ?? make.lowercased()
        return model.lowercased().hasPrefix(brand) ? model : "\(make) \(model)"
    }
}
