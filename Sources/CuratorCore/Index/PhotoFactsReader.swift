// SPDX-License-Identifier: GPL-2.0-or-later
import CLinux
import CuratorSystem
import Glibc

/// What `photo.info` reads from a file when asked: the camera (EXIF Make, Model,
/// LensModel), the exposure (ExposureTime, FNumber, ISO, FocalLength), the
/// orientation, and the pixel size (the image's own header, else
/// EXIF PixelX/YDimension). Bounded as `ExifReader` is: only a regular file, at
/// most `ExifReader.readBudget` bytes by positioned reads.
struct PhotoFacts: Equatable {
    var make: String?
    var model: String?
    var lens: String?
    var width: Int?
    var height: Int?
    var orientation: Int?
    var exposureTime: Double?
    var fNumber: Double?
    var iso: Int?
    var focalLength: Double?
}

enum PhotoFactsReader {
    /// The facts of the photo already open (`PhotoReadAccess`): nothing is opened by name.
    static func read(_ photo: OpenedPhoto, path: ByteString) throws(SystemError) -> PhotoFacts {
        do throws(SystemError) {
            guard photo.status.isRegularFile else { throw SystemError("read", errno: .invalid) }
            var source = try ExifFileSource(descriptor: photo.descriptor, size: photo.status.size, budget: ExifReader.readBudget,
                                            headSize: ExifReader.headSize)
            return try facts(from: &source)
        } catch {
            throw SystemError(error.call, path: path.lossyString, errno: error.errno)
        }
    }

    static func facts(from source: inout some ExifByteSource) throws(SystemError) -> PhotoFacts {
        var facts = PhotoFacts()
        if let tiff = try ExifLocator.locate(in: &source), let tags = ExifTags(tiff: tiff) {
            facts.make = tags.text(.make, in: .primary)
            facts.model = tags.text(.model, in: .primary)
            facts.lens = tags.text(.lensModel, in: .exif)
            // A zero is a camera's "not known" (a manual lens says no aperture).
            facts.exposureTime = tags.rational(.exposureTime, in: .exif).flatMap { $0 > 0 ? $0 : nil }
            facts.fNumber = tags.rational(.fNumber, in: .exif).flatMap { $0 > 0 ? $0 : nil }
            facts.iso = tags.integer(.isoSpeedRatings, in: .exif).flatMap { $0 > 0 ? $0 : nil }
            facts.focalLength = tags.rational(.focalLength, in: .exif).flatMap { $0 > 0 ? $0 : nil }
            facts.orientation = tags.integer(.orientation, in: .primary).flatMap { (1...8).contains($0) ? $0 : nil }
            if let width = tags.integer(.pixelXDimension, in: .exif), let height = tags.integer(.pixelYDimension, in: .exif),
               width > 0, height > 0 {
                (facts.width, facts.height) = (width, height)
            }
        }
        // The header's size is the image's; EXIF's may be a stale value an editor left.
        if let size = try ImageDimensions.read(from: &source) { (facts.width, facts.height) = (size.width, size.height) }
        return facts
    }
}
